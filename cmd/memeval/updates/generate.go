package updates

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/engram-go/engram/cmd/memeval/dataset"
)

// Config says what to generate.
type Config struct {
	// Seed seeds everything; equal configs give equal samples.
	Seed uint64
	// Conversations is how many samples to generate.
	Conversations int
	// Sessions is how many dated sessions each conversation has, at
	// least 5 so that a fact has room to change three times.
	Sessions int
	// Filler is how many exchanges (two turns) of filler each session
	// holds besides its statements.
	Filler int
	// Dialogue, if set, is real conversation whose turns become the
	// filler: sample i draws on Dialogue[i % len(Dialogue)]. Empty,
	// filler is generated small talk.
	Dialogue []dataset.Sample
}

// DefaultConfig returns the set the update evaluation uses: ten
// conversations of twelve sessions, about 430 turns each.
func DefaultConfig() Config {
	return Config{Seed: 1, Conversations: 10, Sessions: 12, Filler: 14}
}

// ErrConfig is returned, wrapped, for a Config Generate cannot honour.
var ErrConfig = errors.New("updates: invalid config")

func (c Config) validate() error {
	switch {
	case c.Conversations < 1:
		return fmt.Errorf("updates: %d conversations: %w", c.Conversations, ErrConfig)
	case c.Sessions < 5:
		return fmt.Errorf("updates: %d sessions, want at least 5: %w", c.Sessions, ErrConfig)
	case c.Filler < 0:
		return fmt.Errorf("updates: %d filler exchanges: %w", c.Filler, ErrConfig)
	}
	return nil
}

// Generate builds cfg.Conversations samples, their ids "upd-1", "upd-2", ….
func Generate(cfg Config) ([]Sample, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	out := make([]Sample, cfg.Conversations)
	for i := range out {
		b := &builder{cfg: cfg, r: rand.New(rand.NewPCG(cfg.Seed, uint64(i)))}
		out[i] = b.sample("upd-" + strconv.Itoa(i+1))
		if len(cfg.Dialogue) > 0 {
			d := newDialogue(b.r, &cfg.Dialogue[i%len(cfg.Dialogue)])
			if d == nil {
				return nil, fmt.Errorf("updates: dialogue %q has under two turns: %w", cfg.Dialogue[i%len(cfg.Dialogue)].ID, ErrConfig)
			}
			b.fill = d
		}
		out[i] = b.render(out[i])
	}
	return out, nil
}

// An event is a run of exchanges said together at one point of a session.
type event struct {
	session int
	key     float64 // where in the session, in [0, 1)
	turns   [][2]string
	// says marks which turns state a value: turn index 2*exchange+side.
	says map[int]*Statement
}

// A subject is a speaker, or a speaker's sibling, that facts are about.
type subject struct {
	speaker int    // who states the facts: 0 or 1
	name    string // the speaker's name
	sib, k  string // for a sibling: "sister", "Leah"
}

type builder struct {
	cfg     Config
	r       *rand.Rand
	names   [2]string
	decks   map[Relation][]string
	used    map[string]bool
	events  []*event
	facts   []Fact
	qa      []dataset.QA
	stale   [][]string
	fill    filler
	pending []pendingQA
}

func (b *builder) sample(id string) Sample {
	b.decks = make(map[Relation][]string)
	b.used = make(map[string]bool)
	names := slices.Clone(speakerNames)
	b.r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	b.names = [2]string{names[0], names[1]}
	a := subject{speaker: 0, name: b.names[0]}
	bb := subject{speaker: 1, name: b.names[1]}
	sib := "sister"
	if b.r.IntN(2) == 0 {
		sib = "brother"
	}
	kin := subject{speaker: 0, name: b.names[0], sib: sib, k: pick(b.r, siblingNames[sib])}

	last := make(map[string]*event) // subject/relation → event of the current value
	for _, rel := range relations {
		subs := []subject{a}
		switch rel.rel {
		case KinCompany:
			subs = []subject{kin}
		case City, Employer, Pet, Food, Car:
			subs = append(subs, bb)
		}
		for _, s := range subs {
			last[s.name+s.k+"/"+string(rel.rel)] = b.fact(s, rel)
		}
	}
	for _, l := range links {
		subs := []subject{a}
		if l.on == City {
			subs = append(subs, bb)
		}
		if l.on == KinCompany {
			subs = []subject{kin}
		}
		for _, s := range subs {
			b.link(s, l, last[s.name+s.k+"/"+string(l.on)])
		}
	}
	return Sample{Sample: dataset.Sample{ID: id, SpeakerA: b.names[0], SpeakerB: b.names[1]}, Facts: b.facts, Stale: b.stale}
}

