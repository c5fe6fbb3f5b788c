// Command footprint reports the memory of a process that uses both
// backends with their default options: a ratedistortion.Buffer and an
// in-memory dmem.Memory each save a few turns and answer one load. It
// prints, one "name value" line each, the resident set (VmRSS, VmHWM, from
// /proc/self/status, in kB) and the Go heap (runtime.MemStats, in bytes),
// at start and after the first load. TestResidentMemory runs it and holds
// the resident set after the load to 40 MB.
//
//	go run ./testdata/footprint [-heapprofile FILE]
//	go tool pprof -sample_index=inuse_space -top FILE
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"

	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/ratedistortion"
)

var turns = [][2]string{
	{"My sister Priya moved to Lisbon last spring.", "Lisbon is lovely; does she like it?"},
	{"She loves it, and she adopted a beagle called Biscuit.", "A beagle! They are great with kids."},
	{"I bake sourdough to unwind after work.", "Sourdough takes patience; how long have you baked?"},
	{"About two years, since the pandemic.", "Two years makes a practised baker."},
}

func main() {
	heapProfile := flag.String("heapprofile", "", "write a heap profile after the load to `file`")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("footprint: ")
	report("start")

	ctx := context.Background()
	rd, err := ratedistortion.New()
	if err != nil {
		log.Fatal(err)
	}
	dm, err := dmem.New(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer dm.Close()
	for _, t := range turns {
		in, out := map[string]any{"input": t[0]}, map[string]any{"output": t[1]}
		if err := rd.SaveContext(ctx, in, out); err != nil {
			log.Fatal(err)
		}
		if err := dm.SaveContext(ctx, in, out); err != nil {
			log.Fatal(err)
		}
	}
	q := map[string]any{"input": "Where does Priya live now?"}
	if _, err := rd.LoadMemoryVariables(ctx, q); err != nil {
		log.Fatal(err)
	}
	if _, err := dm.LoadMemoryVariables(ctx, q); err != nil {
		log.Fatal(err)
	}
	report("load")

	if *heapProfile != "" {
		runtime.GC() // a profile shows the heap as of the last collection
		f, err := os.Create(*heapProfile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
			log.Fatal(err)
		}
		if err := f.Close(); err != nil {
			log.Fatal(err)
		}
	}
}

// report prints the resident set and the heap at one stage, without
// collecting garbage first: the figures are what the process holds.
func report(stage string) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, v, ok := strings.Cut(sc.Text(), ":")
		if ok && (name == "VmRSS" || name == "VmHWM" || name == "RssAnon" || name == "RssFile") {
			fmt.Printf("%s.%s %s\n", stage, name, strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	for _, m := range []struct {
		name  string
		bytes uint64
	}{
		{"HeapAlloc", ms.HeapAlloc},
		{"HeapInuse", ms.HeapInuse},
		{"HeapSys", ms.HeapSys},
		{"HeapReleased", ms.HeapReleased},
		{"Sys", ms.Sys},
	} {
		fmt.Printf("%s.%s %d\n", stage, m.name, m.bytes)
	}
}
