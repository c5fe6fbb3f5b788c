package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// posOrder lists WordNet's parts of speech in the order their synsets are
// numbered: nouns, verbs, adjectives, adverbs.
var posOrder = [...]byte{'n', 'v', 'a', 'r'}

var posFile = map[byte]string{'n': "noun", 'v': "verb", 'a': "adj", 'r': "adv"}

// maxFile bounds lexicographer file numbers: package lexicon keeps a
// stem's files as bits of a uint64. WordNet 3.0 uses 0..44.
const maxFile = 64

// WordNet is the part of the dictionary the table is derived from.
type WordNet struct {
	Synsets []Synset
	// Index maps a part of speech and a lemma to its senses, most
	// frequent first, as index.pos lists them.
	Index map[byte]map[string][]int32
	// Count maps "lemma%pos%sense" to its tag count in the semantic
	// concordances (cntlist.rev).
	Count map[string]int
	// Exc maps a part of speech and an irregular form to its lemmas.
	Exc map[byte]map[string][]string

	synCount []int // tag counts of each synset, summed over its words
}

// Synset is one WordNet synset, its pointers resolved to dense ids.
type Synset struct {
	Pos   byte     // n, v, a (satellites included) or r
	Sat   bool     // an adjective satellite
	File  byte     // lexicographer file, 0..44: 18 is noun.person (lexnames(5WN))
	Words []string // lower-cased, in synset order
	// Hyper holds the hypernyms and instance hypernyms, and for an
	// adjective satellite its head.
	Hyper []int32
	// Lex holds derivationally related forms (+) and pertainyms (\).
	Lex []LexPtr
}

// LexPtr is a lexical pointer from word Src (0-based) of a synset.
type LexPtr struct {
	Src    int
	Target int32
}

type rawPtr struct {
	sym    string
	offset int
	pos    byte
	src    int
}

