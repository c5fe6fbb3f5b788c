package credit

import (
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/gate"
	"github.com/engram-go/engram/internal/relevance"
	"github.com/engram-go/engram/internal/text"
)

const (
	// answerPower sharpens the questions' cosine into the weight a filed
	// answer gets: cos^2048 is 0.02 at 0.998 and 0.13 at 0.999. On real
	// dialogue, different questions about one person came as near as 0.97
	// to each other in GloVe's mean vector, and matched there (cos^128),
	// an answer to one cost the other recall.
	answerPower = 2048
	// answerFloor is the weight below which a filed answer is ignored.
	answerFloor = 0.01
	// standingGain scales a unit's standing into its relevance's log.
	standingGain = 0.6
	// standingPrior is how many loads of zero advantage a unit's standing
	// starts with: its shrinkage.
	standingPrior = 8
	// meanWindow is the number of ratings the running mean spans.
	meanWindow = 50
	// maxLog bounds a multiplier's logarithm: e^±3.
	maxLog = 3
)

// MaxAnswers is the most rated loads a ledger files; past it the oldest
// makes room.
const MaxAnswers = 1024

// answer is a rated load: its question's vector, marks and words
// (describe), the units it showed and the rating.
type answer struct {
	q      []float32
	marks  string
	words  string
	keys   []string
	rating float64
}

// standing is what the ratings said of one unit.
type standing struct {
	sum   float64 // ratings less the mean, of the loads that showed it
	loads int
}

// Ledger is what one memory learned from ratings. It is not safe for
// concurrent use: the memory guards it with its own lock.
type Ledger struct {
	kinds   *gate.Gate // which kinds of unit answer: learned from ratings alone
	taught  bool       // kinds has learned something
	answers []answer   // a ring of at most MaxAnswers
	next    int        // the ring's oldest once full
	units   map[string]*standing
	ratings int
	mean    float64

	lastQ     []float32
	lastMarks string
	lastWords string
	lastKeys  []string
	saves     int // human messages saved since the latest load
	loaded    bool
}

// New returns an empty ledger.
func New() *Ledger {
	g, _ := gate.New() // the default options are valid
	return &Ledger{units: make(map[string]*standing), kinds: g}
}

// Learn teaches the ledger's gate which kinds of unit answer, from a
// rating that credited a load (adv, Rate's advantage) and the features,
// as that load scored them, of the units it showed that most likely
// answered ([Answerers]): needed when the answer was rated above the
// usual, not when below.
func (l *Ledger) Learn(answerers []engram.Features, adv float64) {
	if adv == 0 || math.IsNaN(adv) || len(answerers) == 0 {
		return
	}
	for _, f := range answerers {
		l.kinds.Hindsight(f, adv)
	}
	l.taught = true
}

// Correction is the ledger's gate's factor on a unit's utility, given its
// features for this load: (2·σ(w·φ(f)))², between 0 and 4, 1 until a
// rating has taught it. Squared, what the gate learned can lift a kind of
// unit past one that shares more of the question's words: with a factor
// of at most 2 (2·σ alone), a gate that had learned that recent turns
// answer moved in-stream recall on real dialogue by 0.022 at 1,024
// tokens, squared by 0.048, and the repeats' recall by 0.005 and 0.035;
// cubed gained a little more in ratedistortion and nothing in dmem.
func (l *Ledger) Correction(f engram.Features) float64 {
	if !l.taught {
		return 1
	}
	c := 2 * l.kinds.Score(f)
	return c * c
}

// RecencyHalfLife is the half-life, in units saved, of the recency a
// memory without its own measure gives the ledger's gate: ratedistortion's
// default.
const RecencyHalfLife = 8

// Recency returns 2^(−age/RecencyHalfLife), 0 past 30 half-lives.
func Recency(age int64) float64 {
	if age < 0 {
		age = 0
	}
	if age > 30*RecencyHalfLife {
		return 0
	}
	return math.Exp2(-float64(age) / RecencyHalfLife)
}

// Answerers is how many of a rated load's most relevant units Learn is
// given: on real dialogue the best three hold three quarters of the
// evidence a load shows.
const Answerers = 3

