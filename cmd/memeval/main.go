// Command memeval measures how well each memory keeps what matters at each
// token budget, and how fast.
//
//	memeval [-data FILE] [-memories rd,bm25,…] [-budgets 512,1024,2048,4096] [-off context,…] [-json] [-chart FILE.png]
//	memeval -long [-data FILE] …
//	memeval -updates [-data FILE] [-seed N] [-samples N] [-factmiss N] …
//	memeval gen [-seed N] [-samples N] [-noise 0.5] [-paraphrase P] [-o FILE]
//
// With no arguments it generates the default synthetic set, runs every
// memory and prints a table, offline; -chart also draws it. -data replays
// real conversations in LoCoMo's format, the measure that counts; -off
// switches parts of relevance off for an ablation.
//
// -long joins the conversations into one and asks all their questions at
// the end (eval.LongHorizon). -updates replays a generated set of facts
// that change (package updates; -seed and -samples shape it, and -data, if
// given, supplies its filler dialogue) and reports current-value recall
// and how often a superseded statement is shown without its date
// (eval.Updates), for the backends reading the text alone and reading
// facts with the set's answer key (rd-facts, dmem-facts; -factmiss N
// leaves every N-th statement unread). Each has its own default memories.
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/engram-go/engram/cmd/memeval/dataset"
	"github.com/engram-go/engram/cmd/memeval/eval"
	"github.com/engram-go/engram/cmd/memeval/updates"
	"github.com/engram-go/engram/internal/atomicfile"
	"github.com/engram-go/engram/internal/relevance"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	if code := exitCode(err); code != 0 {
		fmt.Fprintln(os.Stderr, "memeval:", err)
		os.Exit(code)
	}
}

