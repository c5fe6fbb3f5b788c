package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
)

func main() {
	dir := flag.String("wordnet", "/usr/share/wordnet", "WordNet dictionary `directory`")
	out := flag.String("o", "table.bin.gz", "output `file`")
	verbose := flag.Bool("v", false, "print table statistics")
	names := flag.String("names", "", "also write each concept id and its synset's words to `file`, for debugging")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("gen: ")

	wn, err := Load(*dir)
	if err != nil {
		log.Fatal(err)
	}
	b, err := Build(wn)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, b.Bytes, 0o644); err != nil {
		log.Fatal(err)
	}
	if *names != "" {
		var sb strings.Builder
		for i, s := range wn.Synsets {
			fmt.Fprintf(&sb, "%d\t%c\t%s\n", i, s.Pos, strings.Join(s.Words, ","))
		}
		if err := os.WriteFile(*names, []byte(sb.String()), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	if *verbose {
		fmt.Fprintf(os.Stderr, "synsets %d, stems %d, raw %d bytes, gzip %d bytes\n",
			b.Synsets, b.Stems, b.Raw, len(b.Bytes))
	}
}
