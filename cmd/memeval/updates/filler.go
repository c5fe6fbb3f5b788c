package updates

import (
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/engram-go/engram/cmd/memeval/dataset"
)

// A filler yields the exchanges (one turn of each speaker) that run
// between statements.
type filler interface{ next() [2]string }

// dialogue relabels real turns, two by two, as this conversation's
// exchanges, from a random start, wrapping round at the end.
type dialogue struct {
	texts []string
	at    int
}

func newDialogue(r *rand.Rand, s *dataset.Sample) *dialogue {
	var texts []string
	for _, t := range s.Turns() {
		if t.Text = strings.TrimSpace(t.Text); t.Text != "" {
			texts = append(texts, t.Text)
		}
	}
	if len(texts) < 2 {
		return nil
	}
	return &dialogue{texts: texts, at: r.IntN(len(texts))}
}

func (d *dialogue) next() [2]string {
	a := d.texts[d.at%len(d.texts)]
	b := d.texts[(d.at+1)%len(d.texts)]
	d.at += 2
	return [2]string{a, b}
}

// chatter is generated small talk. Some of it names cities, companies,
// dishes, cars and people, never ones a fact of the conversation takes,
// so that a retriever matching on the kind of word finds distractors.
type chatter struct {
	r    *rand.Rand
	pool [][2]any // placeholder, values no fact uses
}

func newChatter(r *rand.Rand, used map[string]bool) *chatter {
	free := func(vs []string) []string {
		return slices.DeleteFunc(slices.Clone(vs), func(v string) bool { return used[v] })
	}
	return &chatter{r: r, pool: [][2]any{
		{"{city}", free(cities)},
		{"{company}", free(companies)},
		{"{food}", free(valuesOf(Food))},
		{"{car}", free(valuesOf(Car))},
		{"{person}", free(partners)},
	}}
}

var chat = []string{
	"Did you catch the match on Saturday? What a finish.",
	"The weather has been all over the place this week.",
	"I started a thriller on the train and I can't put it down.",
	"My cousin just got back from {city} and won't stop talking about it.",
	"A friend of mine interviewed at {company} but turned it down.",
	"We tried a new place that does {food}; it was fine, nothing special.",
	"Someone parked a {car} across my driveway this morning.",
	"I've been trying to get up early and go for a run.",
	"Work has been hectic, far too many emails.",
	"I finally fixed the leaking tap in the bathroom.",
	"Have you seen the new documentary about the deep ocean?",
	"My neighbour {person} keeps borrowing my ladder and never returns it.",
	"I'm thinking about learning the guitar, again.",
	"The train was late again, forty minutes this time.",
	"There's a street festival in town next weekend.",
	"My plants are finally growing since I moved them to the window.",
	"I went to a pottery class and my bowl looks like a hat.",
	"The supermarket had no oat milk, for the third week running.",
	"I binge-watched an entire series over the weekend, no regrets.",
	"We're dreaming about a trip to {city} someday, maybe next year.",
	"{person} from the book club recommended a podcast about bridges.",
	"I burned the {food} I tried to make on Sunday, total disaster.",
	"My brother-in-law wants to sell his {car}, if you know anyone.",
	"Apparently {company} is hiring like crazy right now.",
	"I spent the whole evening sorting out old photos.",
}

var replies = []string{
	"Ha, that sounds about right.",
	"Oh no, that's so annoying.",
	"I know exactly what you mean.",
	"That sounds like fun, tell me more next time.",
	"Same here, honestly.",
	"Really? I had no idea.",
	"You should totally go for it.",
	"Haha, classic.",
	"I'd love to hear how it goes.",
	"Ugh, don't get me started.",
	"Wow, I didn't see that coming.",
	"That made me laugh.",
}

func (c *chatter) line() string {
	s := pick(c.r, chat)
	for _, p := range c.pool {
		k, vs := p[0].(string), p[1].([]string)
		if strings.Contains(s, k) && len(vs) > 0 {
			s = strings.ReplaceAll(s, k, pick(c.r, vs))
		}
	}
	return s
}

func (c *chatter) next() [2]string {
	a, b := c.line(), pick(c.r, replies)
	if c.r.IntN(3) == 0 {
		b += " " + c.line()
	}
	if c.r.IntN(4) == 0 {
		a = pick(c.r, replies) + " " + a
	}
	return [2]string{a, b}
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }
