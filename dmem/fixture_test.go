package dmem

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// A synthetic long conversation: facts stated once among small talk and
// repeats, and questions about the facts asked at the end. Questions share
// the topic words of their fact but not its answer.

type turn struct {
	text  string
	noise bool
}

type question struct {
	text     string
	evidence int // index of the turn that answers it
}

type conversation struct {
	turns     []turn
	questions []question
}

var (
	fxNames = []string{"Priya", "Marcus", "Yuki", "Diego", "Ingrid", "Omar", "Leila", "Soren", "Amara", "Tomas", "Keiko", "Rafael", "Noor", "Callum", "Beatriz", "Kwame", "Freya", "Idris", "Mei", "Anders",
		"Hannah", "Theo", "Fatima", "Lukas", "Camila", "Jonah", "Esme", "Arjun", "Greta", "Emeka", "Talia", "Hugo", "Wren", "Dmitri", "Paloma", "Gideon", "Sienna", "Yusuf", "Vera", "Ronan"}
	fxCities    = []string{"Lisbon", "Denver", "Kyoto", "Oaxaca", "Tallinn", "Halifax", "Porto", "Boise", "Reykjavik", "Savannah", "Vienna", "Prague", "Tucson", "Madison", "Dublin"}
	fxCompanies = []string{"Stripe", "Deloitte", "Genentech", "Arup", "Reuters", "Zillow", "Gensler", "Duolingo", "Nielsen", "Redfin"}
	fxJobs      = []string{"pharmacist", "architect", "paralegal", "veterinarian", "data analyst", "pastry chef", "electrician", "journalist"}
	fxBreeds    = []string{"beagle", "corgi", "whippet", "husky", "schnauzer", "dachshund", "Ragdoll", "Siamese"}
	fxPets      = []string{"Biscuit", "Mochi", "Pretzel", "Juniper", "Gizmo", "Nacho", "Turnip", "Clementine"}
	fxInstr     = []string{"cello", "banjo", "clarinet", "ukulele", "trombone", "harp"}
	fxMonths    = []string{"January", "March", "April", "June", "August", "October", "November"}
	fxDays      = []string{"Monday", "Tuesday", "Thursday", "Friday", "Saturday"}
	fxDishes    = []string{"mushroom risotto", "pad thai", "shakshuka", "lamb tagine", "pierogi", "ramen"}
	fxSports    = []string{"rock climbing", "fencing", "rowing", "archery", "kayaking", "curling"}
)

// factMaker returns a statement about person n and a question about it.
type factMaker func(r *rand.Rand, n string) (string, string)

