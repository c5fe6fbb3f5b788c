package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"

	"math"
	"sort"
	"strings"

	"github.com/engram-go/engram/internal/text"
)

// Sense selection. A word keeps at most maxSenses senses, and only those
// whose score (tag count, plus a rank prior for untagged senses) is at least
// minShare of its best sense's: rare senses are noise for an agent's
// memory, where "father" means a parent, not a priest.
const (
	maxSenses = 3
	minShare  = 0.025
	// maxStemSenses and maxStemLex bound what one stem stores once the
	// words collapsing to it are merged.
	maxStemSenses = 3
	maxStemLex    = 4
	// lexWeight is the weight of a derivationally related synset relative
	// to the sense it hangs off: "volunteer"(v) meets "volunteer"(n).
	lexWeight = 0.5
	lexFloor  = 0.25
	// inflectedLemma scales the merge weight of a lemma that is also an
	// inflection of another lemma of the same stem.
	inflectedLemma = 0.3
	// inflectedOnly scales the merge weight of a lemma that reaches a
	// stem only through its inflections.
	inflectedOnly = 0.5
	// minConf drops words whose confidence (see confidence) is lower.
	minConf = 0.1
	// synonymCounts weighs, in a sense's score, how often the synset's
	// other words were tagged with it: "unwind" is rarely tagged at all,
	// but its sense shared with the common "relax" is a likely one.
	synonymCounts = 0.1
)

// posPrior scales sense scores by part of speech: the content an agent
// remembers is carried mostly by nouns.
var posPrior = [len(posOrder)]float64{1, 0.8, 0.8, 0.5}

// Built is a generated table and its statistics.
type Built struct {
	Bytes   []byte // gzip-compressed table
	Raw     int    // uncompressed size
	Synsets int
	Stems   int
}

// sense is one sense of a lemma.
type sense struct {
	id    int32
	pos   int // index in posOrder
	rank  int // 0 for the most frequent sense of the lemma in its pos
	count int
	score float64
}

// vec is a sparse weighted set of synset ids.
type vec map[int32]float64

// contrib is what one lemma, read as some parts of speech, gives a stem.
type contrib struct {
	senses vec
	lex    vec
	conf   float64 // in (0,1]
	freq   float64 // merge weight among words sharing a stem
}

const allPos = 1<<len(posOrder) - 1

// Build derives the table from wn.
func Build(wn *WordNet) (*Built, error) {
	// Which lemmas, read as which parts of speech, each stem collects.
	byStem := map[string]map[string]int{}
	inflected := map[string]bool{} // forms that inflect some lemma
	direct := map[string]bool{}    // "stem lemma": the lemma itself has the stem
	add := func(form, lemma string, mask int) {
		if !validWord(form) || text.IsStop(form) {
			return
		}
		if form != lemma {
			inflected[form] = true
		} else {
			direct[text.Stem(form)+" "+lemma] = true
		}
		st := text.Stem(form)
		m := byStem[st]
		if m == nil {
			m = map[string]int{}
			byStem[st] = m
		}
		m[lemma] |= mask
	}
	lemmas := map[string]bool{}
	for _, pos := range posOrder {
		for l := range wn.Index[pos] {
			if validWord(l) {
				lemmas[l] = true
			}
		}
	}
	for l := range lemmas {
		add(l, l, allPos)
		for pi, pos := range posOrder {
			if _, ok := wn.Index[pos][l]; !ok {
				continue
			}
			for _, f := range inflect(l, pos) {
				add(f, l, 1<<pi)
			}
		}
	}
	for pi, pos := range posOrder {
		for form, ls := range wn.Exc[pos] {
			for _, l := range ls {
				if lemmas[l] && wn.Index[pos][l] != nil {
					add(form, l, 1<<pi)
				}
			}
		}
	}

	stems := make([]string, 0, len(byStem))
	for st := range byStem {
		stems = append(stems, st)
	}
	sort.Strings(stems)

	type entry struct {
		stem   string
		conf   float64
		senses []weighted
		lex    []weighted
	}
	var entries []entry
	for _, st := range stems {
		var senses, lex vec = vec{}, vec{}
		var conf, total float64
		ls := byStem[st]
		names := make([]string, 0, len(ls))
		for l := range ls {
			names = append(names, l)
		}
		sort.Strings(names)
		for _, l := range names {
			c, ok := wn.contribution(l, ls[l])
			if !ok {
				continue
			}
			if inflected[l] && len(ls) > 1 {
				// "nursing" and "nursed" are lemmas too, but in text
				// mostly forms of "nurse".
				c.freq *= inflectedLemma
			}
			if !direct[st+" "+l] && len(ls) > 1 {
				// Stem collisions: "cared" shares the stem of "car".
				c.freq *= inflectedOnly
			}
			for id, w := range c.senses {
				senses[id] += c.freq * w
			}
			for id, w := range c.lex {
				lex[id] += c.freq * w
			}
			conf += c.freq * c.conf
			total += c.freq
		}
		if total == 0 || conf/total < minConf {
			continue
		}
		e := entry{stem: st, conf: conf / total, senses: top(senses, maxStemSenses), lex: top(lex, maxStemLex)}
		quantize(e.senses, e.lex)
		if len(e.senses) == 0 {
			continue
		}
		entries = append(entries, e)
	}

	ic := wn.informationContent()

	// Encode. Columns compress better than rows: stems, then confidences,
	// then senses.
	var raw bytes.Buffer
	raw.WriteString("LEX2")
	putUvarint(&raw, uint64(len(wn.Synsets)))
	raw.Write(ic)
	for _, s := range wn.Synsets {
		raw.WriteByte(s.File) // runs: WordNet numbers synsets file by file
	}
	for i, s := range wn.Synsets {
		putUvarint(&raw, uint64(len(s.Hyper)))
		for _, h := range s.Hyper {
			putVarint(&raw, int64(i)-int64(h))
		}
	}
	putUvarint(&raw, uint64(len(entries)))
	prev := ""
	for _, e := range entries {
		n := commonPrefix(prev, e.stem)
		putUvarint(&raw, uint64(n))
		putUvarint(&raw, uint64(len(e.stem)-n))
		raw.WriteString(e.stem[n:])
		prev = e.stem
	}
	for _, e := range entries {
		raw.WriteByte(byte(math.Round(e.conf * 255)))
	}
	for _, e := range entries {
		for _, ws := range [2][]weighted{e.senses, e.lex} {
			putUvarint(&raw, uint64(len(ws)))
			for _, w := range ws {
				putUvarint(&raw, uint64(w.id))
				raw.WriteByte(w.q)
			}
		}
	}

	var z bytes.Buffer
	zw, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(raw.Bytes()); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return &Built{Bytes: z.Bytes(), Raw: raw.Len(), Synsets: len(wn.Synsets), Stems: len(entries)}, nil
}

