package lexicon

import (
	"math/bits"
	"testing"

	"github.com/engram-go/engram/internal/text"
)

func TestKinds(t *testing.T) {
	for _, tc := range []struct {
		word      string
		want, not Kind // want ⊆ Kinds, not ∩ Kinds = ∅
	}{
		{word: "pharmacist", want: KindPerson},
		{word: "nurse", want: KindPerson},
		{word: "designer", want: KindPerson},
		{word: "analyst", want: KindPerson},
		{word: "veterinarian", want: KindPerson},
		{word: "beagle", want: KindAnimal}, // and noun.act: "beagling" has the same stem
		{word: "puppy", want: KindAnimal, not: KindPerson},
		{word: "dog", want: KindAnimal, not: KindPerson}, // a doge, by stem, weighs too little
		{word: "cat", want: KindAnimal, not: KindPerson}, // so does a guy
		{word: "boston", want: KindLocation},             // instances have their own class
		{word: "vienna", want: KindLocation},
		{word: "city", want: KindLocation},
		{word: "photography", want: KindAct},
		{word: "woodworking", want: KindAct},
		{word: "hiking", want: KindAct},
		// "baking" stems to "bak", where the verb "bake" outweighs the
		// noun.act "baking", a lemma that is also one of its forms.
		{word: "baking", want: KindVerbChange, not: KindAct},
		{word: "pizza", want: KindFood},
		// WordNet's sourdough is a leaven (and an old-timer), not a bread.
		{word: "sourdough", want: KindSubstance, not: KindFood},
		{word: "car", want: KindArtifact},
		{word: "truck", want: KindArtifact},
		{word: "camera", want: KindArtifact},
		// WordNet 3.0 knows only the Japanese city.
		{word: "toyota", want: KindLocation, not: KindArtifact | KindGroup},
		{word: "apple", want: KindFood | KindPlant},
	} {
		t.Run(tc.word, func(t *testing.T) {
			k := Kinds(text.Stem(tc.word))
			if k&tc.want != tc.want || k&tc.not != 0 {
				t.Errorf("Kinds(%q) = %v, want %v and not %v", text.Stem(tc.word), k, tc.want, tc.not)
			}
		})
	}
	for _, s := range []string{"", "xyzzyq", "Dog", "dog cat", "3.5"} {
		if k := Kinds(s); k != 0 {
			t.Errorf("Kinds(%q) = %v, want 0", s, k)
		}
	}
}

// TestKindBits pins the constants to WordNet's file numbers.
func TestKindBits(t *testing.T) {
	for _, tc := range []struct {
		k    Kind
		file int
		name string
	}{
		{KindAdj, 0, "adj.all"},
		{KindTops, 3, "noun.Tops"},
		{KindAct, 4, "noun.act"},
		{KindLocation, 15, "noun.location"},
		{KindPerson, 18, "noun.person"},
		{KindTime, 28, "noun.time"},
		{KindVerbBody, 29, "verb.body"},
		{KindVerbWeather, 43, "verb.weather"},
		{KindParticiple, 44, "adj.ppl"},
	} {
		if tc.k != 1<<tc.file || tc.k.String() != tc.name {
			t.Errorf("%v = %#x, want %s = 1<<%d", tc.k, uint64(tc.k), tc.name, tc.file)
		}
	}
	if len(lexnames) != 45 {
		t.Errorf("%d lexnames, want 45", len(lexnames))
	}
	if KindNoun&KindVerb != 0 || bits.OnesCount64(uint64(KindNoun)) != 26 || bits.OnesCount64(uint64(KindVerb)) != 15 ||
		KindNoun&KindTime == 0 || KindVerb&KindVerbBody == 0 || (KindNoun|KindVerb)&(KindAdverb|KindParticiple) != 0 {
		t.Errorf("KindNoun = %v, KindVerb = %v", KindNoun, KindVerb)
	}
	for k, want := range map[Kind]string{
		0:                        "",
		KindAnimal | KindPerson:  "noun.animal|noun.person",
		KindParticiple | 1<<50:   "adj.ppl|file50",
		KindVerbMotion | KindAct: "noun.act|verb.motion",
	} {
		if s := k.String(); s != want {
			t.Errorf("Kind(%#x).String() = %q, want %q", uint64(k), s, want)
		}
	}
}

func TestKindsAllocs(t *testing.T) {
	Kinds("dog")
	if n := testing.AllocsPerRun(100, func() { Kinds("dog") }); n != 0 {
		t.Errorf("Kinds allocates %v times", n)
	}
}

func BenchmarkKinds(b *testing.B) {
	stems := []string{"dog", "father", "bak", "children", "xyzzyq", "automobil"}
	Kinds("dog")
	i := 0
	for b.Loop() {
		Kinds(stems[i%len(stems)])
		i++
	}
}
