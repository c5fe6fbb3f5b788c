package dataset

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// GenConfig sizes the synthetic data. Start from DefaultGenConfig.
type GenConfig struct {
	// Seed makes the output reproducible: equal configs give equal bytes.
	Seed uint64
	// Samples is the number of conversations.
	Samples int
	// Sessions is the number of sessions per conversation.
	Sessions int
	// TurnsPerSession is the mean session length; each session varies by
	// up to a quarter either way.
	TurnsPerSession int
	// NoiseRatio is the share of turns that state no fact, in [0, 0.95].
	NoiseRatio float64
	// QuestionsPerSample is the number of questions asked per conversation.
	// Small conversations may hold fewer answerable facts than asked for.
	QuestionsPerSample int
	// Paraphrase is the share of questions, in [0, 1], worded so as to
	// avoid the key content words of their evidence. The others reuse one
	// or two of them (the event noun, the object, the relation word), as
	// LoCoMo's annotators often did: "When did Lucia volunteer at the
	// animal shelter?" for "yesterday I volunteered at the animal shelter".
	// Distractors name the same people, pets and topics either way. 1 is
	// the hard setting, where lexical retrieval finds least; the default
	// is calibrated on published LoCoMo (see DefaultGenConfig).
	Paraphrase float64
}

// DefaultGenConfig returns the sizes used by memeval: 10 conversations of
// 20 sessions and about 640 turns (roughly 20k cl100k tokens as the
// replay renders them), half of them noise, with 64 questions each.
//
// Its length and Paraphrase (0.5) are calibrated so that the baselines of
// the evaluation scores on it what they score on published LoCoMo data at
// 1,024, 2,048 and 4,096 tokens, within a few points: evidence recall
// near 0.69, 0.74 and 0.79 for a BM25 retriever and near 0.05, 0.10 and
// 0.21 for langchaingo's newest-first token buffer. The length sets the
// buffer's share, Paraphrase the retriever's. Set Paraphrase to 1 for the
// hard setting (BM25 near 0.44, 0.54 and 0.62).
func DefaultGenConfig() GenConfig {
	return GenConfig{Seed: 1, Samples: 10, Sessions: 20, TurnsPerSession: 32, NoiseRatio: 0.5, QuestionsPerSample: 64, Paraphrase: 0.5}
}

func (c GenConfig) validate() error {
	switch {
	case c.Samples < 1:
		return fmt.Errorf("dataset: generate: Samples %d < 1: %w", c.Samples, ErrInvalidConfig)
	case c.Sessions < 1:
		return fmt.Errorf("dataset: generate: Sessions %d < 1: %w", c.Sessions, ErrInvalidConfig)
	case c.TurnsPerSession < 2:
		return fmt.Errorf("dataset: generate: TurnsPerSession %d < 2: %w", c.TurnsPerSession, ErrInvalidConfig)
	case !(c.NoiseRatio >= 0 && c.NoiseRatio <= 0.95):
		return fmt.Errorf("dataset: generate: NoiseRatio %v outside [0, 0.95]: %w", c.NoiseRatio, ErrInvalidConfig)
	case c.QuestionsPerSample < 0:
		return fmt.Errorf("dataset: generate: QuestionsPerSample %d < 0: %w", c.QuestionsPerSample, ErrInvalidConfig)
	case !(c.Paraphrase >= 0 && c.Paraphrase <= 1):
		return fmt.Errorf("dataset: generate: Paraphrase %v outside [0, 1]: %w", c.Paraphrase, ErrInvalidConfig)
	}
	return nil
}

// Generate returns synthetic conversations in the LoCoMo model. Sample i
// depends only on cfg and i. Turns that state no fact have Noise set.
func Generate(cfg GenConfig) ([]Sample, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	out := make([]Sample, cfg.Samples)
	for i := range out {
		b := &builder{rng: rand.New(rand.NewPCG(cfg.Seed, uint64(i))), cfg: cfg, eventCount: make(map[string]int)}
		out[i] = b.sample(fmt.Sprintf("synth-%d-%d", cfg.Seed, i))
	}
	return out, nil
}