// contribution reads lemma as the parts of speech in mask.
func (wn *WordNet) contribution(lemma string, mask int) (contrib, bool) {
	var ss []sense
	n := 0 // senses in all parts of speech: polysemy
	for pi, pos := range posOrder {
		ids := wn.Index[pos][lemma]
		n += len(ids)
		if mask&(1<<pi) == 0 {
			continue
		}
		for r, id := range ids {
			c := wn.SenseCount(lemma, pos, r+1)
			score := float64(c) + 1/float64(r+1) + synonymCounts*float64(wn.synCount[id]-c)
			ss = append(ss, sense{id: id, pos: pi, rank: r, count: c, score: score * posPrior[pi]})
		}
	}
	if len(ss) == 0 {
		return contrib{}, false
	}
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].score > ss[j].score })
	var total, tags float64
	for _, s := range ss {
		total += s.score
		tags += float64(s.count)
	}
	kept := ss[:0:0]
	var keptScore float64
	for _, s := range ss {
		if len(kept) == maxSenses || s.score < minShare*ss[0].score {
			break
		}
		kept = append(kept, s)
		keptScore += s.score
	}
	c := contrib{senses: vec{}, lex: vec{}, freq: math.Sqrt(tags + 1)}
	for _, s := range kept {
		c.senses[s.id] += s.score / keptScore
	}
	// Derivation is a fact about the word, whatever its sense: "baker"
	// hangs off bake's second sense only. So every sense contributes its
	// related forms, weighted by its share but at least lexFloor.
	for _, s := range ss {
		w := math.Max(lexFloor, s.score/keptScore)
		syn := &wn.Synsets[s.id]
		for _, p := range syn.Lex {
			if p.Src >= len(syn.Words) || syn.Words[p.Src] != lemma {
				continue
			}
			t := p.Target
			c.lex[t] = math.Max(c.lex[t], lexWeight*math.Min(1, w))
		}
	}
	c.conf = confidence(ss[0].score/total, n)
	return c, true
}

// confidence is how sure a reading of a word is: the probability of its
// first sense, times a penalty for words with many senses, which are the
// frequent, vague words ("make", "time", "day") whose concepts mostly add
// noise.
func confidence(pFirst float64, senses int) float64 {
	c := pFirst
	if senses > 4 {
		c *= math.Sqrt(4 / float64(senses))
	}
	return math.Min(1, c)
}

// informationContent returns, for each synset, 255 × (1 − ln(1+d)/ln(1+N))
// where d counts its hyponyms (transitively, a tree approximation) and N the
// synsets of its part of speech: near 0 for "entity", 255 for a leaf.
func (wn *WordNet) informationContent() []byte {
	desc := make([]float64, len(wn.Synsets))
	children := make([][]int32, len(wn.Synsets))
	for i, s := range wn.Synsets {
		for _, h := range s.Hyper {
			children[h] = append(children[h], int32(i))
		}
	}
	done := make([]bool, len(wn.Synsets))
	var count func(int32) float64
	count = func(i int32) float64 {
		if done[i] {
			return desc[i]
		}
		done[i] = true // WordNet's hierarchies are acyclic
		var d float64
		for _, c := range children[i] {
			d += 1 + count(c)
		}
		desc[i] = d
		return d
	}
	perPos := map[byte]float64{}
	for _, s := range wn.Synsets {
		perPos[s.Pos]++
	}
	out := make([]byte, len(wn.Synsets))
	for i, s := range wn.Synsets {
		ic := 1 - math.Log1p(count(int32(i)))/math.Log1p(perPos[s.Pos])
		out[i] = byte(math.Round(255 * math.Max(0, ic)))
	}
	return out
}

