package lexicon

import (
	"strconv"
	"strings"

	"github.com/engram-go/engram/internal/wire"
)

// Kind is a set of WordNet lexicographer classes ("lexnames", lexnames(5WN)):
// bit i is lexicographer file i, so KindPerson is noun.person, file 18.
// Every synset belongs to exactly one file; a word has the union of the
// files of its senses.
type Kind uint64

// The lexicographer classes, in file order.
const (
	KindAdj               Kind = 1 << iota // adj.all: all adjective clusters
	KindPertainym                          // adj.pert: relational adjectives ("musical")
	KindAdverb                             // adv.all: all adverbs
	KindTops                               // noun.Tops: unique beginner for nouns
	KindAct                                // noun.act: acts or actions
	KindAnimal                             // noun.animal: animals
	KindArtifact                           // noun.artifact: man-made objects
	KindAttribute                          // noun.attribute: attributes of people and objects
	KindBody                               // noun.body: body parts
	KindCognition                          // noun.cognition: cognitive processes and contents
	KindCommunication                      // noun.communication: communicative processes and contents
	KindEvent                              // noun.event: natural events
	KindFeeling                            // noun.feeling: feelings and emotions
	KindFood                               // noun.food: foods and drinks
	KindGroup                              // noun.group: groupings of people or objects
	KindLocation                           // noun.location: spatial position
	KindMotive                             // noun.motive: goals
	KindObject                             // noun.object: natural objects (not man-made)
	KindPerson                             // noun.person: people
	KindPhenomenon                         // noun.phenomenon: natural phenomena
	KindPlant                              // noun.plant: plants
	KindPossession                         // noun.possession: possession and transfer of possession
	KindProcess                            // noun.process: natural processes
	KindQuantity                           // noun.quantity: quantities and units of measure
	KindRelation                           // noun.relation: relations between people or things or ideas
	KindShape                              // noun.shape: two and three dimensional shapes
	KindState                              // noun.state: stable states of affairs
	KindSubstance                          // noun.substance: substances
	KindTime                               // noun.time: time and temporal relations
	KindVerbBody                           // verb.body: grooming, dressing and bodily care
	KindVerbChange                         // verb.change: size, temperature change, intensifying
	KindVerbCognition                      // verb.cognition: thinking, judging, analyzing, doubting
	KindVerbCommunication                  // verb.communication: telling, asking, ordering, singing
	KindVerbCompetition                    // verb.competition: fighting, athletic activities
	KindVerbConsumption                    // verb.consumption: eating and drinking
	KindVerbContact                        // verb.contact: touching, hitting, tying, digging
	KindVerbCreation                       // verb.creation: sewing, baking, painting, performing
	KindVerbEmotion                        // verb.emotion: feeling
	KindVerbMotion                         // verb.motion: walking, flying, swimming
	KindVerbPerception                     // verb.perception: seeing, hearing, feeling
	KindVerbPossession                     // verb.possession: buying, selling, owning
	KindVerbSocial                         // verb.social: political and social activities and events
	KindVerbStative                        // verb.stative: being, having, spatial relations
	KindVerbWeather                        // verb.weather: raining, snowing, thawing, thundering
	KindParticiple                         // adj.ppl: participial adjectives

	// KindNoun and KindVerb hold every noun and every verb class.
	KindNoun = KindTops<<26 - KindTops
	KindVerb = KindVerbBody<<15 - KindVerbBody
)

var lexnames = [...]string{
	"adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal",
	"noun.artifact", "noun.attribute", "noun.body", "noun.cognition",
	"noun.communication", "noun.event", "noun.feeling", "noun.food",
	"noun.group", "noun.location", "noun.motive", "noun.object", "noun.person",
	"noun.phenomenon", "noun.plant", "noun.possession", "noun.process",
	"noun.quantity", "noun.relation", "noun.shape", "noun.state",
	"noun.substance", "noun.time", "verb.body", "verb.change",
	"verb.cognition", "verb.communication", "verb.competition",
	"verb.consumption", "verb.contact", "verb.creation", "verb.emotion",
	"verb.motion", "verb.perception", "verb.possession", "verb.social",
	"verb.stative", "verb.weather", "adj.ppl",
}

// String returns the lexnames of k joined by "|", in file order, such as
// "noun.animal|noun.person", or "" for none.
func (k Kind) String() string {
	var b strings.Builder
	for i := 0; k != 0; i, k = i+1, k>>1 {
		if k&1 == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('|')
		}
		if i < len(lexnames) {
			b.WriteString(lexnames[i])
		} else {
			b.WriteString("file" + strconv.Itoa(i))
		}
	}
	return b.String()
}

// kindShare is the weight, relative to a stem's heaviest sense, below
// which a sense does not count towards its kinds. The generator keeps
// senses down to a fortieth of the first, which would make "dog" a person
// (a doge, by stem collision) and "cat" one too (a guy).
const kindShare = 0.25

// Kinds returns the lexicographer classes of the senses of stem that carry
// real weight, or 0 if the table does not know it: KindPerson for "nurs",
// KindAnimal but not KindPerson for "dog". The senses are those [Concepts]
// starts from, less any weighing under a quarter of the first; related
// forms and hypernyms do not count, and an instance has its own class
// ("boston" is KindLocation). A known stem has at least one kind. Like
// [Concepts] it takes stems, not words.
func Kinds(stem string) Kind {
	t := load()
	i, ok := t.index[stem]
	if !ok {
		return 0
	}
	var k Kind
	r := wire.Reader{B: t.raw[t.data[i]:]} // decode checked these bytes
	for n := r.Uvarint(); n > 0; n-- {
		id, w := r.Uvarint(), r.Byte() // w: 255 for the heaviest sense
		if float64(w) >= kindShare*255 {
			k |= 1 << t.file[id]
		}
	}
	return k
}