var factMakers = []factMaker{
	func(r *rand.Rand, n string) (string, string) {
		return fmt.Sprintf("My friend %s finally moved to %s, she loves the new neighbourhood.", n, choose(r, fxCities)),
			fmt.Sprintf("Which city did %s move to?", n)
	},
	func(r *rand.Rand, n string) (string, string) {
		return fmt.Sprintf("%s accepted an offer as a %s at %s, starting in %s.", n, choose(r, fxJobs), choose(r, fxCompanies), choose(r, fxMonths)),
			fmt.Sprintf("What job offer did %s accept?", n)
	},
	func(r *rand.Rand, n string) (string, string) {
		return fmt.Sprintf("%s adopted a %s puppy named %s, he is %d weeks old.", n, choose(r, fxBreeds), choose(r, fxPets), 8+r.IntN(8)),
			fmt.Sprintf("What breed is the puppy %s adopted?", n)
	},
	func(r *rand.Rand, n string) (string, string) {
		return fmt.Sprintf("%s started %s lessons every %s evening.", n, choose(r, fxInstr), choose(r, fxDays)),
			fmt.Sprintf("Which instrument does %s take lessons in?", n)
	},
	func(r *rand.Rand, n string) (string, string) {
		return fmt.Sprintf("The wedding anniversary of %s is %s %d, married %d years now.", n, choose(r, fxMonths), 1+r.IntN(28), 2+r.IntN(20)),
			fmt.Sprintf("When is the wedding anniversary of %s?", n)
	},
	func(r *rand.Rand, n string) (string, string) {
		return fmt.Sprintf("%s has a conference flight to %s at %d:%02d on %s.", n, choose(r, fxCities), 6+r.IntN(12), 5*r.IntN(12), choose(r, fxDays)),
			fmt.Sprintf("When does the conference flight of %s leave?", n)
	},
	func(r *rand.Rand, n string) (string, string) {
		return fmt.Sprintf("Please remember that the gym locker code of %s is %04d.", n, r.IntN(10000)),
			fmt.Sprintf("What is the gym locker code of %s?", n)
	},
	func(r *rand.Rand, n string) (string, string) {
		return fmt.Sprintf("For the potluck %s is cooking %s from a family recipe.", n, choose(r, fxDishes)),
			fmt.Sprintf("What is %s cooking for the potluck?", n)
	},
	func(r *rand.Rand, n string) (string, string) {
		return fmt.Sprintf("%s joined a %s club, they train twice a week.", n, choose(r, fxSports)),
			fmt.Sprintf("Which club did %s join?", n)
	},
	func(r *rand.Rand, n string) (string, string) {
		return fmt.Sprintf("The mechanic quoted %s $%d to replace the brakes on the hatchback.", n, 300+50*r.IntN(30)),
			fmt.Sprintf("How much did the mechanic quote %s for the brakes?", n)
	},
}

var (
	smallOpen = []string{"Haha", "Oh nice", "Yeah", "Honestly", "Ugh", "Lol", "Aww", "Wow", "Hmm", "Right"}
	smallMid  = []string{"that's so true", "I know what you mean", "same here", "totally agree", "that's hilarious",
		"I'm so tired today", "the weather has been lovely", "it's been such a long day", "I could really use a nap",
		"I need more coffee", "what a week it has been", "I'm just chilling at home", "that sounds like fun",
		"I can't believe it's already evening", "my phone keeps dying", "traffic was awful again"}
	smallEnd = []string{"!", ".", " haha.", " lol.", ", you know?", "!!", " to be honest.", ""}
	follow   = []string{"How about you?", "What have you been up to?", "Anyway, how's it going?", "Anything new?", ""}
)

func smallTalk(r *rand.Rand) string {
	s := choose(r, smallOpen) + ", " + choose(r, smallMid) + choose(r, smallEnd)
	if f := choose(r, follow); f != "" {
		s += " " + f
	}
	return s
}

func choose[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// makeConversation returns n turns, a share noise of them noise (small talk
// or a repeat of an earlier noise turn), and one question per fact.
func makeConversation(seed uint64, n int, noise float64) conversation {
	r := rand.New(rand.NewPCG(seed, 7))
	var c conversation
	var said []int
	usedQ := map[string]bool{}
	for i := 0; i < n; i++ {
		if r.Float64() < noise {
			t := smallTalk(r)
			if len(said) > 0 && r.Float64() < 0.25 {
				t = c.turns[said[r.IntN(len(said))]].text // a repeat
			}
			said = append(said, i)
			c.turns = append(c.turns, turn{text: t, noise: true})
			continue
		}
		var st, q string
		for {
			st, q = choose(r, factMakers)(r, choose(r, fxNames))
			if !usedQ[q] {
				break
			}
		}
		usedQ[q] = true
		c.turns = append(c.turns, turn{text: st})
		c.questions = append(c.questions, question{text: q, evidence: i})
	}
	return c
}

// replay saves c into m as input/output pairs.
func replay(m interface {
	SaveContext(ctxT, map[string]any, map[string]any) error
}, c conversation) error {
	for i := 0; i+1 < len(c.turns); i += 2 {
		if err := m.SaveContext(bg, map[string]any{"input": c.turns[i].text}, map[string]any{"output": c.turns[i+1].text}); err != nil {
			return err
		}
	}
	return nil
}

func contains(history, turn string) bool { return strings.Contains(history, turn) }
