package dataset

import (
	"math/rand/v2"
	"strconv"
	"time"
)

// A statement is a fact turn waiting for its place in the conversation.
type statement struct {
	speaker int
	// after, if set, must be said in a later session: the second half of a
	// multi-hop pair or the update of a fact that changes.
	after *statement
	// update marks a changed fact, placed late in the conversation.
	update bool
	// say renders the clause on placement; dated facts resolve their
	// relative time against at.
	say func(r *rand.Rand, at time.Time) string
	// topic is how the other speaker's reply refers to the fact without
	// repeating its answer, e.g. "the new job".
	topic string
	// kind names what the fact is about; a speaker "has" the kinds of his
	// placed statements, which the adversarial questions consult.
	kind string
	// eventKey identifies a dated happening; see question.eventKey.
	eventKey string

	placed bool
	spoken bool // rendered already
	turn   int  // index in the conversation's turn sequence
	diaID  string
	text   string
}

// A question is a candidate QA. Its template still holds {name}, {pos} and
// {pron}, filled for the asked speaker when it is selected; that lets an
// adversarial question reuse it for the other speaker.
type question struct {
	cat      Category
	speaker  int
	tmpl     string
	answer   func() string
	evidence []*statement
	kind     string // as statement.kind; "" for questions not to be swapped
	// supersededBy drops the question if the later fact was placed.
	supersededBy *statement
	// changed marks questions about a fact that changed.
	changed bool
	// misleading is the answer an adversarial question baits.
	misleading string
	// eventKey, if set, must be unique among placed events of the speaker,
	// or the question would have two right answers.
	eventKey string
}

// A wording holds the templates a question may be put in. Para avoids the
// key content words of the evidence; echo reuses one or two of them (the
// event noun, the object, the relation word), as LoCoMo's annotators often
// did when they wrote a question while reading its evidence. Echo
// templates never hold the answer.
type wording struct{ para, echo []string }

// phrase picks a template: a paraphrase with probability
// GenConfig.Paraphrase, else an echo.
func (b *builder) phrase(w wording) string {
	if len(w.echo) == 0 || chance(b.rng, b.cfg.Paraphrase) {
		return pick(b.rng, w.para)
	}
	return pick(b.rng, w.echo)
}

// fact adds a statement made by speaker sp and returns it.
func (b *builder) fact(sp int, kind, topic string, say func(r *rand.Rand, at time.Time) string) *statement {
	s := &statement{speaker: sp, kind: kind, topic: topic, say: say}
	b.stmts[sp] = append(b.stmts[sp], s)
	return s
}

// static wraps a clause that does not depend on the session date.
func static(text string) func(*rand.Rand, time.Time) string {
	return func(*rand.Rand, time.Time) string { return text }
}

// ask adds a question, its template chosen now, so that the wording
// depends on the statement only through the echo templates.
func (b *builder) ask(cat Category, sp int, kind string, w wording, answer string, ev ...*statement) *question {
	q := &question{cat: cat, speaker: sp, kind: kind, tmpl: b.phrase(w), answer: func() string { return answer }, evidence: ev}
	b.questions = append(b.questions, q)
	return q
}

