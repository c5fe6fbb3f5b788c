package ratedistortion

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/engram-go/engram/internal/memvars"
	"github.com/engram-go/engram/internal/relevance"
	"github.com/engram-go/engram/internal/text"
	"github.com/tmc/langchaingo/llms"
)

const (
	summaryHeader = "system: Left out, in brief:\n"
	// minSummary is the fewest tokens worth spending on a summary.
	minSummary = 12
	// summarySources is how many of the most useful dropped units a summary
	// draws on.
	summarySources = 40
)

// A summary is rendered as lines, like units: a header, then one line per
// extracted sentence ("- Human: …") or a single line holding a model's
// summary, their own line breaks indented as in memvars.Line. Each line
// ends in "\n" and starts with a visible character, so the summary costs
// exactly the sum of its line counts.
func summaryLines(body []string) string {
	if len(body) == 0 {
		return ""
	}
	return summaryHeader + strings.Join(body, "")
}

// summaryLine renders a model's summary as one summary line; its own line
// breaks start indented continuation lines, so it cannot forge a turn.
func summaryLine(sum string) string { return "- " + memvars.Indent(sum) + "\n" }

func summaryMessage(body []string) llms.ChatMessage {
	return llms.SystemChatMessage{Content: strings.TrimSuffix(strings.TrimPrefix(summaryLines(body), "system: "), "\n")}
}

// summaryCache remembers the model's last summary, so that an unchanged set
// of dropped units does not cost another model call.
type summaryCache struct {
	key     string
	summary string
}

// summarise fills s.summary with what the selection left out, within the
// tokens the selection did not use: the model's summary, or the extractive
// one without a model or when the model fails. Only a context that ended
// fails the load. The extractive summary is built under b.mu (it caches
// sentence analyses on entries); a model summary is not.
func (b *Buffer) summarise(ctx context.Context, s *selection) error {
	if b.opts.summaryShare == 0 {
		return nil // summaries are off (WithSummaryShare)
	}
	src := s.droppedByUtility()
	room := s.reserve - b.headerTokens
	if len(src) == 0 || room < minSummary {
		return nil
	}
	if b.opts.summarizer == nil {
		b.mu.Lock()
		s.summary, s.sumTok = b.extract(s, src, room)
		b.mu.Unlock()
		return nil
	}
	sum, err := b.modelSummary(ctx, s, src, room)
	if err != nil {
		if ctx.Err() != nil {
			return err // the caller gave up on the load
		}
		// The model failed (its guard counted it and told the error
		// handler): the extractive summary stands in, as with no model.
		b.mu.Lock()
		s.summary, s.sumTok = b.extract(s, src, room)
		b.mu.Unlock()
		return nil
	}
	fits := func(x string) bool { return b.opts.Counter(summaryLine(x)) <= room }
	if sum = trimToFit(sum, fits); sum != "" {
		line := summaryLine(sum)
		s.summary = []string{line}
		s.sumTok = b.headerTokens + b.opts.Counter(line)
	}
	return nil
}

// droppedByUtility returns the indices of the most useful dropped units,
// most useful first, at most summarySources of them.
func (s *selection) droppedByUtility() []int {
	utility := make([]float64, len(s.units))
	for i, u := range s.units {
		utility[i] = u.utility
		if s.kept[i] {
			utility[i] = -1 // utilities are never negative
		}
	}
	top := relevance.Top(utility, summarySources)
	for len(top) > 0 && s.kept[top[len(top)-1]] {
		top = top[:len(top)-1]
	}
	return top
}

// sentence is one sentence of a unit, analysed once and cached on the entry.
type sentence struct {
	line   string // as a summary line: "- Human: …\n"
	tokens int
	terms  []string
	flags  int
}