// person is a speaker and what the noise may mention about them.
type person struct {
	name    string
	female  bool
	job     job
	hobby   string
	pet     string // name, "" without a pet
	species string
	music   bool
	car     bool
	kin     []*kin
	echoes  []string // past events a near-repeat can refer to
}

// kin is a third person in a speaker's life.
type kin struct {
	role    string
	phrases []string
	name    string
	female  bool
	said    bool // introduced in the conversation so far
}

func (p *person) pronouns() (pron, pos string) {
	if p.female {
		return "she", "her"
	}
	return "he", "his"
}

// slot is one turn position of the conversation.
type slot struct {
	session int // 1-based
	index   int // 1-based within the session
	last    bool
	speaker int
	at      time.Time
	isFact  bool
	fact    *statement // nil on a fact slot means an event, made on render
}

// builder assembles one conversation.
type builder struct {
	rng    *rand.Rand
	cfg    GenConfig
	people [2]*person

	females, males, petNames, cities *deck[string]

	stmts      [2][]*statement
	questions  []*question
	eventCount map[string]int // only looked up, never ranged over
	slots      []*slot
	dates      []time.Time
}

func (b *builder) name(female bool) (string, bool) {
	if female {
		return b.females.draw()
	}
	return b.males.draw()
}

func (b *builder) sample(id string) Sample {
	r := b.rng
	b.females, b.males = newDeck(r, femaleNames), newDeck(r, maleNames)
	b.petNames, b.cities = newDeck(r, petNames), newDeck(r, cities)
	for sp := range b.people {
		female := chance(r, 0.5)
		name, _ := b.name(female)
		b.people[sp] = &person{name: name, female: female}
	}
	b.persona(0)
	b.persona(1)
	b.layout()
	for sp := range b.people {
		b.place(sp)
	}
	s := Sample{ID: id, SpeakerA: b.people[0].name, SpeakerB: b.people[1].name}
	s.Sessions = b.render()
	s.QA = b.selectQA()
	return s
}

// layout fixes session lengths, dates, speakers, and which turns state facts.
func (b *builder) layout() {
	r := b.rng
	day := time.Date(2022, 1, 3, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(540))
	var eligible, other []int
	for s := 1; s <= b.cfg.Sessions; s++ {
		if s > 1 {
			switch x := r.Float64(); {
			case x < 0.7:
				day = day.AddDate(0, 0, 2+r.IntN(8))
			case x < 0.95:
				day = day.AddDate(0, 0, 10+r.IntN(15))
			default:
				day = day.AddDate(0, 0, 25+r.IntN(21))
			}
		}
		at := day.Add(time.Duration(8+r.IntN(14))*time.Hour + time.Duration(r.IntN(60))*time.Minute)
		b.dates = append(b.dates, at)
		n := max(2, int(math.Round(float64(b.cfg.TurnsPerSession)*(0.75+0.5*r.Float64()))))
		starter := r.IntN(2)
		for i := range n {
			idx := len(b.slots)
			b.slots = append(b.slots, &slot{session: s, index: i + 1, last: i == n-1, speaker: (starter + i) % 2, at: at})
			// Greetings and goodbyes are small talk when the session allows.
			if n >= 4 && (i == 0 || i == n-1) {
				other = append(other, idx)
			} else {
				eligible = append(eligible, idx)
			}
		}
	}
	// Facts go where neither neighbour states one, while that lasts, so
	// news is mostly followed by a reply rather than more news.
	facts := int(math.Round((1 - b.cfg.NoiseRatio) * float64(len(b.slots))))
	r.Shuffle(len(eligible), func(i, j int) { eligible[i], eligible[j] = eligible[j], eligible[i] })
	r.Shuffle(len(other), func(i, j int) { other[i], other[j] = other[j], other[i] })
	order := append(eligible, other...)
	lonely := func(i int) bool {
		return (i == 0 || !b.slots[i-1].isFact) && (i == len(b.slots)-1 || !b.slots[i+1].isFact)
	}
	for pass := 0; pass < 2 && facts > 0; pass++ {
		for _, i := range order {
			if facts > 0 && !b.slots[i].isFact && (pass == 1 || lonely(i)) {
				b.slots[i].isFact = true
				facts--
			}
		}
	}
}