// draw takes a value of rel no other fact of the conversation holds.
func (b *builder) draw(rel relation) string {
	deck, ok := b.decks[rel.rel]
	if !ok {
		deck = slices.Clone(rel.values)
		b.r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	}
	for len(deck) > 0 && b.used[deck[0]] {
		deck = deck[1:]
	}
	v := deck[0] // every pool outnumbers the values a conversation takes
	b.decks[rel.rel] = deck[1:]
	b.used[v] = true
	return v
}

// fact states subject s's rel, changes it one to three times in later
// sessions (a change may be a correction on the spot), asks its current
// value, and returns the event that states it.
func (b *builder) fact(s subject, rel relation) *event {
	S := b.cfg.Sessions
	changes := 1 + b.r.IntN(3)
	correction := -1 // index of the value that corrects the one before
	if rel.correct != nil && b.r.IntN(2) == 0 {
		correction = 1 + b.r.IntN(changes)
	}
	values := make([]string, changes+1)
	for i := range values {
		values[i] = b.draw(rel)
	}
	// Sessions for the first value and each change that is not a
	// correction, strictly increasing.
	dated := changes + 1
	if correction > 0 {
		dated--
	}
	first := b.r.IntN(max(1, S/3))
	later := b.r.Perm(S - first - 1)[:dated-1]
	slices.Sort(later)
	sessions := []int{first}
	for _, l := range later {
		sessions = append(sessions, first+1+l)
	}

	f := Fact{Subject: s.name, Relation: rel.rel}
	if s.k != "" {
		f.Subject = s.name + "'s " + s.sib + " " + s.k
	}
	f.Values = make([]Statement, len(values))
	var ev *event
	si := 0
	for i, v := range values {
		f.Values[i] = Statement{Value: v, Correction: i == correction}
		tmpl := pick(b.r, rel.change)
		switch {
		case i == 0:
			tmpl = pick(b.r, rel.state)
		case i == correction:
			tmpl = pick(b.r, rel.correct)
		}
		text := fill(tmpl, s, v, values[max(0, i-1)])
		if i == correction {
			// The other speaker repeats the value said, which is then
			// taken back.
			echo := fill(pick(b.r, echoes), s, values[i-1], "")
			b.say(ev, s.speaker, echo, text, &f.Values[i])
			continue
		}
		ev = &event{session: sessions[si], key: b.r.Float64(), says: make(map[int]*Statement)}
		si++
		b.events = append(b.events, ev)
		if s.speaker == 0 {
			ev.turns = append(ev.turns, [2]string{text, fill(pick(b.r, rel.ack), s, "", "")})
			ev.says[len(ev.turns)*2-2] = &f.Values[i]
		} else {
			ev.turns = append(ev.turns, [2]string{pick(b.r, rel.prompt), text})
			ev.says[len(ev.turns)*2-1] = &f.Values[i]
		}
	}
	b.facts = append(b.facts, f)
	fi := len(b.facts) - 1
	b.question(dataset.SingleHop, fill(pick(b.r, rel.ask), s, "", ""), fi, nil)
	return ev
}

// say appends a correction to ev: the listener echoes the value just said,
// the speaker takes it back.
func (b *builder) say(ev *event, speaker int, echo, correction string, st *Statement) {
	if speaker == 0 {
		// A stated, B replied: B's reply becomes the echo, A corrects,
		// B acknowledges.
		ev.turns[len(ev.turns)-1][1] = echo
		ev.turns = append(ev.turns, [2]string{correction, pick(b.r, []string{"Ah, fixed it.", "Got it, thanks.", "No worries, noted."})})
		ev.says[len(ev.turns)*2-2] = st
		return
	}
	ev.turns = append(ev.turns, [2]string{echo, correction})
	ev.says[len(ev.turns)*2-1] = st
}

var echoes = []string{"{v}, got it.", "So {v}, noted.", "{v}? Okay, writing that down."}

// link states l for subject s after dep, the event of the value it depends
// on, and asks the multi-hop question that joins them.
func (b *builder) link(s subject, l link, dep *event) {
	S := b.cfg.Sessions
	ev := &event{session: dep.session + b.r.IntN(S-dep.session), says: make(map[int]*Statement)}
	ev.key = b.r.Float64()
	if ev.session == dep.session {
		ev.key = dep.key + (1-dep.key)*b.r.Float64()
	}
	if l.on == KinCompany {
		// Who taught whom to swim does not change: any session after
		// the sibling is first named will do.
		kin := slices.IndexFunc(b.facts, func(f Fact) bool { return f.Relation == KinCompany })
		first := b.sessionOfFirst(kin)
		ev.session = first + 1 + b.r.IntN(S-first-1)
		ev.key = b.r.Float64()
	}
	text := fill(pick(b.r, l.state), s, "", "")
	st := &Statement{Value: text}
	if s.speaker == 0 {
		ev.turns = [][2]string{{text, pick(b.r, []string{"Oh, that's handy.", "Ha, nice.", "I didn't know that!", "That's sweet."})}}
		ev.says[0] = st
	} else {
		ev.turns = [][2]string{{pick(b.r, []string{"How's the commute these days?", "Do you still bike everywhere?"}), text}}
		ev.says[1] = st
	}
	b.events = append(b.events, ev)
	fi := slices.IndexFunc(b.facts, func(f Fact) bool {
		return f.Relation == l.on && f.Subject == factSubject(s)
	})
	b.question(dataset.MultiHop, fill(pick(b.r, l.ask), s, "", ""), fi, &linkQuestion{st: st, answer: l.answer})
}