// Load reads the WordNet dictionary in dir.
func Load(dir string) (*WordNet, error) {
	wn := &WordNet{
		Index: map[byte]map[string][]int32{},
		Count: map[string]int{},
		Exc:   map[byte]map[string][]string{},
	}
	type key struct {
		pos    byte
		offset int
	}
	ids := map[key]int32{}
	var raws [][]rawPtr
	for _, pos := range posOrder {
		err := eachLine(filepath.Join(dir, "data."+posFile[pos]), func(line string) error {
			s, ptrs, offset, err := parseData(line, pos)
			if err != nil {
				return err
			}
			ids[key{pos, offset}] = int32(len(wn.Synsets))
			wn.Synsets = append(wn.Synsets, s)
			raws = append(raws, ptrs)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	for i, ptrs := range raws {
		s := &wn.Synsets[i]
		for _, p := range ptrs {
			t, ok := ids[key{p.pos, p.offset}]
			if !ok {
				return nil, fmt.Errorf("synset %d: dangling pointer %s %08d %c", i, p.sym, p.offset, p.pos)
			}
			switch {
			case p.sym == "@" || p.sym == "@i":
				s.Hyper = append(s.Hyper, t)
			case p.sym == "&" && s.Sat && p.pos == 'a':
				s.Hyper = append(s.Hyper, t)
			case (p.sym == "+" || p.sym == `\`) && p.src > 0:
				s.Lex = append(s.Lex, LexPtr{Src: p.src - 1, Target: t})
			}
		}
	}
	for _, pos := range posOrder {
		idx := map[string][]int32{}
		err := eachLine(filepath.Join(dir, "index."+posFile[pos]), func(line string) error {
			f := strings.Fields(line)
			if len(f) < 4 {
				return fmt.Errorf("short index line %q", line)
			}
			pcnt, err := strconv.Atoi(f[3])
			if err != nil {
				return err
			}
			offs := f[4+pcnt+2:]
			for _, o := range offs {
				n, err := strconv.Atoi(o)
				if err != nil {
					return err
				}
				t, ok := ids[key{pos, n}]
				if !ok {
					return fmt.Errorf("index %s: unknown synset %s", f[0], o)
				}
				idx[f[0]] = append(idx[f[0]], t)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		wn.Index[pos] = idx

		exc := map[string][]string{}
		err = eachLine(filepath.Join(dir, posFile[pos]+".exc"), func(line string) error {
			f := strings.Fields(line)
			if len(f) >= 2 {
				exc[f[0]] = append(exc[f[0]], f[1:]...)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		wn.Exc[pos] = exc
	}
	err := eachLine(filepath.Join(dir, "cntlist.rev"), func(line string) error {
		f := strings.Fields(line)
		if len(f) != 3 {
			return fmt.Errorf("bad cntlist line %q", line)
		}
		lemma, rest, ok := strings.Cut(f[0], "%")
		if !ok || rest == "" {
			return fmt.Errorf("bad sense key %q", f[0])
		}
		var pos byte
		switch rest[0] {
		case '1':
			pos = 'n'
		case '2':
			pos = 'v'
		case '3', '5':
			pos = 'a'
		case '4':
			pos = 'r'
		default:
			return fmt.Errorf("bad sense key %q", f[0])
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			return err
		}
		wn.Count[countKey(lemma, pos, f[1])] += n
		return nil
	})
	if err != nil {
		return nil, err
	}
	wn.synCount = make([]int, len(wn.Synsets))
	for _, pos := range posOrder {
		for l, ids := range wn.Index[pos] {
			for r, id := range ids {
				wn.synCount[id] += wn.SenseCount(l, pos, r+1)
			}
		}
	}
	return wn, nil
}

func countKey(lemma string, pos byte, sense string) string {
	return lemma + "%" + string(pos) + "%" + sense
}

// SenseCount returns the tag count of sense (1-based) of lemma.
func (wn *WordNet) SenseCount(lemma string, pos byte, sense int) int {
	return wn.Count[countKey(lemma, pos, strconv.Itoa(sense))]
}

func parseData(line string, pos byte) (Synset, []rawPtr, int, error) {
	bar := strings.Index(line, " | ")
	if bar >= 0 {
		line = line[:bar]
	}
	f := strings.Fields(line)
	if len(f) < 6 {
		return Synset{}, nil, 0, fmt.Errorf("short data line %q", line)
	}
	offset, err := strconv.Atoi(f[0])
	if err != nil {
		return Synset{}, nil, 0, err
	}
	file, err := strconv.ParseUint(f[1], 10, 8)
	if err != nil || file >= maxFile {
		return Synset{}, nil, 0, fmt.Errorf("bad lexicographer file %q", f[1])
	}
	s := Synset{Pos: pos, Sat: f[2] == "s", File: byte(file)}
	wcnt, err := strconv.ParseInt(f[3], 16, 32)
	if err != nil {
		return Synset{}, nil, 0, err
	}
	i := 4
	for range wcnt {
		w := strings.ToLower(f[i])
		if p := strings.IndexByte(w, '('); p > 0 { // adjective markers: (a), (p), (ip)
			w = w[:p]
		}
		s.Words = append(s.Words, w)
		i += 2
	}
	pcnt, err := strconv.Atoi(f[i])
	if err != nil {
		return Synset{}, nil, 0, err
	}
	i++
	ptrs := make([]rawPtr, 0, pcnt)
	for range pcnt {
		o, err := strconv.Atoi(f[i+1])
		if err != nil {
			return Synset{}, nil, 0, err
		}
		st, err := strconv.ParseUint(f[i+3], 16, 16)
		if err != nil {
			return Synset{}, nil, 0, err
		}
		p := f[i+2][0]
		if p == 's' {
			p = 'a'
		}
		ptrs = append(ptrs, rawPtr{sym: f[i], offset: o, pos: p, src: int(st >> 8)})
		i += 4
	}
	return s, ptrs, offset, nil
}

func eachLine(path string, fn func(string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "  ") { // licence header
			continue
		}
		if err := fn(line); err != nil {
			return fmt.Errorf("%s:%d: %w", filepath.Base(path), n, err)
		}
	}
	return sc.Err()
}