// Loaded notes a load: q is its question's unit vector (nil without one)
// and keys the units it showed. A q that is not a unit vector — an
// embedder's NaN or infinity — is taken as no question: filed with a
// rating, it would match every later question and make the relevance of
// what it showed NaN for good.
func (l *Ledger) Loaded(q []float32, question string, keys []string) {
	l.lastMarks, l.lastWords = describe(question)
	l.lastQ, l.lastKeys, l.saves, l.loaded = normalised(q), keys, 0, true
}

// describe returns what tells questions apart that their vectors may not:
// its marks, the words that bear a digit and the names it mentions, and
// all its words, each stemmed, sorted and space-joined. Word vectors know
// no numbers and few names, so "What is the code of desk 417?" and "…
// desk 650?" are one vector; an answer rated for one must not be shown
// again for the other.
func describe(question string) (marks, words string) {
	terms := text.Terms(question)
	names := relevance.Names(question)
	var ms []string
	for _, t := range terms {
		if strings.IndexFunc(t, unicode.IsDigit) >= 0 {
			ms = append(ms, t)
		}
	}
	ms = append(ms, names...)
	ws := append(slices.Clone(terms), names...)
	return joined(ms), joined(ws)
}

// joined returns ts sorted, without repeats, space-joined.
func joined(ts []string) string {
	slices.Sort(ts)
	return strings.Join(slices.Compact(ts), " ")
}

// sameQuestion reports whether two questions, by their marks and words
// (describe), ask the same: each one's marks are among the other's words.
// A name is a mark only where it is capitalised, so "where does alice
// live?" asks what "Where does Alice live?" does, and "… Bob …" does not.
func sameQuestion(marksA, wordsA, marksB, wordsB string) bool {
	among := func(marks, words string) bool {
		ws := strings.Fields(words)
		for _, m := range strings.Fields(marks) {
			if _, ok := slices.BinarySearch(ws, m); !ok {
				return false
			}
		}
		return true
	}
	return among(marksA, wordsB) && among(marksB, wordsA)
}

// squaredLength returns |q|², NaN or infinite for a q that is not finite.
func squaredLength(q []float32) float64 {
	var s float64
	for _, x := range q {
		s += float64(x) * float64(x)
	}
	return s
}

// unitVector reports whether q, of squared length s, is finite and at most
// of unit length (rounding aside): the cosine of two such vectors is at
// most about 1.
func unitVector(s float64) bool { return s <= 1.001 } // false for NaN and infinities too

// normalised returns q scaled to unit length exactly, as a copy: nil for a q that
// is not a unit vector (unitVector) or is zero. A question is matched
// through a high power of the cosine (answerPower), where a length off by
// a ten-thousandth, as embedders leave it, would weigh an answer a fifth
// more or less.
func normalised(q []float32) []float32 {
	s := squaredLength(q)
	if !unitVector(s) || s == 0 {
		return nil
	}
	inv := 1 / math.Sqrt(s)
	out := make([]float32, len(q))
	for i, x := range q {
		out[i] = float32(float64(x) * inv)
	}
	return out
}

// Saved notes a human message saved. The rated exchange's question may be
// saved between a load and its rating — an agent executor saves the
// exchange before the user rates it — but after a second question the
// rating is no longer about that load. Tool steps and replies do not
// count.
func (l *Ledger) Saved() { l.saves++ }

// Pending reports whether a rating now would be about a load.
func (l *Ledger) Pending() bool { return l.loaded && l.saves <= 1 && len(l.lastKeys) > 0 }

// Rate credits the latest load with rating r and reports whether there was
// one to credit (see Pending), with the rating's advantage: r less the
// running mean before it (which starts at 0). Each rating counts: two
// ratings of one load add up.
func (l *Ledger) Rate(r float64) (adv float64, ok bool) {
	if !l.Pending() || math.IsNaN(r) {
		return 0, false
	}
	r = max(-1, min(1, r))
	adv = r - l.mean
	first := l.ratings == 0
	l.ratings++
	l.mean += (r - l.mean) / float64(min(l.ratings, meanWindow))
	if !first { // the first rating has no mean to be measured against
		for _, k := range l.lastKeys {
			s := l.units[k]
			if s == nil {
				s = new(standing)
				l.units[k] = s
			}
			s.sum += adv
			s.loads++
		}
	}
	if l.lastQ != nil {
		a := answer{q: l.lastQ, marks: l.lastMarks, words: l.lastWords, keys: l.lastKeys, rating: r}
		if len(l.answers) < MaxAnswers {
			l.answers = append(l.answers, a)
		} else {
			l.answers[l.next] = a
			l.next = (l.next + 1) % MaxAnswers
		}
	}
	return adv, true
}