// place assigns speaker sp's statements to fact slots, so that what is
// asked is spread over the whole conversation, as in LoCoMo: core facts
// anywhere (those with dependents early enough to leave them room),
// details a session or more after what they depend on, updates two
// sessions or more after and in the second half. Statements that do not
// fit are dropped along with their questions.
func (b *builder) place(sp int) {
	r := b.rng
	var mine []int
	for i, s := range b.slots {
		if s.isFact && s.speaker == sp {
			mine = append(mine, i)
		}
	}
	n := len(mine)
	var core, deps []*statement
	hasDeps := make(map[*statement]bool) // only looked up, never ranged over
	for _, s := range b.stmts[sp] {
		if s.after == nil {
			core = append(core, s)
		} else {
			deps = append(deps, s)
			hasDeps[s.after] = true
		}
	}
	r.Shuffle(len(core), func(i, j int) { core[i], core[j] = core[j], core[i] })
	core = core[:min(len(core), n)]
	// Parents first, so that they find a slot in the early part.
	slices.SortStableFunc(core, func(a, b *statement) int {
		return cmp.Compare(boolInt(!hasDeps[a]), boolInt(!hasDeps[b]))
	})
	taken := make([]bool, n)
	put := func(s *statement, j int) {
		taken[j], s.placed, s.turn = true, true, mine[j]
		b.slots[mine[j]].fact = s
	}
	order := r.Perm(n)
	for _, s := range core {
		span := n
		if hasDeps[s] {
			span = max(1, int(0.7*float64(n)))
		}
		for _, j := range order {
			if !taken[j] && j < span {
				put(s, j)
				break
			}
		}
	}
	for _, d := range deps {
		if !d.after.placed {
			continue
		}
		from := b.slots[d.after.turn].session
		gap, lo := 1, 0.0
		if d.update {
			gap, lo = 2, 0.5
		}
		var fits, later []int
		for j := range n {
			if taken[j] || b.slots[mine[j]].session < from+1 {
				continue
			}
			later = append(later, j)
			if b.slots[mine[j]].session >= from+gap && float64(j)/float64(n) >= lo {
				fits = append(fits, j)
			}
		}
		switch {
		case len(fits) > 0:
			put(d, pick(r, fits))
		case len(later) > 0:
			put(d, pick(r, later))
		}
	}
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}

// render writes every turn in order, so noise can only refer back to what
// was already said.
func (b *builder) render() []Session {
	sessions := make([]Session, b.cfg.Sessions)
	for i := range sessions {
		sessions[i] = Session{Index: i + 1, DateTime: b.dates[i].Format(sessionLayout)}
	}
	var prev *slot
	var prevText string
	for i, s := range b.slots {
		t := Turn{Speaker: b.people[s.speaker].name, DiaID: fmt.Sprintf("D%d:%d", s.session, s.index)}
		if s.isFact {
			st := s.fact
			if st == nil {
				st = b.event(s.speaker, s.at)
				st.turn, s.fact = i, st
			}
			st.diaID, st.spoken = t.DiaID, true
			t.Text = b.factTurn(s, st.say(b.rng, s.at))
			st.text = t.Text
			b.said(st)
		} else {
			t.Noise = true
			t.Text = b.noise(s, prev, prevText)
		}
		prev, prevText = s, t.Text
		ss := &sessions[s.session-1]
		ss.Turns = append(ss.Turns, t)
	}
	return sessions
}

// said records what later noise may refer back to.
func (b *builder) said(st *statement) {
	p := b.people[st.speaker]
	for _, k := range p.kin {
		if strings.Contains(st.text, k.name) {
			k.said = true
		}
	}
	if st.eventKey != "" {
		p.echoes = append(p.echoes, st.topic)
	}
}

