package dataset

// Pools the generator draws from. Values that can be answers (names,
// cities, breeds, titles, prices) never occur in the noise vocabulary, so
// an answer token in a turn means the turn was written to state it.

var femaleNames = []string{
	"Dana", "Priya", "Maria", "Chloe", "Aisha", "Hannah", "Yuki", "Sofia", "Grace", "Leila",
	"Nadia", "Ingrid", "Tamsin", "Rosa", "Mei", "Olivia", "Fatima", "Clara", "Zoe", "Imani",
	"Beatriz", "Keiko", "Anika", "Lucia", "Harriet", "Esme", "Noor", "Freya", "Ruth", "Camila",
	"Joanna", "Talia", "Amara", "Sienna", "Vera", "Mira", "Paloma", "Greta", "Ayesha", "Wren",
}

var maleNames = []string{
	"Marcus", "Theo", "Rahul", "Diego", "Kenji", "Omar", "Felix", "Jonah", "Tariq", "Lukas",
	"Arjun", "Mateo", "Callum", "Idris", "Soren", "Emeka", "Hugo", "Rafael", "Ethan", "Nikolai",
	"Bashir", "Tomas", "Kwame", "Dmitri", "Wesley", "Anders", "Jamal", "Oscar", "Ravi", "Elliot",
	"Gideon", "Malik", "Pablo", "Henrik", "Declan", "Yusuf", "Caleb", "Ilya", "Marco", "Ronan",
}

var petNames = []string{
	"Biscuit", "Pickles", "Mochi", "Waffles", "Pepper", "Noodle", "Ziggy", "Clementine", "Bruno", "Luna",
	"Turnip", "Pretzel", "Juniper", "Gizmo", "Sprout", "Maple", "Dumpling", "Tofu", "Archie", "Olive",
	"Nacho", "Pumpkin", "Rocket", "Basil", "Cosmo", "Hazel", "Kiwi", "Marmalade", "Scout", "Toast",
}

var cities = []string{
	"Denver", "Austin", "Portland", "Chicago", "Seattle", "Boston", "Atlanta", "Minneapolis", "Phoenix", "Nashville",
	"Pittsburgh", "Sacramento", "Raleigh", "Tucson", "Milwaukee", "Baltimore", "Toronto", "Vancouver", "Dublin", "Lisbon",
	"Melbourne", "Edinburgh", "Barcelona", "Kyoto", "Montreal", "Copenhagen", "Oaxaca", "Reykjavik", "Prague", "Vienna",
	"Savannah", "Albuquerque", "Boise", "Omaha", "Halifax", "Madison", "Asheville", "Santa Fe", "Tallinn", "Porto",
}

// A job pairs a title with employers that plausibly hire it and with an
// expertise the open-domain questions infer from it.
type job struct {
	title     string
	employers []string
	expertise string // "Would X be able to <expertise>?"
}

var jobs = []job{
	{"pharmacist", []string{"Walgreens", "CVS", "Rite Aid"}, "explain the side effects of a prescription"},
	{"nurse", []string{"St. Mary's Hospital", "Mercy General", "Kaiser Permanente"}, "tell whether a cut needs stitches"},
	{"software engineer", []string{"Stripe", "Shopify", "Atlassian"}, "help debug a website"},
	{"chemistry teacher", []string{"Lincoln High", "Roosevelt High", "Westview Academy"}, "explain how a titration works"},
	{"accountant", []string{"Deloitte", "KPMG", "Grant Thornton"}, "help sort out a tax return"},
	{"graphic designer", []string{"Pentagram", "Bluefin Studio", "Wolff Olins"}, "design a logo for a bake sale"},
	{"electrician", []string{"Volt Brothers", "Brightline Electric", "Ampere Services"}, "rewire a faulty light switch"},
	{"physical therapist", []string{"Athletico", "ProMotion Rehab", "Kinetic Health"}, "suggest exercises for a sore knee"},
	{"veterinarian", []string{"Banfield", "VCA Animal Hospital", "Paws and Claws Clinic"}, "advise on a sick puppy"},
	{"architect", []string{"Gensler", "Perkins and Will", "Snohetta"}, "sketch plans for a house extension"},
	{"paralegal", []string{"Baker McKenzie", "Hogan Lovells", "Latham and Watkins"}, "explain what a lease clause means"},
	{"data analyst", []string{"Spotify", "Nielsen", "Zillow"}, "build a spreadsheet model"},
	{"pastry chef", []string{"Tartine", "Dominique Ansel", "Flour Bakery"}, "make a wedding cake"},
	{"journalist", []string{"the Tribune", "Reuters", "the Guardian"}, "fact-check a rumour"},
	{"civil engineer", []string{"AECOM", "Jacobs", "Arup"}, "judge whether a bridge design is sound"},
	{"product manager", []string{"Airbnb", "Atlassian", "Duolingo"}, "run a planning meeting"},
	{"lab technician", []string{"Genentech", "Quest Diagnostics", "LabCorp"}, "run a blood sample through a centrifuge"},
	{"social worker", []string{"Catholic Charities", "the county family services office", "Hope House"}, "navigate the foster care system"},
	{"real estate agent", []string{"Compass", "Redfin", "Coldwell Banker"}, "estimate what a house would sell for"},
	{"flight attendant", []string{"Delta", "Alaska Airlines", "JetBlue"}, "give tips on beating jet lag"},
	{"dental hygienist", []string{"Aspen Dental", "Bright Smiles Dentistry", "Pacific Dental"}, "recommend a good toothbrush"},
	{"librarian", []string{"the public library", "the university library", "the Carnegie Library"}, "recommend a book for a book club"},
}

