package dataset

// A phrasing is one way a speaker states a fact, with the echo questions
// (see wording) that reuse its key words. Tying the two lets an echo
// question name what this turn says, not what some other phrasing would.
type phrasing struct {
	said  string
	asked []string
}

var homeSaid = []phrasing{
	{"we finally signed the lease on a place in {city}", []string{"Where did {name} sign the lease on a place?"}},
	{"I've been based in {city} for a while now, mostly for the job", []string{"Where has {name} been based for the job?"}},
	{"home these days is {city}, a two bedroom near the river", []string{"Where is {name}'s two bedroom near the river?"}},
	{"settling into {city} has been easier than I expected", []string{"Which city has {name} been settling into?"}},
	{"I'm renting a tiny flat in {city}, the rent is criminal", []string{"Where is {name} renting a tiny flat?"}},
}

// homeBoth holds, for each of homeSaid, the echo of the multi-hop
// question about both homes of a speaker who moved.
var homeBoth = []string{
	"Which cities has {name} lived in, starting with where {pron} signed the lease?",
	"Where has {name} been based over the years?",
	"Which cities has {name} called home?",
	"Which cities has {name} settled into over time?",
	"Which cities has {name} lived in, starting with the tiny flat?",
}

// moveSaid states a move; {city} is the city left, {city2} the new one.
var moveSaid = []phrasing{
	{"{when} we packed everything up and relocated to {city2}", []string{"Where did {name} relocate to after packing everything up?"}},
	{"{when} I moved out of {city} for good, {city2} is home now", []string{"Where did {name} go after moving out of {city} for good?"}},
	{"we finished the move to {city2} {when}, boxes everywhere", []string{"Which city did {name} finish the move to?"}},
	{"{when} I got the keys to my new apartment in {city2}", []string{"Where is {name}'s new apartment?"}},
}

// kinSaid introduces a relative: {phrase} is how the speaker calls them
// ("my kid brother"), {rn} their name; questions name the {role}.
var kinSaid = []phrasing{
	{"{phrase} {rn} came over for dinner and we talked until midnight", []string{"What is the name of {name}'s {role} who came over for dinner?"}},
	{"{phrase} {rn} is staying with us this week so the house is chaos", []string{"What is the name of the {role} staying with {name} that week?"}},
	{"I spent half the night on the phone with {phrase}, {rn}", []string{"What is the name of the {role} {name} spent half the night on the phone with?"}},
	{"{phrase} {rn} and I finally tried that new brunch place", []string{"Who is the {role} {name} tried the new brunch place with?"}},
	{"{rn}, {phrase}, surprised me with a visit out of nowhere", []string{"What is the name of the {role} who surprised {name} with a visit?"}},
}

var kinJobSaid = []phrasing{
	{"{rn} just got hired as {a} {title}, {pron} is over the moon", []string{"What was {name}'s {role} hired as?"}},
	{"guess what, {rn} is {a} {title} now! all those night classes paid off", []string{"What job did the night classes of {name}'s {role} pay off in?"}},
	{"{rn} started {pos} new job this week, {a} {title} of all things", []string{"What new job did {name}'s {role} start?"}},
	{"{rn} finally landed a {title} position", []string{"What position did {name}'s {role} finally land?"}},
}

var kinCitySaid = []phrasing{
	{"{rn} moved to {city} recently and {pron} already loves it", []string{"Where did {name}'s {role} move recently?"}},
	{"{rn} just signed a lease in {city}, so I have an excuse to visit", []string{"Where did {name}'s {role} just sign a lease?"}},
	{"{rn} packed up {pos} whole life and headed to {city}", []string{"Where did {name}'s {role} pack up and head to?"}},
	{"{rn} is living in {city} now, which is a long flight away", []string{"Which city, a long flight away, is {name}'s {role} living in?"}},
}

var hobbySaid = []phrasing{
	{"lately I've been spending every Saturday {doing}", []string{"What does {name} spend every Saturday doing?"}},
	{"I picked up {doing} a couple of months ago and I'm hooked", []string{"What did {name} pick up a couple of months ago?"}},
	{"nothing clears my head like {doing}", []string{"What clears {name}'s head?"}},
	{"my new obsession is {doing}", []string{"What is {name}'s new obsession?"}},
	{"honestly {doing} is the only thing keeping me sane", []string{"What is the only thing keeping {name} sane?"}},
}

var instrumentSaid = []phrasing{
	{"I've been taking {inst} lessons on Tuesday nights", []string{"What lessons does {name} take on Tuesday nights?"}},
	{"I dusted off my old {inst} and my neighbours are suffering", []string{"What instrument did {name} dust off?"}},
	{"learning the {inst} at my age is humbling but fun", []string{"What instrument does {name} find humbling to learn?"}},
	{"my {inst} teacher says I'm finally improving", []string{"What does {name}'s teacher say {pron} is finally improving at?"}},
	{"I practised the {inst} for two hours straight and my fingers are numb", []string{"What did {name} practise for two hours straight?"}},
}

var carSaid = []phrasing{
	{"we finally traded in the old minivan for a {car}", []string{"What did {name} trade the old minivan in for?"}},
	{"I bought a used {car}, only forty thousand miles on it", []string{"What used car did {name} buy?"}},
	{"I picked up my {car} from the dealership, it still smells new", []string{"What did {name} pick up from the dealership?"}},
	{"I'm now the proud owner of a {car}, goodbye bus pass", []string{"What car is {name} the proud owner of?"}},
}

// ageSaid states a birthday; ageWhen holds, for each, the echo of the
// temporal question about it.
var ageSaid = []phrasing{
	{"I turned {age} {when}, feeling ancient", []string{"What age did {name} turn, feeling ancient?"}},
	{"{when} was my {ageth} birthday and I ate far too much cake", []string{"Which birthday did {name} eat far too much cake on?"}},
	{"{when} I officially hit {age}, they threw me a surprise party", []string{"What age did {name} hit when they threw {pos} surprise party?"}},
	{"my {ageth} birthday was {when}, quiet but lovely", []string{"How old did {name} turn on {pos} quiet but lovely birthday?"}},
}

var ageWhen = []string{
	"When did {name} turn {age}?",
	"When did {name} eat far too much cake on {pos} birthday?",
	"When did {name} get a surprise party?",
	"When was {name}'s {ageth} birthday?",
}

var kidsSaid = []phrasing{
	{"we've got {n} kids, so the house is never quiet", []string{"How many kids does {name} have?"}},
	{"with {n} little ones running around I barely sleep", []string{"How many little ones does {name} have running around?"}},
	{"all {n} of my kids came down with the flu", []string{"How many of {name}'s kids came down with the flu?"}},
	{"being a parent of {n} means the laundry never ends", []string{"How many kids is {name} a parent of?"}},
}

var foodSaid = []phrasing{
	{"nothing beats {food} after a long day", []string{"What does {name} want after a long day?"}},
	{"I could eat {food} every single day", []string{"What could {name} eat every single day?"}},
	{"my comfort meal will always be {food}", []string{"What is {name}'s comfort meal?"}},
	{"if I had one last meal it'd be {food}, no question", []string{"What would {name}'s last meal be?"}},
}

var bookSaid = []phrasing{
	{"I just reread {book} for the fifth time", []string{"What book did {name} reread for the fifth time?"}},
	{"{book} is the one thing I'd take to a desert island", []string{"What would {name} take to a desert island?"}},
	{"nothing I've read beats {book}, I cry every time", []string{"Which book makes {name} cry every time?"}},
	{"I keep pressing my copy of {book} on everyone I meet", []string{"Which book does {name} keep pressing on everyone?"}},
}