// event makes a dated happening for a fact slot not taken by a core fact.
// Its temporal question is asked only if the happening is unique.
func (b *builder) event(sp int, at time.Time) *statement {
	r := b.rng
	p := b.people[sp]
	w := pastWhen(r, at)
	var said, did, asked, key, echo string
	city, trip := "", chance(r, 0.12)
	if trip {
		city, trip = b.cities.draw()
	}
	if trip {
		i := r.IntN(len(tripSaid))
		said, did = fill(tripSaid[i][0], "city", city), fill(tripSaid[i][1], "city", city)
		asked, key, echo = pick(r, []string{"visit " + city, "take a trip to " + city}), "trip:"+city, "the trip"
	} else {
		k := r.IntN(len(eventKinds))
		ek := eventKinds[k]
		i := r.IntN(len(ek.said))
		said, did, asked, key, echo = ek.said[i], ek.did[i], ek.asked, fmt.Sprint(k), ek.echo
		if !ek.solo && chance(r, 0.6) {
			c := b.companion(p)
			said += " with " + c.said
			did += " with " + c.echo
			asked += " with " + c.para
			key += ":" + c.para
		}
	}
	key = fmt.Sprint(sp, ":", key)
	b.eventCount[key]++
	st := &statement{speaker: sp, topic: echo, eventKey: key, say: static(fill(pick(r, []string{
		"{when} I {did}", "I {did} {when}, still processing it", "quick update: I {did} {when}",
		"not sure I told you, but {when} I {did}", "so {when} I {did}, which was a lot",
	}), "when", w.said, "did", said))}
	st.placed = true
	q := &question{cat: Temporal, speaker: sp, eventKey: key, evidence: []*statement{st}, answer: func() string { return w.answer },
		tmpl: b.phrase(wording{
			[]string{"When did {name} " + asked + "?", "Roughly when did {name} " + asked + "?"},
			[]string{"When did {name} " + did + "?", "Roughly when did {name} " + did + "?"},
		})}
	b.questions = append(b.questions, q)
	return st
}

// tripSaid holds how a speaker tells of a trip and how an echo question
// puts it.
var tripSaid = [][2]string{
	{"flew to {city} for a long weekend", "fly to {city} for a long weekend"},
	{"took the train to {city} just to wander around", "take the train to {city}"},
	{"spent a few days in {city} visiting old friends", "visit old friends in {city}"},
	{"drove up to {city} on a whim", "drive up to {city} on a whim"},
}

// A companion is who came along: as the speaker says it, as a
// paraphrasing question names them, and as an echo question does.
type companion struct{ said, para, echo string }

// companion picks who came along: a relative by name, or someone generic.
func (b *builder) companion(p *person) companion {
	generic := []companion{
		{"a couple of coworkers", "colleagues", "a couple of coworkers"},
		{"my neighbour", "a neighbour", "{pos} neighbour"},
		{"some old college friends", "university friends", "some old college friends"},
		{"my partner", "a significant other", "{pos} partner"},
		{"the folks from my running group", "a running club", "the folks from {pos} running group"},
	}
	if len(p.kin) > 0 && chance(b.rng, 0.5) {
		k := pick(b.rng, p.kin)
		return companion{k.name, k.name, k.name}
	}
	return pick(b.rng, generic)
}

// factTurn embeds a fact clause in filler, as people rarely state a fact
// bare.
func (b *builder) factTurn(s *slot, clause string) string {
	r := b.rng
	lead := ""
	if chance(r, 0.6) {
		lead = pick(r, []string{
			"Oh, before I forget,", "Speaking of news,", "Anyway,", "Not much new here, except", "Funny you ask,",
			"Honestly,", "Guess what?", "Okay so", "Random, but", "Life update:", "Well,", "Oh, and",
		})
	}
	var tail, talk string
	if chance(r, 0.65) {
		tail = pick(r, []string{
			"It's been a whirlwind.", "Still can't quite believe it.", "How's your week going?", "I'll tell you more next time.",
			"What about you?", "It feels like ages ago already.", "Anyway, enough about me.", "I keep meaning to tell you more about it.",
			"My head is still spinning.", "It was a good reminder to slow down.", "I'm trying to take it one day at a time.",
		})
		talk = b.smallTalk(s)
	}
	framed := false
	for _, f := range []string{"so ", "quick update", "not sure", "big change"} {
		framed = framed || strings.HasPrefix(clause, f)
	}
	if lead != "" && !framed {
		clause = lead + " " + clause
	}
	return sentence(clause, tail, talk)
}