// A pet kind: the question names the species, the statement names the
// breed or the young animal, so the two seldom share a word.
type petKind struct {
	species string // used in questions: "dog"
	young   string // used in statements: "puppy"
	breeds  []string
}

var petKinds = []petKind{
	{"dog", "puppy", []string{"beagle", "corgi", "golden retriever", "border collie", "dachshund", "labrador", "husky", "pug", "whippet", "schnauzer"}},
	{"cat", "kitten", []string{"Maine Coon", "Siamese", "Ragdoll", "Bengal", "Persian", "Sphynx", "British Shorthair", "Abyssinian"}},
}

// A relative is a role in a speaker's life. Statement phrases vary the
// word; the question uses role.
type relative struct {
	role    string
	female  int // 1 female, 0 male, -1 either
	phrases []string
}

var relatives = []relative{
	{"sister", 1, []string{"my sister", "my little sis", "my big sister", "my younger sister"}},
	{"brother", 0, []string{"my brother", "my kid brother", "my older bro", "my big brother"}},
	{"mother", 1, []string{"my mom", "my mum", "my mother"}},
	{"father", 0, []string{"my dad", "my father", "my old man"}},
	{"cousin", -1, []string{"my cousin", "my favourite cousin"}},
	{"aunt", 1, []string{"my aunt", "my auntie"}},
	{"uncle", 0, []string{"my uncle", "my uncle on my mom's side"}},
	{"best friend", -1, []string{"my best friend", "my closest friend", "my oldest friend", "my bestie"}},
}

// A hobby carries what the open-domain question infers from it: inferred
// shares no word with doing, near shares one.
type hobby struct {
	name     string // the answer: "bouldering"
	doing    string // statement phrase: "bouldering at the climbing gym"
	inferred string // "Would X likely enjoy <inferred>?" -> yes
	near     string // as inferred, for an echo question
}

var hobbies = []hobby{
	{"bouldering", "bouldering at the climbing gym", "a day at an indoor rock wall", "a trip to a bigger climbing gym"},
	{"birdwatching", "birdwatching down by the marsh with binoculars", "a guided nature walk to spot herons", "a new pair of binoculars"},
	{"pottery", "throwing pots on the wheel at a pottery studio", "a ceramics workshop", "a better wheel for throwing pots"},
	{"woodworking", "woodworking in the garage", "building a bookshelf from scratch", "a new set of tools for the garage"},
	{"gardening", "gardening in the backyard beds", "a visit to a botanical nursery", "fresh soil for the backyard beds"},
	{"watercolor painting", "watercolor painting by the window", "an afternoon at an art supply store", "a new set of watercolor brushes"},
	{"sourdough baking", "sourdough baking with my starter", "a bread-making class", "a fancy jar for a sourdough starter"},
	{"chess", "playing chess online and at the park", "a strategy board game tournament", "a weekend of games at the park"},
	{"kayaking", "kayaking on the lake", "a paddling trip down a river", "a long summer day out on the lake"},
	{"knitting", "knitting scarves while I watch TV", "a yarn festival", "a pattern book for winter scarves"},
	{"photography", "photography with my old film camera", "a photo walk through an old neighbourhood", "a few rolls of film for an old camera"},
	{"salsa dancing", "salsa dancing at a studio downtown", "a Latin dance night", "a night out at a studio downtown"},
	{"trail hiking", "trail hiking outside town", "a weekend in the mountains", "a long walk on a new trail"},
	{"stargazing", "stargazing with my telescope", "a night at a dark-sky observatory", "a better telescope"},
}

// An aversion answers an open-domain question with "no".
type aversion struct {
	stated   string // "I get horribly seasick"
	inferred string // "Would X likely enjoy <inferred>?" -> no
	near     string // as inferred, sharing a word with stated
	reason   string // "gets seasick"
}

