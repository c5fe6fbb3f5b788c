package eval

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/cmd/memeval/dataset"
)

// The feedback replay asks questions as a user does while a conversation
// goes on, and rates each answer: every question right after the pair that
// holds its last evidence turn is saved (questions sharing that point in
// file order), its answer rated through the memory's Reward before the
// next save by a user who knows which turns answer it. After the last
// turn every question is asked again, unrated: what the memory learned.

// Rating is how the simulated user rates answers in the feedback replay.
type Rating string

// The ratings of the feedback replay; share is the part of a question's
// evidence turns the load returned.
const (
	RateNone     Rating = "none"     // no rating: the same loads, unrated
	RateReward   Rating = "reward"   // every answer, 2·share − 1
	RatePositive Rating = "positive" // +1 when every evidence turn was shown, nothing otherwise
	RateSparse   Rating = "sparse"   // every fifth answer, 2·share − 1
	RateNoisy    Rating = "noisy"    // as reward, but every tenth rating flipped
)

// Ratings lists every rating, none first.
func Ratings() []Rating {
	return []Rating{RateNone, RateReward, RatePositive, RateSparse, RateNoisy}
}

// ParseRating returns the rating named s.
func ParseRating(s string) (Rating, error) {
	for _, r := range Ratings() {
		if string(r) == s {
			return r, nil
		}
	}
	return "", fmt.Errorf("eval: unknown rating %q (have none, reward, positive, sparse, noisy)", s)
}

// rate returns the rating the user gives the k-th answer (from 0) of a
// conversation when share of its evidence was shown, and whether it gives
// one.
func (r Rating) rate(k int, share float64) (float64, bool) {
	v := 2*share - 1
	switch r {
	case RateReward:
		return v, true
	case RatePositive:
		return 1, share == 1
	case RateSparse:
		return v, k%5 == 4
	case RateNoisy:
		if k%10 == 9 {
			return -v, true
		}
		return v, true
	}
	return 0, false
}

// FeedbackResult is one memory's scores at one budget under one rating.
type FeedbackResult struct {
	Memory string `json:"memory"`
	Rating Rating `json:"rating"`
	Budget int    `json:"budget"`
	// InStream is the mean evidence recall of the questions as they were
	// asked during the conversation.
	InStream float64 `json:"in_stream"`
	// Repeats is InStream over the questions whose evidence turns all
	// served questions asked before them.
	Repeats float64 `json:"repeats"`
	// Final is the mean evidence recall when every question is asked again
	// after the last turn, unrated.
	Final     float64 `json:"final"`
	Questions int     `json:"questions"`
	RepeatN   int     `json:"repeat_questions"`
	// Rated counts the ratings given.
	Rated int `json:"rated"`
	// RewardP50 is the median time a Reward call took, in microseconds.
	RewardP50 float64 `json:"reward_p50_us"`
	// LoadP50 is the median time an in-stream load took, in microseconds.
	LoadP50 float64 `json:"load_p50_us"`
}

type feedbackAcc struct {
	inStream, repeats, final float64
	questions, repeatN       int
	rated                    int
	rewards, loads           []time.Duration
}