// exitCode is 0 for success and for -h, which asked for the usage and got
// it, and 1 for any other error.
func exitCode(err error) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 1
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "gen" {
		return gen(args[1:], stdout)
	}
	fs := flag.NewFlagSet("memeval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: memeval [flags]        evaluate the memories (flags below)")
		fmt.Fprintln(fs.Output(), "       memeval gen [-h] ...   write a generated set in LoCoMo's format")
		fs.PrintDefaults()
	}
	data := fs.String("data", "", "LoCoMo-format JSON to read (default: generate the synthetic set)")
	seed := fs.Uint64("seed", dataset.DefaultGenConfig().Seed, "seed of the generated set")
	samples := fs.Int("samples", 5, "conversations to generate")
	paraphrase := fs.Float64("paraphrase", dataset.DefaultGenConfig().Paraphrase, "share of generated questions worded away from their evidence; 1 is the hard set")
	memories := fs.String("memories", "all", "comma-separated memories to run: "+names(eval.Known())+
		"; with -updates also rd-facts and dmem-facts")
	budgets := fs.String("budgets", "512,1024,2048,4096", "comma-separated token budgets")
	asJSON := fs.Bool("json", false, "print results as JSON instead of a table")
	chart := fs.String("chart", "", "PNG chart to write (e.g. docs/memeval.png); empty for none")
	offList := fs.String("off", "", "comma-separated relevance components to switch off, for an ablation: "+relevance.ComponentNames())
	long := fs.Bool("long", false, "join the conversations into one and ask all questions at the end (default memories "+eval.LongHorizonMemories+")")
	dated := fs.Bool("dated", false, "give the memories each session's date as its turns are saved (the save-then-ask protocol gives none; -updates always does)")
	upd := fs.Bool("updates", false, "replay the generated set of facts that change, -data as its filler (default memories "+eval.UpdateMemories+")")
	feedback := fs.String("feedback", "", "replay in-stream, each answer rated by a user: none, reward, positive, sparse, noisy, a comma-separated list, or all")
	first := fs.Int("first", 0, "with -data: replay only the file's first N conversations, 0 for all (the README's figures are the first 5 of LoCoMo's locomo10.json)")
	factMiss := fs.Int("factmiss", 0, "with -updates: the answer key of rd-facts and dmem-facts leaves every N-th statement unread (0: reads all)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags come first; the only subcommand is gen)", fs.Arg(0))
	}
	set := make(map[string]bool)
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *first < 0 || *first > 0 && *data == "" {
		return fmt.Errorf("-first %d: want a count of 0 or more, with -data", *first)
	}
	firstOf := func(ss []dataset.Sample) []dataset.Sample {
		if *first > 0 && len(ss) > *first {
			return ss[:*first]
		}
		return ss
	}
	if *long && *upd {
		return errors.New("-long and -updates are two evaluations: pick one")
	}
	if *feedback != "" && (*long || *upd) {
		return errors.New("-feedback is an evaluation of its own: not with -long or -updates")
	}
	if *feedback != "" && *chart != "" {
		return errors.New("-chart draws evidence recall, which -feedback does not measure")
	}
	if *upd && *chart != "" {
		return errors.New("-chart draws evidence recall, which -updates does not measure")
	}
	if set["factmiss"] && !*upd {
		return errors.New("-factmiss applies to -updates' answer key, and there is no -updates")
	}
	if *dated && (*feedback != "" || *upd) {
		return errors.New("-dated gives the save-then-ask replay session dates: -feedback and -updates do not take it (-updates always dates)")
	}
	if !set["memories"] {
		switch {
		case *long:
			*memories = eval.LongHorizonMemories
		case *upd:
			*memories = eval.UpdateMemories
		}
	}
	var ss []dataset.Sample
	var err error
	if *upd {
		if *data != "" {
			if ss, err = dataset.ReadFile(*data); err != nil {
				return err
			}
			ss = firstOf(ss)
		}
		seedU, n := updates.DefaultConfig().Seed, updates.DefaultConfig().Conversations
		if set["seed"] {
			seedU = *seed
		}
		if set["samples"] {
			n = *samples
		}
		us, err := eval.UpdateSet(seedU, n, ss)
		if err != nil {
			return err
		}
		if *factMiss < 0 {
			return fmt.Errorf("-factmiss %d: want 0 or more", *factMiss)
		}
		return runUpdates(us, *factMiss, *memories, *budgets, *offList, *asJSON, stdout, stderr)
	}
	if *data != "" {
		var generated []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "seed" || f.Name == "samples" || f.Name == "paraphrase" {
				generated = append(generated, "-"+f.Name)
			}
		})
		if len(generated) > 0 {
			return fmt.Errorf("%s apply to the generated set, not to -data %s", strings.Join(generated, ", "), *data)
		}
		ss, err = dataset.ReadFile(*data)
		ss = firstOf(ss)
	} else {
		cfg := dataset.DefaultGenConfig()
		cfg.Seed, cfg.Samples, cfg.Paraphrase = *seed, *samples, *paraphrase
		ss, err = dataset.Generate(cfg)
	}
	if err != nil {
		return err
	}
	if len(ss) == 0 {
		return fmt.Errorf("no conversations to replay in %s", cmp.Or(*data, "the generated set"))
	}
	if *feedback != "" {
		if !set["memories"] {
			*memories = eval.FeedbackMemories
		}
		return runFeedback(ss, *feedback, *memories, *budgets, *offList, *asJSON, stdout, stderr)
	}
	ms, bs, ctx, err := setup(eval.Known(), *memories, *budgets, *offList)
	if err != nil {
		return err
	}
	// A chart's path that cannot be written fails at once, before the run;
	// the file is replaced only when the chart is whole, so that a run cut
	// short leaves an earlier chart as it was.
	if *chart != "" {
		if err := writable(*chart); err != nil {
			return err
		}
	}
	cfg := eval.Config{Budgets: bs, Memories: ms, Dated: *dated}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		bar := progressbar.NewOptions(len(ss)*len(ms)*len(bs), progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription("replaying"), progressbar.OptionClearOnFinish())
		cfg.Progress = func(done, _ int) { bar.Set(done) }
	}
	evaluate := eval.Run
	if *long {
		evaluate = eval.LongHorizon
	}
	start := time.Now()
	rs, err := quietly(stderr, func() ([]eval.Result, error) { return evaluate(ctx, ss, cfg) })
	if err != nil {
		return err
	}
	if *asJSON {
		if err := printJSON(stdout, rs); err != nil {
			return err
		}
	} else {
		questions := 0
		if len(rs) > 0 {
			questions = rs[0].Questions
		}
		if *long {
			fmt.Fprintf(stdout, "%s joined into one, %d scored questions, %s\n", count(len(ss), "conversation"), questions, time.Since(start).Round(time.Second))
		} else {
			fmt.Fprintf(stdout, "%s, %d scored questions\n", count(len(ss), "conversation"), questions)
		}
		if err := eval.WriteTable(stdout, rs); err != nil {
			return err
		}
	}
	if len(rs) > 0 && rs[0].Questions == 0 {
		return errNothingScored(*data)
	}
	if *chart == "" {
		return nil
	}
	if err := atomicfile.Write(*chart, func(w io.Writer) error {
		return eval.WriteChart(w, rs, "evidence recall, "+count(len(ss), "conversation"))
	}); err != nil {
		return err
	}
	if !*asJSON {
		fmt.Fprintln(stdout, "chart:", *chart)
	}
	return nil
}

// setup selects the memories and parses the budgets; the context it
// returns switches off the relevance components listed, for the loads the
// evaluation makes with it (relevance.WithOff).
func setup(known []eval.Memory, memories, budgets, offList string) (ms []eval.Memory, bs []int, ctx context.Context, err error) {
	if ms, err = eval.Select(known, memories); err != nil {
		return nil, nil, nil, err
	}
	if bs, err = parseInts(budgets); err != nil {
		return nil, nil, nil, err
	}
	var off relevance.Component
	if offList != "" {
		for _, n := range strings.Split(offList, ",") {
			c, err := relevance.ParseComponent(n)
			if err != nil {
				return nil, nil, nil, err
			}
			off |= c
		}
	}
	return ms, bs, relevance.WithOff(context.Background(), off), nil
}