var aversions = []aversion{
	{"I get horribly seasick, even on a ferry", "a week-long sailing cruise", "a ferry ride out to the islands", "gets seasick"},
	{"heights terrify me, I can't even do a glass elevator", "a skydiving lesson", "a glass elevator to the top of a skyscraper", "is afraid of heights"},
	{"I'm allergic to cats, my eyes swell up within minutes", "a visit to a cat cafe", "a weekend looking after a friend's cats", "is allergic to cats"},
	{"I really can't handle spicy food, my tongue just gives up", "a ghost pepper wing challenge", "a spicy food challenge", "cannot handle spicy food"},
	{"I've been vegetarian since college", "a steakhouse tasting menu", "a barbecue with no vegetarian options", "is vegetarian"},
	{"crowds make me anxious, I leave the moment it gets packed", "a sold-out stadium concert", "a festival packed with crowds", "dislikes crowds"},
	{"I hate the cold, anything under ten degrees and I'm miserable", "a winter trip to the Arctic", "a holiday where it stays under ten degrees", "hates the cold"},
	{"I'm terrible at early mornings, I'm useless before nine", "a 5 a.m. sunrise bootcamp", "a job that starts early, well before nine", "is not a morning person"},
}

var instruments = []string{"cello", "ukulele", "violin", "saxophone", "piano", "drums", "banjo", "trumpet", "harmonica", "bass guitar", "flute", "mandolin"}

var cars = []string{"Subaru Outback", "Honda Civic", "Toyota RAV4", "Mazda Miata", "Ford F-150", "Tesla Model 3", "Jeep Wrangler", "Volkswagen Golf", "Kia Soul", "Volvo XC60", "Mini Cooper", "Hyundai Ioniq"}

// A purchase is stated with its shop name and asked with a synonym.
type purchase struct {
	stated, asked string
	minPrice      int // in tens of dollars
	maxPrice      int
}

var purchases = []purchase{
	{"standing desk", "desk", 25, 70},
	{"espresso machine", "coffee maker", 30, 90},
	{"road bike", "bicycle", 60, 200},
	{"sectional couch", "sofa", 80, 250},
	{"telescope", "astronomy scope", 20, 90},
	{"sewing machine", "machine for sewing", 15, 60},
	{"air fryer", "kitchen gadget", 8, 25},
	{"drone", "quadcopter", 30, 120},
	{"mechanical keyboard", "keyboard", 10, 30},
	{"e-reader", "reading tablet", 10, 30},
	{"rowing machine", "home rower", 40, 150},
	{"noise-cancelling headphones", "headset", 15, 45},
}

var foods = []string{"pho", "ramen", "lasagna", "tacos al pastor", "pad thai", "biryani", "shakshuka", "paella", "pierogi", "bibimbap", "gumbo", "falafel", "moussaka", "jollof rice"}

var books = []string{"The Remains of the Day", "Middlemarch", "Pachinko", "The Name of the Wind", "Circe", "Beloved", "The Overstory", "Station Eleven", "East of Eden", "Never Let Me Go", "The Left Hand of Darkness", "Piranesi"}

var numberWords = []string{"zero", "one", "two", "three", "four", "five", "six"}

// An event kind: what the speaker says they did, the same as an echo
// question puts it, and how a paraphrasing question asks about it. {pos}
// is the speaker's possessive pronoun.
type eventKind struct {
	said  []string
	did   []string // said[i] in the base form: "volunteer at the animal shelter"
	asked string
	echo  string // how a later, answerless turn refers back to it
	solo  bool   // no companion can join in
}