// sentences returns e's sentences, analysing them on first use.
func (b *Buffer) sentences(e *entry) []sentence {
	if e.sents == nil {
		e.sents = []sentence{}
		for _, sen := range text.Sentences(text.Excerpt(e.unit.Text)) {
			terms := text.Terms(sen)
			if len(terms) == 0 {
				continue
			}
			line := "- " + memvars.Line(b.prefix(e.unit.Role), sen)
			e.sents = append(e.sents, sentence{line, b.opts.Counter(line), terms, text.Flags(sen).Count()})
		}
	}
	return e.sents
}

// extract picks the most informative sentences of the dropped units, within
// room tokens: by their unit's utility per token, skipping sentences whose
// content words the summary already holds. It returns the summary's lines,
// in chronological order, and their exact cost with the header.
func (b *Buffer) extract(s *selection, src []int, room int) ([]string, int) {
	type cand struct {
		sentence
		score float64
		at    int64
	}
	var cs []cand
	for _, i := range src {
		u := s.units[i]
		for _, sen := range b.sentences(u.e) {
			score := u.utility * (1 + 0.25*float64(sen.flags)) / float64(1+sen.tokens)
			cs = append(cs, cand{sen, score, u.e.unit.Seq})
		}
	}
	sort.SliceStable(cs, func(x, y int) bool { return cs[x].score > cs[y].score })
	seen := make(map[string]bool)
	var chosen []cand
	used := 0
	for _, c := range cs {
		if used+c.tokens > room {
			continue
		}
		fresh := 0
		for _, t := range c.terms {
			if !seen[t] {
				fresh++
			}
		}
		if fresh*2 < len(c.terms) {
			continue // mostly said already
		}
		chosen = append(chosen, c)
		used += c.tokens
		for _, t := range c.terms {
			seen[t] = true
		}
	}
	if len(chosen) == 0 {
		return nil, 0
	}
	sort.SliceStable(chosen, func(x, y int) bool { return chosen[x].at < chosen[y].at })
	lines := make([]string, len(chosen))
	for i, c := range chosen {
		lines[i] = c.line
	}
	return lines, b.headerTokens + used
}

// modelSummary asks the summariser model for a summary of the dropped units.
func (b *Buffer) modelSummary(ctx context.Context, s *selection, src []int, room int) (string, error) {
	var key, body strings.Builder
	for _, i := range src {
		e := s.units[i].e // Seq, Role and Text never change once placed
		fmt.Fprintf(&key, "%d,", e.unit.Seq)
		body.WriteString(b.line(e.unit.Role, e.unit.Text))
	}
	b.mu.Lock()
	cached := b.summary
	b.mu.Unlock()
	if cached.key == key.String() {
		return cached.summary, nil
	}
	prompt := fmt.Sprintf("Summarise these earlier conversation messages in at most %d tokens. "+
		"Keep names, numbers, dates and anything the user asked to remember. Reply with the summary only.\n\n%s",
		room-minSummary/2, body.String())
	out, err := llms.GenerateFromSinglePrompt(ctx, b.opts.summarizer, prompt, llms.WithMaxTokens(room))
	if err != nil {
		return "", fmt.Errorf("ratedistortion: summarise: %w", err)
	}
	out = strings.Join(strings.Fields(out), " ")
	b.mu.Lock()
	b.summary = summaryCache{key: key.String(), summary: out}
	b.mu.Unlock()
	return out, nil
}

// trimToFit shortens sum, by sentences then by words, until fits holds.
func trimToFit(sum string, fits func(string) bool) string {
	if fits(sum) {
		return sum
	}
	sens := text.Sentences(sum)
	for len(sens) > 1 {
		sens = sens[:len(sens)-1]
		if c := strings.Join(sens, " "); fits(c) {
			return c
		}
	}
	words := strings.Fields(sum)
	lo, hi := 0, len(words) // largest prefix of words that fits, by bisection
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(strings.Join(words[:mid], " ") + " …") {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo == 0 {
		return ""
	}
	return strings.Join(words[:lo], " ") + " …"
}
