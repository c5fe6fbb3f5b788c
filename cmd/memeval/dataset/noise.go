package dataset

import "math/rand/v2"

// Noise turns are composed from parts so their wording varies widely. None
// of the parts holds an answer value (a city, title, breed, price, ...);
// distractors name the people and pets already met, and the topics that
// questions ask about, without the fact a question wants.

// noise writes a turn that states no fact: a greeting or goodbye at the
// session's edges, a reply to the other speaker's news, a distractor, or
// small talk.
func (b *builder) noise(s, prev *slot, prevText string) string {
	r := b.rng
	other := b.people[1-s.speaker].name
	switch {
	case s.index == 1:
		return sentence(b.greeting(other), b.smallTalk(s), pick(r, followUps))
	case s.last:
		return sentence(b.smallTalk(s), b.goodbye())
	case prev != nil && prev.isFact && prev.speaker != s.speaker && prev.fact != nil && chance(r, 0.8):
		parts := []string{b.reaction(prev.fact.topic)}
		if chance(r, 0.6) {
			parts = append(parts, b.smallTalk(s))
		}
		return sentence(append(parts, pick(r, followUps))...)
	}
	if d := b.distractor(s.speaker); d != "" && chance(r, 0.5) {
		return sentence(d, b.smallTalk(s), optional(r, 0.4, followUps))
	}
	return sentence(b.smallTalk(s), b.smallTalk(s), optional(r, 0.3, followUps))
}

func (b *builder) greeting(other string) string {
	r := b.rng
	return pick(r, []string{"Hey", "Hi", "Hello", "Hiya", "Morning", "Evening", "Heyyy", "Yo"}) + " " + other + "! " +
		pick(r, []string{"Long time no chat.", "It's been a minute.", "So good to hear from you.", "Hope you're doing well.",
			"Sorry I went quiet for a bit.", "I was just thinking about you.", "Perfect timing, I just sat down."})
}

func (b *builder) goodbye() string {
	r := b.rng
	return pick(r, []string{"Anyway", "Okay", "Alright", "Right", "Oh shoot"}) + ", I " +
		pick(r, []string{"should", "need to", "have to", "gotta"}) + " " +
		pick(r, []string{"go", "run", "head off", "get moving", "log off"}) + ", " +
		pick(r, []string{"dinner won't make itself", "early start tomorrow", "the laundry is calling", "my phone is dying",
			"someone is at the door", "I promised to call my landlord back"}) + ". " +
		pick(r, []string{"Talk soon!", "Catch up later!", "Take care!", "Speak soon!", "Let's chat again this week!", "Bye for now!"})
}

// reaction answers the other speaker's news without repeating its answer.
func (b *builder) reaction(topic string) string {
	r := b.rng
	interj := pick(r, []string{"Oh wow", "No way", "Whoa", "Aww", "Ha", "Oh nice", "Wait, really", "Amazing", "Oh my gosh", "Huh"})
	if topic == "" {
		return interj + ", " + pick(r, []string{"I had no idea!", "that's a lot to take in!", "good for you!", "I love that!", "that makes total sense."})
	}
	return interj + ", " + fill(pick(r, []string{
		"tell me more about {t}!", "{t} sounds like a big deal.", "I did not expect {t} news today!",
		"I want to hear everything about {t}.", "{t}, huh? That's so you.", "I need the full story on {t}.",
		"that's huge, {t} I mean.", "I'm still catching up on {t} in my head.",
	}), "t", topic)
}

// distractor mentions something the speaker's facts are about, with none
// of the answers: the pet by name or species, a relative by name or role,
// work, the car, music practice, or an earlier happening.
func (b *builder) distractor(sp int) string {
	r := b.rng
	p := b.people[sp]
	var opts []func() string
	if p.pet != "" && b.told(sp, "pet") {
		opts = append(opts, func() string {
			return p.pet + " " + pick(r, []string{"chewed up my favourite sneakers", "stole a sock off the drying rack",
				"barked at the mail carrier for ten minutes", "knocked a mug off the counter", "refused to come inside",
				"has been so clingy", "threw up on the rug", "figured out how to open the cupboard"}) +
				" " + pick(r, []string{"again lol", "this morning", "today, unbelievable", "haha", "and I can't even be mad"})
		}, func() string {
			return pick(r, []string{"took the " + p.species + " to the vet for a checkup, all good",
				"the " + p.species + " has been so lazy in this heat", "bought the " + p.species + " a ridiculous sweater",
				"the " + p.species + " food prices are getting wild", "my " + p.species + " woke me up at dawn again"})
		})
	}
	var met []*kin
	for _, k := range p.kin {
		if k.said {
			met = append(met, k)
		}
	}
	if len(met) > 0 {
		k := pick(r, met)
		opts = append(opts, func() string {
			return pick(r, []string{"talked to {rn} for an hour last night, nothing new really",
				"{rn} sent me the funniest meme", "had lunch with {rn}, we mostly complained about the weather",
				"{rn} keeps asking when I'm visiting", "my " + k.role + " keeps calling me about holiday plans",
				"my " + k.role + " and I argued about a movie for an hour"})
		})
		opts[len(opts)-1] = wrapFill(opts[len(opts)-1], "rn", k.name)
	}
	opts = append(opts, func() string {
		return pick(r, []string{"work was", "my shift was", "the office was", "the job was"}) + " " +
			pick(r, []string{"brutal today", "endless this week", "weirdly quiet", "a zoo"}) + ", " +
			pick(r, []string{"back-to-back meetings", "my inbox exploded", "nobody answered emails", "my manager moved the deadline again",
				"the company announced another reorg", "the coffee machine broke"})
	})
	if p.car && b.told(sp, "car") {
		opts = append(opts, func() string {
			return pick(r, []string{"the car needs new tires already", "someone dinged my car door in the parking lot",
				"the check engine light came on, of course", "spent the morning washing the car"})
		})
	}
	if p.music && b.told(sp, "instrument") {
		opts = append(opts, func() string {
			return pick(r, []string{"practice went terribly today, my fingers refused to cooperate",
				"my neighbours definitely heard me practising scales", "I skipped my lesson this week, felt guilty"})
		})
	}
	if len(p.echoes) > 0 {
		e := pick(r, p.echoes)
		opts = append(opts, func() string {
			return fill(pick(r, []string{"still thinking about {e}, honestly", "people keep asking me about {e}",
				"the photos from {e} finally came through", "I'm still recovering from {e}", "not gonna lie, {e} was a lot"}), "e", e)
		})
	}
	return pick(r, opts)()
}

