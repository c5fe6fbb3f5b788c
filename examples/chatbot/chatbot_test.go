package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// facts are what testdata/facts.txt states in its first lines and asks
// about in its last, after twelve lines of small talk.
var facts = []struct{ question, fact string }{
	{"Where does my sister live?", "Lisbon"},
	{"What is the wifi password?", "kiwi-7731"},
	{"When does my flight to Oslo leave?", "March 14"},
	{"When is my dentist appointment?", "Friday"},
}

// chat runs the chatbot on stdin and returns what it printed.
func chat(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	var out strings.Builder
	if err := run(context.Background(), args, strings.NewReader(stdin), &out); err != nil {
		t.Fatalf("run %v: %v\n%s", args, err, out.String())
	}
	return out.String()
}

// answers maps each line the chatbot was given to its reply.
func answers(out string) map[string]string {
	as := map[string]string{}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if q, ok := strings.CutPrefix(l, "> "); ok && i+1 < len(lines) {
			as[q] = lines[i+1]
		}
	}
	return as
}

// TestRecallAtSmallBudget is the chatbot's acceptance test: at a budget of
// 60 tokens, D-MEM and the rate-distortion buffer answer all four questions
// about facts stated twelve exchanges earlier; langchaingo's window and
// token buffers, which keep the most recent turns, answer none.
func TestRecallAtSmallBudget(t *testing.T) {
	const budget = "60"
	script := filepath.Join("testdata", "facts.txt")
	for _, tt := range []struct {
		memory string
		recall bool
	}{
		{"dmem", true},
		{"rd", true},
		{"window", false},
		{"token", false},
	} {
		t.Run(tt.memory, func(t *testing.T) {
			out := chat(t, "", "-memory", tt.memory, "-budget", budget, "-script", script)
			as := answers(out)
			recalled := 0
			for _, f := range facts {
				a, ok := as[f.question]
				if !ok {
					t.Fatalf("no answer to %q in:\n%s", f.question, out)
				}
				if strings.Contains(a, f.fact) {
					recalled++
				} else if a != dontKnow {
					t.Errorf("%q: answered %q, neither the fact nor %q", f.question, a, dontKnow)
				}
				t.Logf("%-36s %s", f.question, a)
			}
			if want := map[bool]int{true: len(facts), false: 0}[tt.recall]; recalled != want {
				t.Errorf("-memory %s -budget %s recalled %d of %d facts, want %d", tt.memory, budget, recalled, len(facts), want)
			}
		})
	}
}