// sessionOfFirst returns the session of fact fi's first statement.
func (b *builder) sessionOfFirst(fi int) int {
	first := &b.facts[fi].Values[0]
	for _, ev := range b.events {
		for _, st := range ev.says {
			if st == first {
				return ev.session
			}
		}
	}
	return 0
}

func factSubject(s subject) string {
	if s.k != "" {
		return s.name + "'s " + s.sib + " " + s.k
	}
	return s.name
}

type linkQuestion struct {
	st     *Statement
	answer func(string) string
}

// pending questions: dia_ids are known only once rendered.
type pendingQA struct {
	cat      dataset.Category
	question string
	fact     int
	link     *linkQuestion
}

func (b *builder) question(cat dataset.Category, q string, fact int, l *linkQuestion) {
	b.pending = append(b.pending, pendingQA{cat, q, fact, l})
}

// render lays the events out in sessions between filler and fills in
// dia_ids, questions and stale lists.
func (b *builder) render(s Sample) Sample {
	if b.fill == nil {
		b.fill = newChatter(b.r, b.used)
	}
	at := time.Date(2023, 1, 2, 0, 0, 0, 0, time.UTC).AddDate(0, 0, b.r.IntN(300))
	for n := range b.cfg.Sessions {
		at = at.AddDate(0, 0, 2+b.r.IntN(20))
		t := at.Add(time.Duration(8+b.r.IntN(13))*time.Hour + time.Duration(b.r.IntN(60))*time.Minute)
		ss := dataset.Session{Index: n + 1, DateTime: t.Format("3:04 pm on 2 January, 2006")}
		var here []*event
		for _, ev := range b.events {
			if ev.session == n {
				here = append(here, ev)
			}
		}
		slices.SortStableFunc(here, func(x, y *event) int {
			switch {
			case x.key < y.key:
				return -1
			case x.key > y.key:
				return 1
			}
			return 0
		})
		add := func(ex [2]string, says map[int]*Statement, base int) {
			for side, text := range ex {
				id := fmt.Sprintf("D%d:%d", n+1, len(ss.Turns)+1)
				ss.Turns = append(ss.Turns, dataset.Turn{Speaker: b.names[side], DiaID: id, Text: text, Noise: says[base+side] == nil})
				if st := says[base+side]; st != nil {
					st.DiaID = id
				}
			}
		}
		k := 0
		for p := 0; p <= b.cfg.Filler; p++ {
			for k < len(here) && int(here[k].key*float64(b.cfg.Filler+1)) <= p {
				for i, ex := range here[k].turns {
					add(ex, here[k].says, 2*i)
				}
				k++
			}
			if p < b.cfg.Filler {
				add(b.fill.next(), nil, 0)
			}
		}
		s.Sessions = append(s.Sessions, ss)
	}
	for _, p := range b.pending {
		f := b.facts[p.fact]
		cur := f.Current()
		qa := dataset.QA{Question: p.question, Answer: cur.Value, Evidence: []string{cur.DiaID}, Category: p.cat}
		if p.link != nil {
			qa.Answer = p.link.answer(cur.Value)
			qa.Evidence = append(qa.Evidence, p.link.st.DiaID)
		}
		var stale []string
		for _, v := range f.Values[:len(f.Values)-1] {
			stale = append(stale, v.DiaID)
		}
		s.QA = append(s.QA, qa)
		s.Stale = append(s.Stale, stale)
	}
	s.Facts = b.facts
	return s
}

// fill renders a template for subject s, value v replacing old.
func fill(tmpl string, s subject, v, old string) string {
	pron := "she"
	if s.sib == "brother" {
		pron = "he"
	}
	return strings.NewReplacer("{v}", v, "{av}", article(v)+" "+v, "{old}", old,
		"{k}", s.k, "{sib}", s.sib, "{pron}", pron, "{name}", s.name).Replace(tmpl)
}

func article(w string) string {
	if w != "" && strings.ContainsRune("aeioAEIO", rune(w[0])) {
		return "an"
	}
	return "a"
}

func valuesOf(r Relation) []string {
	for _, rel := range relations {
		if rel.rel == r {
			return rel.values
		}
	}
	return nil
}