// persona builds the facts of speaker sp: the core ones and the
// dependents (multi-hop details, updates) that follow them. A statement
// with several phrasings picks one here, so that echo questions can reuse
// its words; dated ones resolve their time only when rendered.
func (b *builder) persona(sp int) {
	p := b.people[sp]
	r := b.rng

	// Job, possibly changing later.
	j := pick(r, jobs)
	emp := pick(r, j.employers)
	aTitle := article(j.title) + " " + j.title
	p.job = j
	jobStmt := b.fact(sp, "job", "the new job", static(fill(pick(r, []string{
		"I started working as {a} {title} at {emp} a few weeks back",
		"I finally accepted the offer, so I'm officially {a} {title} at {emp} now",
		"{emp} hired me as {a} {title}, I'm still pinching myself",
		"my days are spent as {a} {title} over at {emp}, which keeps me busy",
		"being {a} {title} at {emp} means my schedule is all over the place",
	}), "a", article(j.title), "title", j.title, "emp", emp)))
	qTitle := b.ask(SingleHop, sp, "job", wording{[]string{
		"What does {name} do for a living?", "What is {name}'s profession?",
		"What line of work is {name} in?", "What is {name}'s occupation?",
	}, []string{
		"What does {name} do at " + emp + "?", "What position does {name} hold at " + emp + "?",
	}}, j.title, jobStmt)
	qEmp := b.ask(SingleHop, sp, "job", wording{[]string{
		"Which company does {name} work for?", "Who employs {name}?", "Where is {name} employed?",
	}, []string{
		"Which company does {name} work for as " + aTitle + "?", "Where is {name} employed as " + aTitle + "?",
	}}, emp, jobStmt)
	b.ask(OpenDomain, sp, "", wording{[]string{
		"Would {name} be able to " + j.expertise + "?",
		"Is {name} a good person to ask to " + j.expertise + "?",
		"Could {name} probably " + j.expertise + "?",
	}, []string{
		"Given {pos} job at " + emp + ", would {name} be able to " + j.expertise + "?",
		"Could {name}, who works at " + emp + ", " + j.expertise + "?",
	}}, "Likely yes, given {pos} work as "+aTitle, jobStmt)
	if chance(r, 0.5) {
		j2 := pick(r, jobs)
		for j2.title == j.title {
			j2 = pick(r, jobs)
		}
		emp2 := pick(r, j2.employers)
		aTitle2 := article(j2.title) + " " + j2.title
		said := pick(r, []string{
			"{when} I handed in my notice at {old} and started as {a} {title} at {emp}",
			"big change: {when} I left {old}, I'm {a} {title} with {emp} now",
			"{when} was my first day as {a} {title} at {emp}, new badge and everything",
			"so {when} I switched careers, I'm {a} {title} at {emp} these days",
		})
		var w when
		upd := b.fact(sp, "job", "the career change", func(r *rand.Rand, at time.Time) string {
			w = pastWhen(r, at)
			return fill(said, "when", w.said, "old", emp, "a", article(j2.title), "title", j2.title, "emp", emp2)
		})
		upd.after, upd.update = jobStmt, true
		qTitle.supersededBy, qEmp.supersededBy = upd, upd
		q := b.ask(SingleHop, sp, "", wording{[]string{
			"What is {name}'s current job?", "What does {name} do for work these days?", "What is {name}'s occupation now?",
		}, []string{
			"What does {name} do at " + emp2 + " now?", "What role did {name} take on at " + emp2 + "?",
		}}, j2.title, upd)
		q.changed = true
		q = b.ask(SingleHop, sp, "", wording{[]string{
			"Which company does {name} work for now?", "Who is {name}'s employer at the moment?",
		}, []string{
			"Where does {name} work as " + aTitle2 + " now?", "Which company took {name} on as " + aTitle2 + "?",
		}}, emp2, upd)
		q.changed = true
		q = b.ask(Temporal, sp, "", wording{[]string{
			"When did {name} change jobs?", "When did {name} switch employers?",
		}, []string{
			"When did {name} start working at " + emp2 + "?", "When did {name} start as " + aTitle2 + "?",
		}}, "", upd)
		q.answer, q.changed = func() string { return w.answer }, true
		q = b.ask(MultiHop, sp, "", wording{[]string{
			"What jobs has {name} held?", "Which two professions has {name} had?",
		}, []string{
			"What jobs has {name} held, at " + emp + " and then at " + emp2 + "?",
		}}, j.title+" and "+j2.title, jobStmt, upd)
		q.changed = true
	}

	// City, possibly changing later.
	city, _ := b.cities.draw()
	hv := r.IntN(len(homeSaid))
	home := b.fact(sp, "city", "the new place", static(fill(homeSaid[hv].said, "city", city)))
	qHome := b.ask(SingleHop, sp, "", wording{[]string{
		"Where does {name} live?", "Which city is {name} based in?", "What city does {name} call home?", "Where is {name}'s home?",
	}, homeSaid[hv].asked}, city, home)
	if city2, ok := b.cities.draw(); ok && chance(r, 0.6) {
		v := r.IntN(len(moveSaid))
		var w when
		upd := b.fact(sp, "city", "the move", func(r *rand.Rand, at time.Time) string {
			w = pastWhen(r, at)
			return fill(moveSaid[v].said, "when", w.said, "city", city, "city2", city2)
		})
		upd.after, upd.update = home, true
		qHome.supersededBy = upd
		q := b.ask(SingleHop, sp, "", wording{[]string{
			"Where does {name} live now?", "Which city did {name} move to most recently?", "What city is {name} living in these days?",
		}, fillEach(moveSaid[v].asked, "city", city)}, city2, upd)
		q.changed = true
		q = b.ask(Temporal, sp, "", wording{[]string{
			"When did {name} relocate?", "When did {name} change cities?",
		}, []string{
			"When did {name} move to " + city2 + "?", "When did {name} settle in " + city2 + "?",
		}}, "", upd)
		q.answer, q.changed = func() string { return w.answer }, true
		q = b.ask(MultiHop, sp, "", wording{[]string{
			"Which cities has {name} lived in?", "Name the places {name} has called home.",
		}, []string{homeBoth[hv]}}, city+" and "+city2, home, upd)
		q.changed = true
	}

	// Two to four people in the speaker's life, each with details said later.
	for _, rel := range b.relativesFor(sp) {
		b.relativeFacts(sp, rel)
	}

	// Hobby, always; an open-domain question infers from it.
	h := pick(r, hobbies)
	p.hobby = h.name
	v := r.IntN(len(hobbySaid))
	hs := b.fact(sp, "hobby", "your new hobby", static(fill(hobbySaid[v].said, "doing", h.doing)))
	b.ask(SingleHop, sp, "", wording{[]string{
		"What hobby has {name} taken up?", "What does {name} do to unwind?", "What pastime is {name} into?",
	}, hobbySaid[v].asked}, h.name, hs)
	b.ask(OpenDomain, sp, "", wording{[]string{
		"Would {name} likely enjoy " + h.inferred + "?",
		"Would " + h.inferred + " be a good gift idea for {name}?",
		"Is {name} someone who would sign up for " + h.inferred + "?",
	}, []string{
		"Would {name} likely enjoy " + h.near + "?", "Would " + h.near + " be a good gift idea for {name}?",
	}}, "Likely yes, since {pron} is into "+h.name, hs)

	optional := []func(int){b.pet, b.instrument, b.car, b.purchase, b.age, b.food, b.book, b.aversion}
	for _, f := range optional {
		if chance(r, 0.6) {
			f(sp)
		}
	}
}