// Answers returns what the filed answers say of units for question q,
// whose vector is qv: a log-relevance term by unit key, nil when no filed
// answer is near q. An answer is near when its question's vector is
// nearly qv and it asks what q does (sameQuestion): the same numbers and
// names.
func (l *Ledger) Answers(qv []float32, question string) map[string]float64 {
	if len(l.answers) == 0 || qv == nil {
		return nil
	}
	q := normalised(qv)
	if q == nil {
		return nil
	}
	var marks, words string
	described := false
	var out map[string]float64
	for i := range l.answers {
		a := &l.answers[i]
		if len(q) != len(a.q) {
			continue // filed under another embedder's vectors
		}
		// Both of unit length, so at most 1 but for rounding; NaN too
		// fails the test: a question without a usable vector matches
		// nothing.
		c := min(1, relevance.Dot(q, a.q))
		if !(c > 0) {
			continue
		}
		w := math.Pow(c, answerPower)
		if w < answerFloor {
			continue
		}
		if !described { // only for the few answers whose vectors are near
			marks, words = describe(question)
			described = true
		}
		if !sameQuestion(a.marks, a.words, marks, words) {
			continue
		}
		if out == nil {
			out = make(map[string]float64)
		}
		x := w * kept(a.rating)
		for _, k := range a.keys {
			out[k] += x
		}
	}
	return out
}

// kept is what a filed answer rated r says of each unit it showed, for
// the same question asked again: the part of the answer that was right,
// (r+1)/2 on the −1…1 scale, save for the lowest rating, which says none
// of them answered and makes room for others (−1). Which of the shown
// units answered a partly right answer is not known, so all of them are
// kept: on real dialogue an answer with half its evidence, filed at its
// rating, 0, lost a seventh of it when asked again, and the answer's
// most relevant units held too little of it to be kept alone.
func kept(r float64) float64 {
	if r <= -1 {
		return -1
	}
	return (r + 1) / 2
}

// Moved calls fn with every unit whose Multiplier is not 1 for this load,
// given what the filed answers say (Answers), once each: a memory can move
// the few units ratings touched without looking up every unit it holds.
func (l *Ledger) Moved(answers map[string]float64, fn func(key string, m float64)) {
	for k := range answers {
		if m := l.Multiplier(k, answers); m != 1 {
			fn(k, m)
		}
	}
	for k := range l.units {
		if _, seen := answers[k]; !seen {
			if m := l.Multiplier(k, answers); m != 1 {
				fn(k, m)
			}
		}
	}
}

// Multiplier returns the factor on the relevance of unit key, given what
// the filed answers say for this load (Answers): 1 for a unit no rating
// has touched.
func (l *Ledger) Multiplier(key string, answers map[string]float64) float64 {
	x := answers[key]
	if s := l.units[key]; s != nil {
		x += standingGain * s.sum / (float64(s.loads) + standingPrior)
	}
	if x == 0 {
		return 1
	}
	return math.Exp(max(-maxLog, min(maxLog, x)))
}

// Touched reports whether any rating has reached a unit: until one has,
// Multiplier is 1 for every unit and a load need not ask.
func (l *Ledger) Touched() bool { return len(l.units) > 0 || len(l.answers) > 0 }

// Forget drops what the ledger knows of a unit the memory let go. Filed
// answers keep its key until they age out: a key that names no unit
// matches nothing.
func (l *Ledger) Forget(key string) { delete(l.units, key) }

// Clear forgets everything.
func (l *Ledger) Clear() { *l = *New() }

// Ratings returns how many ratings have credited a load.
func (l *Ledger) Ratings() int { return l.ratings }

// Standings returns how many units the ledger keeps a standing for: one
// for each unit a rated load showed that the memory has not let go.
func (l *Ledger) Standings() int { return len(l.units) }