type weighted struct {
	id int32
	w  float64
	q  byte
}

// top returns the n heaviest entries of v, heaviest first, ties by id.
func top(v vec, n int) []weighted {
	out := make([]weighted, 0, len(v))
	for id, w := range v {
		out = append(out, weighted{id: id, w: w})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].w != out[j].w {
			return out[i].w > out[j].w
		}
		return out[i].id < out[j].id
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// quantize sets q to w on a 1..255 scale relative to the heaviest sense,
// dropping entries that round to zero.
func quantize(senses, lex []weighted) {
	if len(senses) == 0 {
		return
	}
	m := senses[0].w
	for _, ws := range [2]*[]weighted{&senses, &lex} {
		kept := (*ws)[:0]
		for _, w := range *ws {
			q := math.Round(255 * math.Min(1, w.w/m))
			if q >= 1 {
				w.q = byte(q)
				kept = append(kept, w)
			}
		}
		*ws = kept
	}
}

// validWord reports whether w is a single lower-case word, hyphens allowed
// inside, of two letters or more.
func validWord(w string) bool {
	if len(w) < 2 || w[0] == '-' || w[len(w)-1] == '-' || strings.Contains(w, "--") {
		return false
	}
	for i := 0; i < len(w); i++ {
		if (w[i] < 'a' || w[i] > 'z') && w[i] != '-' {
			return false
		}
	}
	return true
}

// inflect returns the regular inflections of lemma as pos: plurals, verb
// forms, comparatives. Irregular ones come from the *.exc files.
func inflect(l string, pos byte) []string {
	switch pos {
	case 'n':
		return []string{plural(l)}
	case 'v':
		out := []string{plural(l)}
		switch {
		case strings.HasSuffix(l, "e"):
			out = append(out, l+"d")
		case consonantY(l):
			out = append(out, l[:len(l)-1]+"ied")
		default:
			out = append(out, l+"ed")
		}
		switch {
		case strings.HasSuffix(l, "ie"):
			out = append(out, l[:len(l)-2]+"ying")
		case strings.HasSuffix(l, "e") && !strings.HasSuffix(l, "ee") && !strings.HasSuffix(l, "ye") && !strings.HasSuffix(l, "oe"):
			out = append(out, l[:len(l)-1]+"ing")
		default:
			out = append(out, l+"ing")
		}
		if cvc(l) { // "stop" → "stopped"; "travel" → "travelled" as well as "traveled"
			d := l + l[len(l)-1:]
			out = append(out, d+"ed", d+"ing")
		}
		return out
	case 'a':
		if len(l) > 6 || strings.Contains(l, "-") {
			return nil
		}
		b := l
		switch {
		case strings.HasSuffix(l, "e"):
			b = l[:len(l)-1]
		case consonantY(l):
			b = l[:len(l)-1] + "i"
		case cvc(l):
			b = l + l[len(l)-1:]
		}
		return []string{b + "er", b + "est"}
	}
	return nil
}

func plural(l string) string {
	switch {
	case strings.HasSuffix(l, "s"), strings.HasSuffix(l, "x"), strings.HasSuffix(l, "z"),
		strings.HasSuffix(l, "ch"), strings.HasSuffix(l, "sh"):
		return l + "es"
	case consonantY(l):
		return l[:len(l)-1] + "ies"
	}
	return l + "s"
}

func isVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }

func consonantY(l string) bool {
	n := len(l)
	return n >= 2 && l[n-1] == 'y' && !isVowel(l[n-2])
}

// cvc reports whether l ends consonant-vowel-consonant, the shape that
// doubles its last letter before -ed and -ing.
func cvc(l string) bool {
	n := len(l)
	if n < 3 {
		return false
	}
	a, b, c := l[n-3], l[n-2], l[n-1]
	return !isVowel(a) && isVowel(b) && !isVowel(c) && strings.IndexByte("wxy-", c) < 0 && a != '-'
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] && n < 255 {
		n++
	}
	return n
}

func putUvarint(b *bytes.Buffer, v uint64) {
	var tmp [binary.MaxVarintLen64]byte
	b.Write(tmp[:binary.PutUvarint(tmp[:], v)])
}

func putVarint(b *bytes.Buffer, v int64) {
	var tmp [binary.MaxVarintLen64]byte
	b.Write(tmp[:binary.PutVarint(tmp[:], v)])
}