// relativesFor picks two to four roles for speaker sp, with names that no
// one else in the conversation carries.
func (b *builder) relativesFor(sp int) []*kin {
	n := 2 + b.rng.IntN(3)
	var out []*kin
	for _, i := range b.rng.Perm(len(relatives))[:n] {
		rel := relatives[i]
		female := rel.female == 1 || rel.female == -1 && chance(b.rng, 0.5)
		name, ok := b.name(female)
		if !ok {
			break
		}
		k := &kin{role: rel.role, phrases: rel.phrases, name: name, female: female}
		b.people[sp].kin = append(b.people[sp].kin, k)
		out = append(out, k)
	}
	return out
}

func (b *builder) relativeFacts(sp int, k *kin) {
	r := b.rng
	phrase := pick(r, k.phrases)
	kind := "rel." + k.role
	v := r.IntN(len(kinSaid))
	intro := b.fact(sp, kind, "", static(fill(kinSaid[v].said, "phrase", phrase, "rn", k.name)))
	intro.topic = k.name
	b.ask(SingleHop, sp, kind, wording{[]string{
		"What is the name of {name}'s " + k.role + "?", "Who is {name}'s " + k.role + "?", "What is {name}'s " + k.role + " called?",
	}, fillEach(kinSaid[v].asked, "role", k.role)}, k.name, intro)

	pron, pos := "he", "his"
	if k.female {
		pron, pos = "she", "her"
	}
	details, jobFirst := 1+r.IntN(2), chance(r, 0.6)
	for d := range details {
		if (d == 0) == jobFirst {
			j := pick(r, jobs)
			v := r.IntN(len(kinJobSaid))
			s := b.fact(sp, kind+".job", k.name+"'s news", static(fill(kinJobSaid[v].said,
				"rn", k.name, "a", article(j.title), "title", j.title, "pron", pron, "pos", pos)))
			s.after = intro
			b.ask(MultiHop, sp, "", wording{[]string{
				"What is {name}'s " + k.role + "'s job?", "What does {name}'s " + k.role + " do for work?",
				"What profession did {name}'s " + k.role + " go into?",
			}, fillEach(kinJobSaid[v].asked, "role", k.role)}, j.title, intro, s)
			continue
		}
		city, ok := b.cities.draw()
		if !ok {
			continue
		}
		v := r.IntN(len(kinCitySaid))
		s := b.fact(sp, kind+".city", k.name+"'s move", static(fill(kinCitySaid[v].said,
			"rn", k.name, "city", city, "pron", pron, "pos", pos)))
		s.after = intro
		b.ask(MultiHop, sp, "", wording{[]string{
			"Where does {name}'s " + k.role + " live?", "Which city did {name}'s " + k.role + " move to?",
			"In what city does {name}'s " + k.role + " live now?",
		}, fillEach(kinCitySaid[v].asked, "role", k.role)}, city, intro, s)
	}
}