func runUpdates(us []updates.Sample, factMiss int, memories, budgets, offList string, asJSON bool, stdout, stderr io.Writer) error {
	ms, bs, ctx, err := setup(append(eval.Known(), eval.FactMemories(us, factMiss)...), memories, budgets, offList)
	if err != nil {
		return err
	}
	start := time.Now()
	rs, err := quietly(stderr, func() ([]eval.UpdateResult, error) {
		return eval.Updates(ctx, us, eval.Config{Budgets: bs, Memories: ms})
	})
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(stdout, rs)
	}
	if len(rs) > 0 {
		fmt.Fprintf(stdout, "%s of facts that change, %d single-hop and %d multi-hop questions, %s\n",
			count(len(us), "conversation"), rs[0].SingleHopN, rs[0].MultiHopN, time.Since(start).Round(time.Second))
	}
	return eval.WriteUpdateTable(stdout, rs)
}

func runFeedback(ss []dataset.Sample, ratings, memories, budgets, offList string, asJSON bool, stdout, stderr io.Writer) error {
	var rs []eval.Rating
	if ratings == "all" {
		rs = eval.Ratings()
	} else {
		for _, n := range strings.Split(ratings, ",") {
			r, err := eval.ParseRating(strings.TrimSpace(n))
			if err != nil {
				return err
			}
			rs = append(rs, r)
		}
	}
	ms, bs, ctx, err := setup(eval.Known(), memories, budgets, offList)
	if err != nil {
		return err
	}
	start := time.Now()
	res, err := quietly(stderr, func() ([]eval.FeedbackResult, error) {
		return eval.Feedback(ctx, ss, eval.Config{Budgets: bs, Memories: ms}, rs)
	})
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(stdout, res)
	}
	if len(res) > 0 {
		fmt.Fprintf(stdout, "%s, %d questions asked in-stream (%d repeats) and again at the end, %s\n",
			count(len(ss), "conversation"), res[0].Questions, res[0].RepeatN, time.Since(start).Round(time.Second))
	}
	if err := eval.WriteFeedbackTable(stdout, res); err != nil {
		return err
	}
	if len(res) > 0 && res[0].Questions == 0 {
		return errNothingScored("")
	}
	return nil
}

// errNothingScored is the error of a run that scored no question: every
// question was adversarial (category 5), or its evidence named no turn of
// its conversation. Its figures would read as a recall of 0.
func errNothingScored(data string) error {
	return fmt.Errorf("no question of %s could be scored: each is adversarial or its evidence names no turn of its conversation", cmp.Or(data, "the set"))
}

// writable reports why a chart could not be written at path: a directory,
// or a folder that does not exist.
func writable(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("-chart %s is a directory", path)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return fmt.Errorf("-chart %s: its folder %s does not exist", path, filepath.Dir(path))
	}
	return nil
}

// quietly runs an evaluation with the standard logger silenced, then
// pointed at stderr: langchaingo's token buffer logs a warning on every
// count it makes.
func quietly[T any](stderr io.Writer, run func() (T, error)) (T, error) {
	log.SetOutput(io.Discard)
	defer log.SetOutput(stderr)
	return run()
}

// printJSON writes v as indented JSON.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func gen(args []string, stdout io.Writer) error {
	def := dataset.DefaultGenConfig()
	fs := flag.NewFlagSet("memeval gen", flag.ContinueOnError)
	seed := fs.Uint64("seed", def.Seed, "random seed")
	samples := fs.Int("samples", def.Samples, "conversations")
	sessions := fs.Int("sessions", def.Sessions, "sessions per conversation")
	turns := fs.Int("turns", def.TurnsPerSession, "mean turns per session")
	noise := fs.Float64("noise", def.NoiseRatio, "share of turns that are noise, in [0, 0.95]")
	paraphrase := fs.Float64("paraphrase", def.Paraphrase, "share of questions worded away from their evidence, in [0, 1]; 1 is the hard set")
	questions := fs.Int("questions", def.QuestionsPerSample, "questions per conversation")
	out := fs.String("o", "", "file to write (default: standard output)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("gen: unexpected argument %q", fs.Arg(0))
	}
	cfg := dataset.GenConfig{Seed: *seed, Samples: *samples, Sessions: *sessions, TurnsPerSession: *turns, NoiseRatio: *noise, Paraphrase: *paraphrase, QuestionsPerSample: *questions}
	ss, err := dataset.Generate(cfg)
	if err != nil {
		return err
	}
	if *out == "" {
		return dataset.Write(stdout, ss)
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	return errors.Join(dataset.Write(f, ss), f.Close())
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("bad budget %q: want positive integers separated by commas", p)
		}
		out = append(out, n)
	}
	return out, nil
}

func names(ms []eval.Memory) string {
	var ns []string
	for _, m := range ms {
		ns = append(ns, m.Name)
	}
	return strings.Join(ns, ",")
}

// count returns n and the noun, plural unless n is 1: "1 conversation".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