func wrapFill(f func() string, kv ...string) func() string {
	return func() string { return fill(f(), kv...) }
}

// smallTalk composes one sentence of filler.
func (b *builder) smallTalk(s *slot) string {
	r := b.rng
	switch r.IntN(7) {
	case 0:
		return pick(r, []string{"it's been", "it has been", "honestly it's been", "weather check: it's been"}) + " " +
			pick(r, []string{"pouring", "freezing", "weirdly warm", "so windy", "grey and drizzly", "sticky and humid", "gorgeous", "foggy every morning"}) +
			" here " + pick(r, []string{"all week", "since Monday", "the whole weekend", "today", "for days"}) +
			pick(r, []string{", so I've mostly stayed in", ", which is messing with my sleep", " and I keep forgetting my umbrella",
				", perfect excuse for soup", "", ", the plants are thrilled"})
	case 1:
		return pick(r, []string{"today was", "this week was", "Monday was", "the weekend was"}) + " " +
			pick(r, []string{"exhausting", "a total blur", "weirdly slow", "nonstop", "surprisingly nice", "long", "kind of chaotic"}) +
			pick(r, []string{", tbh", " honestly", "", ", not gonna lie"})
	case 2:
		return "I " + pick(r, []string{"barely slept", "slept in way too late", "stayed up far too late", "woke up at dawn for no reason"}) + " " +
			pick(r, []string{"last night", "on Sunday", "again"}) + " " +
			pick(r, []string{"scrolling through videos", "because of the neighbours' party", "thinking about nothing in particular",
				"with a headache", "after too much coffee"})
	case 3:
		return pick(r, []string{"I made", "we ordered", "I grabbed", "we had"}) + " " +
			pick(r, []string{"takeout", "leftovers", "a sad desk salad", "cereal for dinner", "something quick", "way too much pizza"}) + " " +
			pick(r, []string{"and called it a night", "because I couldn't be bothered to cook", "while watching a documentary", "standing at the counter"})
	case 4:
		return pick(r, []string{"we've been", "I've been", "I started"}) + " " +
			pick(r, []string{"watching", "binging", "half-watching"}) + " " +
			pick(r, []string{"a baking competition show", "an old detective series", "a documentary about octopuses",
				"some reality show I'm embarrassed about", "a sci-fi series everyone recommended"}) +
			pick(r, []string{"", ", it's so good", ", no regrets", " and I can't stop"})
	case 5:
		return pick(r, []string{"spent", "wasted", "lost"}) + " " +
			pick(r, []string{"the whole morning", "an hour", "most of Saturday", "my lunch break"}) + " " +
			pick(r, []string{"on hold with the internet company", "cleaning out the fridge", "at the post office", "trying to fix the wifi",
				"doing laundry", "reorganising a closet", "looking for my keys"})
	default:
		return pick(r, []string{"haha, that's", "lol that is", "ok that's", "honestly that's"}) + " " +
			pick(r, []string{"hilarious", "so relatable", "wild", "the best thing I've heard all day", "very on brand"})
	}
}

var followUps = []string{
	"How about you?", "What have you been up to?", "Anything fun planned for the weekend?", "How's everything on your end?",
	"Did you ever sort out that thing you mentioned?", "Tell me everything.", "How are you holding up?", "What's new with you?",
}

// optional returns an element of xs with probability p, else "".
func optional(r *rand.Rand, p float64, xs []string) string {
	if r.Float64() >= p {
		return ""
	}
	return xs[r.IntN(len(xs))]
}