// fillEach fills the same placeholders in every template.
func fillEach(tmpls []string, kv ...string) []string {
	out := make([]string, len(tmpls))
	for i, t := range tmpls {
		out[i] = fill(t, kv...)
	}
	return out
}

func (b *builder) pet(sp int) {
	r := b.rng
	kind := pick(r, petKinds)
	breed := pick(r, kind.breeds)
	name, ok := b.petNames.draw()
	if !ok {
		return
	}
	obj, ppos := "him", "his"
	if chance(r, 0.5) {
		obj, ppos = "her", "her"
	}
	p := b.people[sp]
	p.pet, p.species = name, kind.species
	s := b.fact(sp, "pet", "the new "+kind.young, static(fill(pick(r, []string{
		"we adopted a little {breed} and named {obj} {pet}",
		"meet {pet}, our new {breed}! we picked {obj} up from the shelter on the weekend",
		"I brought home a {breed} {young} from a rescue, {ppos} name is {pet}",
		"{pet} the {breed} has officially joined the family",
		"I caved and got a {young}, a {breed} called {pet}",
	}), "breed", breed, "obj", obj, "pet", name, "young", kind.young, "ppos", ppos)))
	b.ask(SingleHop, sp, "pet.name", wording{[]string{
		"What is the name of {name}'s " + kind.species + "?", "What did {name} call {pos} " + kind.species + "?",
		"What is {name}'s " + kind.species + " called?",
	}, []string{
		"What is the name of {name}'s " + breed + "?", "What is {name}'s " + breed + " called?",
	}}, name, s)
	b.ask(SingleHop, sp, "pet.breed", wording{[]string{
		"What breed is {name}'s " + kind.species + "?", "What kind of " + kind.species + " does {name} have?",
		"Which breed of " + kind.species + " did {name} adopt?",
	}, []string{
		"What breed is " + name + ", {name}'s " + kind.species + "?", "What kind of " + kind.species + " is {name}'s " + name + "?",
	}}, breed, s)
}

func (b *builder) instrument(sp int) {
	r := b.rng
	inst := pick(r, instruments)
	b.people[sp].music = true
	v := r.IntN(len(instrumentSaid))
	s := b.fact(sp, "instrument", "the lessons", static(fill(instrumentSaid[v].said, "inst", inst)))
	b.ask(SingleHop, sp, "instrument", wording{[]string{
		"What instrument does {name} play?", "Which instrument is {name} learning?", "What does {name} play musically?",
	}, instrumentSaid[v].asked}, inst, s)
}

func (b *builder) car(sp int) {
	r := b.rng
	c := pick(r, cars)
	b.people[sp].car = true
	v := r.IntN(len(carSaid))
	s := b.fact(sp, "car", "the new wheels", static(fill(carSaid[v].said, "car", c)))
	b.ask(SingleHop, sp, "car", wording{[]string{
		"What car does {name} drive?", "What vehicle did {name} buy?", "What kind of car does {name} own?",
	}, carSaid[v].asked}, c, s)
}

func (b *builder) purchase(sp int) {
	r := b.rng
	it := pick(r, purchases)
	price := "$" + strconv.Itoa((it.minPrice+r.IntN(it.maxPrice-it.minPrice+1))*10-r.IntN(2))
	s := b.fact(sp, "purchase."+it.asked, "the new "+it.asked, static(fill(pick(r, []string{
		"I splurged on {a} {item}, it was {price} but worth every cent",
		"I finally ordered that {item} I'd been eyeing, {price} on sale",
		"{price} later, I am the proud owner of {a} {item}",
		"the {item} arrived! {price}, so it better last me a decade",
	}), "a", article(it.stated), "item", it.stated, "price", price)))
	b.ask(SingleHop, sp, "purchase."+it.asked, wording{[]string{
		"How much did {name} pay for the " + it.asked + "?", "What did {name}'s new " + it.asked + " cost?",
		"How much money did {name} spend on " + article(it.asked) + " " + it.asked + "?",
	}, []string{
		"How much did {name} pay for the " + it.stated + "?", "What did {name}'s new " + it.stated + " cost?",
	}}, price, s)
}

func (b *builder) age(sp int) {
	r := b.rng
	age := 24 + r.IntN(35)
	v := r.IntN(len(ageSaid))
	var w when
	s := b.fact(sp, "age", "your birthday", func(r *rand.Rand, at time.Time) string {
		w = pastWhen(r, at)
		return fill(ageSaid[v].said, "age", strconv.Itoa(age), "ageth", ordinal(age), "when", w.said)
	})
	b.ask(SingleHop, sp, "age", wording{[]string{"How old is {name}?", "What age is {name}?", "What is {name}'s age?"},
		ageSaid[v].asked}, strconv.Itoa(age), s)
	q := b.ask(Temporal, sp, "", wording{[]string{
		"When did {name} celebrate {pos} birthday?", "When was {name}'s most recent birthday?",
	}, []string{fill(ageWhen[v], "age", strconv.Itoa(age), "ageth", ordinal(age))}}, "", s)
	q.answer = func() string { return w.answer }
	if age >= 30 && chance(r, 0.6) {
		n := 2 + r.IntN(3)
		v := r.IntN(len(kidsSaid))
		ks := b.fact(sp, "kids", "the kids", static(fill(kidsSaid[v].said, "n", numberWords[n])))
		b.ask(SingleHop, sp, "kids", wording{[]string{
			"How many children does {name} have?", "How many kids is {name} raising?",
			"What is the number of children in {name}'s family?",
		}, kidsSaid[v].asked}, numberWords[n], ks)
	}
}

func (b *builder) food(sp int) {
	r := b.rng
	f := pick(r, foods)
	v := r.IntN(len(foodSaid))
	s := b.fact(sp, "food", "comfort food", static(fill(foodSaid[v].said, "food", f)))
	b.ask(SingleHop, sp, "food", wording{[]string{
		"What is {name}'s favourite dish?", "What food does {name} love most?", "Which meal would {name} pick above all others?",
	}, foodSaid[v].asked}, f, s)
}

func (b *builder) book(sp int) {
	r := b.rng
	bk := pick(r, books)
	v := r.IntN(len(bookSaid))
	s := b.fact(sp, "book", "that novel", static(fill(bookSaid[v].said, "book", bk)))
	b.ask(SingleHop, sp, "book", wording{[]string{
		"What is {name}'s favourite book?", "Which novel does {name} love most?", "What story does {name} keep going back to?",
	}, bookSaid[v].asked}, bk, s)
}

func (b *builder) aversion(sp int) {
	r := b.rng
	a := pick(r, aversions)
	if b.people[sp].species == "cat" && a.inferred == aversions[2].inferred {
		return
	}
	s := b.fact(sp, "", "", static(a.stated))
	b.ask(OpenDomain, sp, "", wording{[]string{
		"Would {name} likely enjoy " + a.inferred + "?",
		"Would " + a.inferred + " be a good gift for {name}?",
		"Is {name} likely to say yes to " + a.inferred + "?",
	}, []string{
		"Would {name} likely enjoy " + a.near + "?", "Is {name} likely to say yes to " + a.near + "?",
	}}, "Probably not, {pron} "+a.reason, s)
}