// reworded are scripts of five facts, 120 lines of small talk, then five
// questions worded away from the facts they ask about, and what each right
// answer holds. All but paraphrase.txt were written without looking at the
// memories' answers: pets.txt to teacher.txt by someone who had not seen
// the others, with small talk that shares a word with a question ("We
// walked past a puppy training class" before "What breed is my puppy?"),
// and pharmacy.txt, postcards.txt and violin.txt before the stand-in
// learnt to prefer lines that hold what a question asks for, to check
// that it helps on scripts it was not tuned on.
var reworded = []struct {
	script string
	qs     []struct{ question, fact string }
	// all: both engram memories keep every fact within the default budget,
	// so the chatbot must answer all five.
	all bool
}{
	{"paraphrase.txt", []struct{ question, fact string }{
		{"Who is my physician?", "Dr Patel"},
		{"What sport does my boy do?", "football"},
		{"What do I drive?", "Toyota Corolla"},
		{"Which instrument am I studying?", "cello"},
		{"Who am I married to?", "Tom"},
	}, true},
	{"living.txt", []struct{ question, fact string }{
		{"What do I do for a living?", "marine biologist"},
		{"Which food must my girl avoid?", "peanuts"},
		{"What is our pet called?", "Pixel"},
		{"In which city does mum reside?", "Porto"},
		{"When is my trip to Kenya?", "ninth of June"},
	}, false},
	{"origins.txt", []struct{ question, fact string }{
		{"Which shade do I like best?", "emerald"},
		{"Where is my hometown?", "Montreal"},
		{"What subject does my sibling teach?", "chemistry"},
		{"What number disarms the store's security system?", "9052"},
		{"What is my spouse's profession?", "nurse"},
	}, false},
	{"errands.txt", []struct{ question, fact string }{
		{"What do I do for a living?", "marine biologist"},
		{"How old will granny be?", "ninety"},
		{"Who owns the flat we rent?", "Okafor"},
		{"Where is the extra key for the house?", "flowerpot"},
		{"Which blood group am I?", "O negative"},
	}, false},
	{"pets.txt", []struct{ question, fact string }{
		{"What breed is my puppy?", "beagle"},
		{"What does my sibling do for work?", "electrician"},
		{"When did we get married?", "3rd of October"},
		{"Where are my backup spectacles?", "blue drawer"},
		{"Which ingredient must I stay away from?", "gluten"},
	}, false},
	{"career.txt", []struct{ question, fact string }{
		{"What's my profession?", "accountant"},
		{"Which Japanese city am I off to?", "Kyoto"},
		{"What combination opens my bicycle padlock?", "4817"},
		{"Where does my grandpa come from?", "Galway"},
		{"How far do I jog?", "five kilometres"},
	}, false},
	{"health.txt", []struct{ question, fact string }{
		{"Which antibiotic can't I have?", "penicillin"},
		{"Who is my counsellor?", "Huang"},
		{"When do I take my medication?", "seven"},
		{"How old will my brother's daughter be?", "twelve"},
		{"Where is our rainy-day money?", "biscuit tin"},
	}, false},
	{"hobbies.txt", []struct{ question, fact string }{
		{"What sort of antiques do I hoard?", "fountain pens"},
		{"Which group do I love listening to?", "Radiohead"},
		{"Where do we holiday each year?", "Bergen"},
		{"What's my other half's occupation?", "firefighter"},
		{"What's the PIN for the car shed?", "2290"},
	}, false},
	{"numbers.txt", []struct{ question, fact string }{
		{"What are the last digits of my travel document?", "5531"},
		{"When is my birthday?", "22nd of February"},
		{"Which storey do we live on?", "fourth"},
		{"Who do we lease our home from?", "Ferreira"},
		{"How much does our apartment cost each month?", "950"},
	}, false},
	{"school.txt", []struct{ question, fact string }{
		{"Where does my boy study?", "Hillcrest"},
		{"What is my spouse called?", "Priya"},
		{"What kind of vehicle do I own?", "Volvo"},
		{"What dish do I enjoy most?", "green curry"},
		{"Which race am I preparing for?", "Berlin"},
	}, false},
	{"teacher.txt", []struct{ question, fact string }{
		{"What subject do I give lessons in?", "history"},
		{"Where does my closest pal live now?", "Vancouver"},
		{"What's the code for the internet at work?", "tulip-4420"},
		{"What am I afraid of?", "spiders"},
		{"When is my husband's mum coming?", "14th of May"},
	}, false},
	{"pharmacy.txt", []struct{ question, fact string }{
		{"What's my line of work?", "pharmacist"},
		{"How old are the kids going to be?", "seven"},
		{"Where did I leave the vehicle?", "level three"},
		{"What upsets my stomach?", "lactose"},
		{"How do I reach the owner of my flat?", "0755"},
	}, false},
	{"postcards.txt", []struct{ question, fact string }{
		{"When does my travel document run out?", "November 2027"},
		{"When do I work out?", "Wednesday"},
		{"Which city is my closest mate in?", "Melbourne"},
		{"What do I gather as a hobby?", "postcards"},
		{"How does my cousin earn money?", "cargo airline"},
	}, false},
	{"violin.txt", []struct{ question, fact string }{
		{"Where can I restart the heating?", "hallway cupboard"},
		{"What does my child play?", "violin"},
		{"When did we wed?", "second of July"},
		{"Whose novels do I like most?", "Le Guin"},
		{"Which insect could hurt me badly?", "bee stings"},
	}, false},
}