var eventKinds = []eventKind{
	{[]string{"ran my first marathon", "finished my first full marathon"}, []string{"run {pos} first marathon", "finish {pos} first full marathon"}, "run a marathon for the first time", "the marathon", true},
	{[]string{"went to a pottery workshop", "spent the afternoon at a clay class"}, []string{"go to a pottery workshop", "spend the afternoon at a clay class"}, "attend a ceramics class", "the clay class", false},
	{[]string{"volunteered at the animal shelter", "spent the day walking shelter animals"}, []string{"volunteer at the animal shelter", "spend the day walking shelter animals"}, "help out at a rescue", "the shelter", false},
	{[]string{"got my wisdom teeth pulled", "had my wisdom teeth out"}, []string{"get {pos} wisdom teeth pulled", "have {pos} wisdom teeth out"}, "have dental surgery", "my jaw", true},
	{[]string{"took my nephew to the aquarium", "spent the day at the aquarium with my nephew"}, []string{"take {pos} nephew to the aquarium", "spend the day at the aquarium with {pos} nephew"}, "see the fish exhibits with {pos} nephew", "the aquarium", true},
	{[]string{"hosted a board game night", "had everyone over for board games"}, []string{"host a board game night", "have everyone over for board games"}, "have friends over to play games", "game night", false},
	{[]string{"went to a Lizzo concert", "saw Lizzo live"}, []string{"go to a Lizzo concert", "see Lizzo live"}, "see Lizzo perform", "the concert", false},
	{[]string{"passed my driving test", "finally got my license"}, []string{"pass {pos} driving test", "finally get {pos} license"}, "become a licensed driver", "the driving thing", true},
	{[]string{"ran a charity 5k", "did a 5k fun run for the food bank"}, []string{"run a charity 5k", "do a 5k fun run for the food bank"}, "take part in a fundraising race", "the 5k", false},
	{[]string{"finished painting the nursery", "painted the baby's room"}, []string{"finish painting the nursery", "paint the baby's room"}, "redecorate the room for the baby", "the nursery", false},
	{[]string{"got food poisoning from a sketchy burrito", "ate a bad burrito and was sick all night"}, []string{"get food poisoning from a sketchy burrito", "eat a bad burrito"}, "get ill from something {pos} ate", "that burrito", true},
	{[]string{"went camping by the lake", "slept in a tent by the lake"}, []string{"go camping by the lake", "sleep in a tent by the lake"}, "go on a camping trip", "the camping trip", false},
	{[]string{"gave a talk at a conference", "presented at a conference for the first time"}, []string{"give a talk at a conference", "present at a conference for the first time"}, "speak at a professional event", "my talk", true},
	{[]string{"went skydiving", "jumped out of a plane, tandem of course"}, []string{"go skydiving", "jump out of a plane"}, "try skydiving", "the skydiving", false},
	{[]string{"took a Thai cooking class", "learned to make green curry at a cooking class"}, []string{"take a Thai cooking class", "learn to make green curry"}, "learn to cook Thai food", "the curry class", false},
	{[]string{"got a tattoo of a fern", "got my first tattoo, a little fern"}, []string{"get a tattoo of a fern", "get {pos} first tattoo"}, "get inked", "the tattoo", true},
	{[]string{"sprained my ankle playing soccer", "rolled my ankle at soccer"}, []string{"sprain {pos} ankle playing soccer", "roll {pos} ankle at soccer"}, "hurt {pos} ankle", "my ankle", true},
	{[]string{"played my first open mic", "performed at an open mic night"}, []string{"play {pos} first open mic", "perform at an open mic night"}, "perform in front of an audience", "the open mic", false},
	{[]string{"planted tomatoes and peppers", "got the vegetable beds planted"}, []string{"plant tomatoes and peppers", "get the vegetable beds planted"}, "start a vegetable garden", "the garden", false},
	{[]string{"went to a friend's wedding in the countryside", "danced all night at a friend's wedding"}, []string{"go to a friend's wedding in the countryside", "dance all night at a friend's wedding"}, "attend a wedding", "the wedding", false},
	{[]string{"climbed Mount Elbert", "hiked to the top of Mount Elbert"}, []string{"climb Mount Elbert", "hike to the top of Mount Elbert"}, "summit a fourteener", "the hike", false},
	{[]string{"got a promotion at work", "was promoted to team lead"}, []string{"get a promotion at work", "get promoted to team lead"}, "get promoted", "the promotion", true},
	{[]string{"went to a pottery sale and bought six mugs", "bought way too many mugs at a craft fair"}, []string{"buy six mugs at a pottery sale", "buy too many mugs at a craft fair"}, "shop at a craft fair", "the mugs", false},
	{[]string{"donated blood", "gave blood at the community center"}, []string{"donate blood", "give blood at the community center"}, "donate blood", "the blood drive", true},
	{[]string{"joined a book club", "went to my first book club meeting"}, []string{"join a book club", "go to {pos} first book club meeting"}, "start attending a reading group", "book club", true},
	{[]string{"helped my neighbour move", "spent the whole day carrying boxes for my neighbour"}, []string{"help {pos} neighbour move", "carry boxes for {pos} neighbour"}, "help someone move house", "the move", true},
	{[]string{"saw a total lunar eclipse", "stayed up to watch the lunar eclipse"}, []string{"see a total lunar eclipse", "stay up to watch the lunar eclipse"}, "watch the eclipse", "the eclipse", false},
	{[]string{"took a hot air balloon ride", "floated over the valley in a hot air balloon"}, []string{"take a hot air balloon ride", "float over the valley in a hot air balloon"}, "go up in a balloon", "the balloon ride", false},
}

// Never-stated facts for adversarial questions about absent topics.
var absentTopics = []string{
	"What is the name of {name}'s horse?",
	"Which university did {name} graduate from?",
	"What is the name of {name}'s parrot?",
	"How many grandchildren does {name} have?",
	"What boat does {name} own?",
	"Which language is {name} learning in night school?",
	"What is {name}'s blood type?",
	"Which team does {name} coach?",
}