// selectQA picks the questions: a category mix close to LoCoMo's, drawn
// alike from all of the conversation, changed facts always wanted.
func (b *builder) selectQA() []QA {
	r := b.rng
	var cands []*question
	for _, q := range b.questions {
		if !allPlaced(q.evidence) || q.supersededBy != nil && q.supersededBy.placed ||
			q.eventKey != "" && b.eventCount[q.eventKey] != 1 {
			continue
		}
		cands = append(cands, q)
	}
	cands = append(cands, b.adversarial(cands)...)

	shares := [...]float64{MultiHop: 0.15, Temporal: 0.18, OpenDomain: 0.07, SingleHop: 0.40, Adversarial: 0.20}
	total := b.cfg.QuestionsPerSample
	want := make([]int, len(shares))
	sum := 0
	for c := MultiHop; c <= Adversarial; c++ {
		want[c] = int(math.Round(shares[c] * float64(total)))
		sum += want[c]
	}
	want[SingleHop] = max(0, want[SingleHop]+total-sum)

	// Changed facts first: a set without them would not test whether a
	// memory keeps the later statement.
	tier := func(q *question) int { return boolInt(!q.changed) }
	byCat := make([][]*question, len(shares))
	r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	slices.SortStableFunc(cands, func(a, b *question) int { return cmp.Compare(tier(a), tier(b)) })
	for _, q := range cands {
		byCat[q.cat] = append(byCat[q.cat], q)
	}

	var out []QA
	seen := make(map[string]bool)
	take := func(c Category, n int) int {
		got := 0
		for len(byCat[c]) > 0 && got < n {
			q := byCat[c][0]
			byCat[c] = byCat[c][1:]
			qa := b.qa(q)
			if seen[qa.Question] {
				continue
			}
			seen[qa.Question] = true
			out = append(out, qa)
			got++
		}
		return got
	}
	short := 0
	for c := MultiHop; c <= Adversarial; c++ {
		short += want[c] - take(c, want[c])
	}
	for _, c := range []Category{SingleHop, Temporal, MultiHop, OpenDomain, Adversarial} {
		short -= take(c, short)
	}
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// adversarial derives false-premise questions: a fact of one speaker asked
// about the other, who never stated that kind of fact (evidence is the
// misleading turn, as in LoCoMo), and facts no one stated (no evidence).
func (b *builder) adversarial(cands []*question) []*question {
	var out []*question
	for _, q := range cands {
		other := 1 - q.speaker
		if q.cat != SingleHop || q.kind == "" || b.has(other, q.kind) {
			continue
		}
		out = append(out, &question{
			cat: Adversarial, speaker: other, tmpl: q.tmpl, evidence: q.evidence,
			answer: notMentioned, misleading: q.answer(),
		})
	}
	for sp := range b.people {
		for _, i := range b.rng.Perm(len(absentTopics))[:3] {
			out = append(out, &question{cat: Adversarial, speaker: sp, tmpl: absentTopics[i],
				answer: notMentioned})
		}
	}
	return out
}

// has reports whether speaker sp states a fact of the given kind anywhere
// in the conversation; "pet" covers "pet.name".
func (b *builder) has(sp int, kind string) bool { return b.stated(sp, kind, false) }

// told is has restricted to what was said so far.
func (b *builder) told(sp int, kind string) bool { return b.stated(sp, kind, true) }

func (b *builder) stated(sp int, kind string, soFar bool) bool {
	for _, s := range b.stmts[sp] {
		if (soFar && s.spoken || !soFar && s.placed) && s.kind != "" && (s.kind == kind || strings.HasPrefix(kind, s.kind+".")) {
			return true
		}
	}
	return false
}

// qa renders a question for its speaker.
func (b *builder) qa(q *question) QA {
	p := b.people[q.speaker]
	pron, pos := p.pronouns()
	out := QA{
		Question:          fill(q.tmpl, "name", p.name, "pron", pron, "pos", pos),
		Answer:            fill(q.answer(), "name", p.name, "pron", pron, "pos", pos),
		AdversarialAnswer: q.misleading,
		Evidence:          []string{},
		Category:          q.cat,
	}
	for _, s := range q.evidence {
		out.Evidence = append(out.Evidence, s.diaID)
	}
	return out
}

func notMentioned() string { return "Not mentioned in the conversation" }

func allPlaced(ss []*statement) bool {
	for _, s := range ss {
		if !s.placed {
			return false
		}
	}
	return true
}