// TestParaphrasedRecall replays each reworded script at the default budget
// on both engram memories. Every answer quotes a line the memory kept and
// names the unit and the memory's rank of it, or says the memory returned
// nothing relevant. On paraphrase.txt both memories keep every fact and the
// chatbot answers all five. On the others they do not: a fact shares no
// word with its question, and small talk that shares one ("How far do I
// jog?" and "I made a curry that was far too spicy.") outranks it by BM25,
// 0.7 of relevance, so the fact is mostly not kept within 120 tokens (of
// the 65 questions of the other scripts, rd keeps 36 facts and dmem 26),
// or kept below the small talk, where the stand-in prefers a line that
// holds a date, a number, a name or a place when the question asks
// "when", "how old", "who" or "where". Their recall is reported, not
// enforced, and the total over all the scripts is logged: a script's all
// turns true when both memories answer it whole.
func TestParaphrasedRecall(t *testing.T) {
	right := map[string]int{}
	asked := 0
	defer func() {
		t.Logf("all reworded scripts: rd %d, dmem %d of %d", right["rd"], right["dmem"], asked)
	}()
	for _, sc := range reworded {
		asked += len(sc.qs)
		for _, memory := range []string{"rd", "dmem"} {
			t.Run(sc.script+"/"+memory, func(t *testing.T) {
				as := answers(chat(t, "", "-memory", memory, "-script", filepath.Join("testdata", sc.script)))
				n := 0
				for _, q := range sc.qs {
					a := as[q.question]
					if a != dontKnow && !strings.Contains(a, "(memory unit u") {
						t.Errorf("%q: answered %q, which does not say which unit the memory kept", q.question, a)
					}
					if strings.Contains(a, q.fact) {
						n++
					} else if sc.all {
						t.Errorf("%q: answered %q, want %q", q.question, a, q.fact)
					} else {
						t.Logf("%q: answered %q, want %q", q.question, a, q.fact)
					}
				}
				right[memory] += n
				t.Logf("%s, -memory %s: %d of %d", sc.script, memory, n, len(sc.qs))
			})
		}
	}
}

// TestUnseenScripts replays the scripts of testdata/unseen, written by
// someone who had seen neither the chatbot nor its other scripts, in the
// format of the reworded ones: five facts, 120 lines of small talk (some
// of it sharing the questions' words on purpose), five questions worded
// away from the facts. answers.tsv gives each question a text its answer
// must hold. Recall is reported, not enforced: it measures how far the
// offline stand-in and a 120-token memory are from answering questions in
// other words than their facts.
func TestUnseenScripts(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "unseen", "answers.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{} // script: question: what its answer holds
	var scripts []string
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("answers.tsv: %q is not script, question, answer", line)
		}
		if want[f[0]] == nil {
			want[f[0]] = map[string]string{}
			scripts = append(scripts, f[0])
		}
		want[f[0]][f[1]] = f[2]
	}
	right, asked := map[string]int{}, 0
	for _, sc := range scripts {
		asked += len(want[sc])
		for _, memory := range []string{"rd", "dmem"} {
			as := answers(chat(t, "", "-memory", memory, "-script", filepath.Join("testdata", "unseen", sc)))
			if len(as) == 0 {
				t.Fatalf("%s, -memory %s: no answers", sc, memory)
			}
			for q, fact := range want[sc] {
				a, ok := as[q]
				if !ok {
					t.Errorf("%s: %q was not answered", sc, q)
				}
				if strings.Contains(strings.ToLower(a), strings.ToLower(fact)) {
					right[memory]++
				}
			}
		}
	}
	t.Logf("unseen scripts: rd %d, dmem %d of %d", right["rd"], right["dmem"], asked)
}

func TestCommands(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("testdata", "facts.txt"))
	if err != nil {
		t.Fatal(err)
	}
	in := string(script) + ":why\n:good that was right\n:bad\n:stats\n:nope\n:quit\nnot read\n"
	for _, tt := range []struct {
		memory string
		want   []string
	}{
		{"dmem", []string{`query "When is my dentist appointment?"`, "kept", "how the kept units came to be in memory", "Remember that my dentist appointment", "Sent a reward of +1", "Sent a reward of -1", "in core", "rewards: 2 sent with :good and :bad; the rewarder delivered 2 events"}},
		{"rd", []string{`query "When is my dentist appointment?"`, "kept", "dropped", "Sent a reward of +1", "units in the pool", "rewards: 2 sent with :good and :bad; the rewarder delivered 2 events"}},
		{"window", []string{"last 5 exchanges", "- Human: My sister Alice lives in Lisbon.", "does not learn from feedback", "returned 10 of the 40 messages saved"}},
		{"token", []string{"newest messages that fit 60 tokens", "- Human: The wifi password is kiwi-7731.", "does not learn from feedback"}},
	} {
		t.Run(tt.memory, func(t *testing.T) {
			out := chat(t, in, "-memory", tt.memory, "-budget", "60")
			for _, w := range append(tt.want, "Unknown command :nope") {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if strings.Contains(out, "not read") {
				t.Error(":quit did not stop the chat")
			}
		})
	}
}