// Feedback replays every sample into every memory at every budget under
// each rating, as described above. A memory that is not an
// [engram.RewardSink] is replayed unrated whatever the rating.
func Feedback(ctx context.Context, samples []dataset.Sample, cfg Config, ratings []Rating) ([]FeedbackResult, error) {
	if len(ratings) == 0 {
		return nil, fmt.Errorf("eval: feedback: no rating to replay")
	}
	type cellKey struct {
		m, b int
		r    Rating
	}
	cells := make(map[cellKey]*feedbackAcc)
	for _, rating := range ratings {
		got, err := sweep(samples, cfg, "eval: feedback "+string(rating), func(s *dataset.Sample) string { return s.ID },
			func() *feedbackAcc { return new(feedbackAcc) },
			func(s *dataset.Sample, m Memory, budget int, a *feedbackAcc) error {
				return feedbackOne(ctx, s, m, budget, rating, a)
			})
		if err != nil {
			return nil, err
		}
		for k, a := range got {
			cells[cellKey{k[0], k[1], rating}] = a
		}
	}
	var out []FeedbackResult
	for mi, m := range cfg.Memories {
		for _, rating := range ratings {
			for bi, budget := range cfg.Budgets {
				a := cells[cellKey{mi, bi, rating}]
				r := FeedbackResult{Memory: m.Name, Rating: rating, Budget: budget, Questions: a.questions, RepeatN: a.repeatN, Rated: a.rated,
					RewardP50: percentile(a.rewards, 0.5), LoadP50: percentile(a.loads, 0.5)}
				if a.questions > 0 {
					r.InStream, r.Final = a.inStream/float64(a.questions), a.final/float64(a.questions)
				}
				if a.repeatN > 0 {
					r.Repeats = a.repeats / float64(a.repeatN)
				}
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// asked is a question of the replay: its text, its evidence turns' texts
// and indices, and whether all of them served earlier questions.
type asked struct {
	question string
	evidence []string // squashed texts
	ids      []string // dia ids
	after    int      // the pair after whose save it is asked
	repeat   bool
}

// questions returns s's scored questions in the order the feedback replay
// asks them, each with the pair after which it is asked.
func questions(s *dataset.Sample) []asked {
	turns := s.Turns()
	index := make(map[string]int, len(turns))
	for i, t := range turns {
		index[t.DiaID] = i
	}
	var qs []asked
	for _, qa := range s.QA {
		ev := s.Evidence(qa)
		if qa.Category == dataset.Adversarial || len(ev) == 0 {
			continue
		}
		q := asked{question: qa.Question}
		last := 0
		for _, t := range ev {
			q.evidence = append(q.evidence, squash(t.Text))
			q.ids = append(q.ids, t.DiaID)
			last = max(last, index[t.DiaID])
		}
		q.after = last / 2
		qs = append(qs, q)
	}
	// By the point of asking; questions sharing it keep file order.
	order := slices.Clone(qs)
	slices.SortStableFunc(order, func(x, y asked) int { return cmp.Compare(x.after, y.after) })
	served := make(map[string]bool)
	for i := range order {
		all := true
		for _, e := range order[i].ids {
			all = all && served[e]
		}
		order[i].repeat = all
		for _, e := range order[i].ids {
			served[e] = true
		}
	}
	return order
}

func feedbackOne(ctx context.Context, s *dataset.Sample, m Memory, budget int, rating Rating, a *feedbackAcc) error {
	runtime.GC()
	mem, _, done, err := open(ctx, m, budget, s, false)
	if err != nil {
		return err
	}
	defer done()
	sink, _ := mem.(engram.RewardSink)
	qs := questions(s)
	next, k := 0, 0
	ask := func(q asked) (float64, error) {
		start := time.Now()
		vars, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": q.question})
		if err != nil {
			return 0, fmt.Errorf("load: %w", err)
		}
		a.loads = append(a.loads, time.Since(start))
		got, err := history(vars, mem.GetMemoryKey(ctx))
		if err != nil {
			return 0, err
		}
		return share(got, q.evidence), nil
	}
	for i, p := range Pairs(s) {
		if err := mem.SaveContext(ctx, map[string]any{"input": p[0]}, map[string]any{"output": p[1]}); err != nil {
			return fmt.Errorf("save: %w", err)
		}
		for ; next < len(qs) && qs[next].after == i; next++ {
			q := qs[next]
			sh, err := ask(q)
			if err != nil {
				return err
			}
			a.inStream += sh
			a.questions++
			if q.repeat {
				a.repeats += sh
				a.repeatN++
			}
			if r, ok := rating.rate(k, sh); ok && sink != nil {
				start := time.Now()
				if err := sink.Reward(ctx, r); err != nil {
					return fmt.Errorf("reward: %w", err)
				}
				a.rewards = append(a.rewards, time.Since(start))
				a.rated++
			}
			k++
		}
	}
	for _, q := range qs {
		sh, err := ask(q)
		if err != nil {
			return err
		}
		a.final += sh
	}
	return nil
}

// share returns the part of evidence (squashed texts) found in history,
// white space squashed: a memory may indent a message's continuation lines
// (internal/memvars).
func share(history string, evidence []string) float64 {
	flat, found := squash(history), 0
	for _, e := range evidence {
		if strings.Contains(flat, e) {
			found++
		}
	}
	return float64(found) / float64(len(evidence))
}

// WriteFeedbackTable prints feedback results, one row per memory, rating
// and budget.
func WriteFeedbackTable(w io.Writer, rs []FeedbackResult) error {
	if _, err := fmt.Fprintf(w, "%-12s %-8s %6s %9s %8s %7s %6s %10s %9s\n", "memory", "rating", "budget", "in-stream", "repeats", "final", "rated", "reward p50", "load p50"); err != nil {
		return err
	}
	for _, r := range rs {
		if _, err := fmt.Fprintf(w, "%-12s %-8s %6d %9.3f %8.3f %7.3f %6d %8.1fµs %7.0fµs\n",
			r.Memory, r.Rating, r.Budget, r.InStream, r.Repeats, r.Final, r.Rated, r.RewardP50, r.LoadP50); err != nil {
			return err
		}
	}
	return nil
}

// FeedbackMemories are the memories the feedback replay compares by
// default: both backends, their learned-gate variants, the two retrieval
// anchors and langchaingo's window and token buffers, which take no
// rating (the buffers hold what was just said, which in-stream questions
// often ask about).
const FeedbackMemories = "rd,dmem,rd-gate,dmem-gate,bm25,bm25glove,window,token"