// TestPathKeepsMemory runs the chatbot twice on one -path, for each engram
// memory: the second run recalls what the first was told (dmem keeps a
// directory; rd saves its buffer to a file after each exchange and when the
// chat ends, and restores it when the next starts).
func TestPathKeepsMemory(t *testing.T) {
	for _, tt := range []struct{ memory, path string }{
		{"dmem", t.TempDir()},
		{"rd", filepath.Join(t.TempDir(), "chat.rd")},
	} {
		t.Run(tt.memory, func(t *testing.T) {
			args := []string{"-memory", tt.memory, "-path", tt.path, "-budget", "60"}
			chat(t, "My sister Alice lives in Lisbon.\nI had pasta for lunch today.\n", args...)
			out := chat(t, "Where does my sister live?\n", args...)
			if a := answers(out)["Where does my sister live?"]; !strings.Contains(a, "Lisbon") {
				t.Errorf("second run answered %q, want Lisbon recalled", a)
			}
		})
	}
}

// TestBadPathRefusedAtStart: a -path the memory cannot be kept at is
// refused before the chat starts, so that no conversation is lost when it
// ends; a path in a directory not made yet is made.
func TestBadPathRefusedAtStart(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, memory := range []string{"rd", "dmem"} {
		var out strings.Builder
		err := run(context.Background(), []string{"-memory", memory, "-path", filepath.Join(file, "under", "it")}, strings.NewReader("My name is Ada.\n"), &out)
		if err == nil || strings.Contains(out.String(), "Noted.") {
			t.Errorf("-memory %s with a path under a file: err %v after %q, want an error before the chat", memory, err, out.String())
		}
	}
	nested := filepath.Join(dir, "new", "chat.rd")
	chat(t, "My name is Ada.\n", "-memory", "rd", "-path", nested)
	if _, err := os.Stat(nested); err != nil {
		t.Fatalf("the buffer was not kept in a new directory: %v", err)
	}
}

func TestDefaultsAreOffline(t *testing.T) {
	out := chat(t, "The wifi password is kiwi-7731.\nWhat is the wifi password?\n")
	for _, w := range []string{"memory dmem", "model local", "offline stand-in", `You told me: "The wifi password is kiwi-7731."`} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-memory", "lru"},
		{"-llm", "gpt"},
		{"-budget", "0"},
		{"-memory", "window", "-path", t.TempDir()},
		{"-memory", "rd", "-path", t.TempDir()}, // a directory is not a saved buffer
		{"-script", filepath.Join(t.TempDir(), "missing.txt")},
		{"extra"},
	} {
		var out strings.Builder
		if err := run(context.Background(), args, strings.NewReader(""), &out); err == nil {
			t.Errorf("run %v: no error", args)
		}
	}
}

// A chat on -memory rd -path that is cut short (Ctrl-C stops the program
// at once) keeps what it was told: the buffer is saved after each
// exchange, not only when the chat ends.
func TestRDPathKeepsEachExchange(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "chat.rd")
	c := config{memory: "rd", path: path, budget: 60, llm: "local"}
	llm, err := newModel(c)
	if err != nil {
		t.Fatal(err)
	}
	mem, err := newBackend(ctx, c, llm)
	if err != nil {
		t.Fatal(err)
	}
	// One exchange, and the memory is never closed.
	if err := mem.rec.SaveContext(ctx, map[string]any{"input": "My sister Alice lives in Lisbon."}, map[string]any{"text": "Noted."}); err != nil {
		t.Fatal(err)
	}
	out := chat(t, "Where does my sister live?\n", "-memory", "rd", "-path", path, "-budget", "60")
	if a := answers(out)["Where does my sister live?"]; !strings.Contains(a, "Lisbon") {
		t.Errorf("the next run answered %q, want Lisbon recalled", a)
	}
}
