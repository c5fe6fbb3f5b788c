package updates

import (
	"fmt"
	"strings"
)

// A relation's templates. In statements {v} is the value, {av} the value
// with its article, {old} the value it replaces; {k}, {sib} and {pron} name
// a sibling. In questions {name} is the speaker the fact belongs to.
type relation struct {
	rel    Relation
	values []string
	// state says the first value; change says a later one in other
	// words; correct takes back the value just said (nil: never).
	state, change, correct []string
	// ask puts the question; prompt is what the other speaker says to
	// draw a statement out; ack replies without repeating the value.
	ask, prompt, ack []string
}

var cities = []string{"Lisbon", "Berlin", "Montreal", "Osaka", "Melbourne", "Edinburgh", "Valencia", "Denver", "Krakow", "Seattle", "Porto", "Vienna", "Nairobi", "Austin", "Gothenburg", "Wellington", "Bologna", "Halifax", "Tallinn", "Cape Town"}

var companies = []string{"Northwind Logistics", "Brightline Health", "Copperleaf Studios", "Halcyon Bank", "Tidewater Foods", "Quillstone Press", "Redwood Analytics", "Bluefin Robotics", "Maple & Finch Architects", "Orbital Freight", "Larkspur Games", "Ironbridge Insurance", "Saltmarsh Energy", "Kestrel Pharma", "Juniper Schools", "Silverline Media"}

var partners = []string{"Noah", "Priya", "Mateo", "Hannah", "Tomasz", "Ines", "Julian", "Amara", "Felix", "Sofia", "Ravi", "Clara", "Oskar", "Leila", "Dev", "Mira"}

var relations = []relation{
	{
		rel:    City,
		values: cities,
		state: []string{
			"I live in {v}, in a little flat above a bakery.",
			"We've been renting a place in {v} for a couple of years now.",
			"Home is {v} for me, at least for the moment.",
			"I'm based in {v}; the rent is brutal but I love the neighbourhood.",
			"Our apartment in {v} finally has working heating, so life is good.",
		},
		change: []string{
			"Big news: we packed everything up and moved to {v}!",
			"The boxes are finally unpacked and {v} already feels like home.",
			"We relocated to {v} last month, fresh start and all that.",
			"I'm writing this from our new place in {v}, still no curtains.",
			"We left for good; we've settled in {v} now.",
		},
		ask:    []string{"Which city does {name} live in?", "Where is {name} living these days?", "What city is {name}'s home now?"},
		prompt: []string{"So where are you calling home these days?", "How's the housing situation going?", "Any news on the flat front?"},
		ack:    []string{"How are you finding the neighbourhood?", "That's a big change, I hope the commute is kind.", "Send me photos of the view!", "Oh I've always wanted to visit there."},
	},
	{
		rel:    Employer,
		values: companies,
		state: []string{
			"I work at {v}, mostly on the unglamorous side of things.",
			"I've been with {v} for three years now.",
			"My employer is {v}; decent people, terrible coffee.",
			"I spend my days at {v}, which pays the bills.",
		},
		change: []string{
			"I handed in my notice and started at {v} on Monday.",
			"Guess who got poached? I'm with {v} now.",
			"I switched jobs: {v} made me an offer I couldn't refuse.",
			"First week at {v} done, new badge and everything.",
		},
		ask:    []string{"Where does {name} work?", "Which company employs {name} now?", "Who is {name}'s employer?"},
		prompt: []string{"How's work treating you?", "Still at the same place?", "Anything new on the job side?"},
		ack:    []string{"Is the commute any better?", "I hope they treat you well.", "Fingers crossed for a good team.", "That sounds like a solid move."},
	},
	{
		rel:    JobTitle,
		values: []string{"data analyst", "product manager", "nurse practitioner", "sous chef", "UX designer", "site engineer", "paralegal", "history teacher", "project coordinator", "backend developer", "account manager", "lab technician", "occupational therapist", "editor"},
		state: []string{
			"I'm {av}, which is less glamorous than it sounds.",
			"These days my title is {v}, for what it's worth.",
			"I work as {av}; long hours but I like it.",
			"On paper I'm {av}, in practice I'm whoever fixes the printer.",
		},
		change: []string{
			"They promoted me, so I'm officially {av} now!",
			"New role for me: {v}, starting next week.",
			"I moved over to the {v} position on another team.",
			"After all that retraining I finally got hired as {av}.",
		},
		ask:    []string{"What is {name}'s job title?", "What does {name} do for a living now?", "What is {name}'s current role?"},
		prompt: []string{"What are you doing at work these days?"},
		ack:    []string{"Congrats, that's well deserved.", "That must keep you busy.", "Sounds like a good fit for you.", "Do you like it so far?"},
	},
	{
		rel:    Partner,
		values: partners,
		state: []string{
			"My partner {v} cooked dinner for the two of us last night.",
			"I've been seeing {v} for a while now and it's going really well.",
			"{v} and I have been together since the spring.",
			"I'm taking {v}, my other half, to the coast for our anniversary.",
		},
		change: []string{
			"Things ended with my ex, and I'm with {v} now.",
			"I met someone new, {v}, and we've been inseparable.",
			"Relationship update: it's over with the old one, I'm dating {v}.",
			"We broke up a while back; these days it's {v} and me.",
		},
		ask:    []string{"What is the name of {name}'s partner?", "Who is {name} dating?", "Who is {name} in a relationship with now?"},
		prompt: []string{"How's your love life?"},
		ack:    []string{"I'm really happy for you.", "You'll have to introduce us sometime.", "That's lovely to hear.", "Aww, take it slow and enjoy it."},
	},
	{
		rel:    Pet,
		values: []string{"Biscuit", "Pepper", "Miso", "Juniper", "Waffles", "Ziggy", "Clementine", "Mochi", "Rufus", "Olive", "Pickles", "Nova", "Bramble", "Tofu"},
		state: []string{
			"Our dog {v} chewed through another pair of shoes today.",
			"I have a scruffy little dog called {v} who thinks he owns the place.",
			"{v}, my rescue pup, is the best thing that happened to me.",
			"I walk {v}, our spaniel, twice a day whatever the weather.",
		},
		change: []string{
			"The old name never stuck, so we renamed the dog {v}.",
			"Sadly the old boy passed away; our new rescue is called {v}.",
			"My parents took the old dog to the farm, and we adopted a puppy named {v}.",
			"After we rehomed the last one, we took in a little terrier named {v}.",
		},
		ask:    []string{"What is the name of {name}'s pet?", "What is {name}'s pet called?", "What name does {name}'s pet go by now?"},
		prompt: []string{"How are the animals at home?"},
		ack:    []string{"Give them a scratch behind the ears from me.", "Pets make everything better.", "I need to meet this little one.", "Send pictures, please!"},
	},
	{
		rel:    Food,
		values: []string{"pho", "ramen", "lasagna", "tacos al pastor", "pad thai", "biryani", "shakshuka", "paella", "pierogi", "bibimbap", "gumbo", "falafel", "moussaka", "jollof rice", "dumplings", "risotto"},
		state: []string{
			"My favourite food is {v}, hands down.",
			"I could eat {v} every single day of the week.",
			"Nothing beats a big bowl of {v} for me.",
			"If I could only eat one thing forever, it would be {v}.",
		},
		change: []string{
			"Lately I'm obsessed with {v}; it has taken the top spot.",
			"Honestly {v} is my new favourite, I've gone off everything else.",
			"My tastes changed: these days I'm all about {v}.",
			"If you asked me now, I'd say {v} beats anything else I eat.",
		},
		ask:    []string{"What is {name}'s favourite food?", "Which dish does {name} like best now?", "What food does {name} love most these days?"},
		prompt: []string{"What are you eating a lot of lately?"},
		ack:    []string{"Now I'm hungry.", "I'll have to try making that.", "You have good taste.", "We should go out for that sometime."},
	},
	{
		rel:    Car,
		values: []string{"Subaru Outback", "Honda Civic", "Toyota RAV4", "Mazda Miata", "Ford F-150", "Tesla Model 3", "Jeep Wrangler", "Volkswagen Golf", "Kia Soul", "Volvo XC60", "Mini Cooper", "Hyundai Ioniq", "Skoda Octavia", "Fiat 500"},
		state: []string{
			"I drive {av}; it's old but it never lets me down.",
			"My car is {av} with a dent in the door.",
			"I get around in {av}, mostly to the supermarket and back.",
			"The {v} outside is mine, the one with the roof rack.",
		},
		change: []string{
			"I traded the old car in and got {av}.",
			"Picked up a secondhand {v} at the weekend, runs like a dream.",
			"We sold our car and bought {av} instead.",
			"The new wheels are {av}, delivered on Friday.",
		},
		ask:    []string{"What car does {name} drive?", "What does {name} drive these days?", "Which car does {name} own now?"},
		prompt: []string{"Still driving the same old thing?"},
		ack:    []string{"Road trip soon?", "Enjoy the drive!", "Does it handle well in the rain?", "Nice, I'm a little jealous."},
	},
	{
		rel:    Phone,
		values: phoneNumbers(),
		state: []string{
			"My number is {v} if you ever need me.",
			"You can reach me on {v}, any time.",
			"Text me on {v} when you land.",
			"Jot down {v}, that's my mobile.",
		},
		change: []string{
			"I got a new SIM card, so save {v} instead.",
			"New phone, new contract: I'm on {v} from now on.",
			"The old line is dead; {v} is the one to call now.",
		},
		correct: []string{
			"Sorry, typo there: it's {v}, not {old}.",
			"Wait, I gave you the wrong digits. It's {v}, not {old}.",
		},
		ask:    []string{"What is {name}'s phone number?", "Which number should you use to call {name}?", "What number does {name} answer on now?"},
		prompt: []string{"What's the best way to reach you?"},
		ack:    []string{"Saved it in my contacts.", "Got it, thanks.", "I'll text you later then.", "Perfect, noted."},
	},
	{
		rel:    Meeting,
		values: meetingTimes(),
		state: []string{
			"Our team meeting is every {v}, without fail.",
			"The weekly sync is on {v}, don't ask me why.",
			"We have the big status meeting every {v}.",
			"Every week I'm stuck in the team meeting on {v}.",
		},
		change: []string{
			"They moved the weekly team meeting to {v}.",
			"The sync got rescheduled; it's {v} from now on.",
			"New calendar from the boss: status meetings are {v} now.",
		},
		correct: []string{
			"No, I said {v}, not {old}. Sorry, long day.",
			"Correction: it's {v}, not {old}; I mixed them up.",
		},
		ask:    []string{"When is {name}'s weekly team meeting?", "What day and time is {name}'s team sync?", "When does {name}'s status meeting happen now?"},
		prompt: []string{"When do you have to be in the office?"},
		ack:    []string{"Sounds like a lot of meetings.", "I'll avoid calling you then.", "Good to know.", "That's a painful slot."},
	},
	{
		rel:    KinCompany,
		values: companies,
		state: []string{
			"My {sib} {k} works at {v}, in their head office.",
			"{k}, my {sib}, has a job at {v} these days.",
			"My {sib} {k} got hired by {v} last year.",
			"{k}, my little {sib}, is on the payroll at {v}.",
		},
		change: []string{
			"{k} quit, {pron} has moved over to {v}.",
			"Big change for my {sib}: {k} is at {v} now.",
			"{k} switched employers; {pron} joined {v}, better hours apparently.",
			"My {sib} took a new job with {v}, finally escaped the old one.",
		},
		ask:    []string{"Where does {name}'s {sib} {k} work?", "Which company does {name}'s {sib} work for now?", "Who employs {k}, {name}'s {sib}?"},
		prompt: []string{"How is your family doing?"},
		ack:    []string{"Tell {k} I said hi.", "Good for {k}!", "Family news is the best news.", "I hope it works out for them."},
	},
}

func phoneNumbers() []string {
	var out []string
	for i := range 16 {
		out = append(out, fmt.Sprintf("555-01%02d", 13+5*i))
	}
	return out
}

func meetingTimes() []string {
	days := []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"}
	hours := []string{"9 am", "10:30 am", "2 pm", "4 pm"}
	var out []string
	for _, d := range days {
		for _, h := range hours {
			out = append(out, d+" at "+h)
		}
	}
	return out
}

// A link is the second statement of a multi-hop question: it joins the
// question to a fact without naming the fact's value.
type link struct {
	on    Relation // the fact it depends on
	state []string
	ask   []string
	// answer derives the answer from the fact's current value.
	answer func(current string) string
}

var links = []link{
	{
		on: City,
		state: []string{
			"My office is ten minutes from home, I just walk there.",
			"Work is right around the corner from our flat, which is the dream.",
			"The office is a short bike ride from where we live now.",
		},
		ask:    []string{"What city is {name}'s office in?", "In which city does {name} go to work?"},
		answer: func(v string) string { return v },
	},
	{
		on: Meeting,
		state: []string{
			"I booked the dentist right after our team meeting, same day.",
			"My dentist appointment is straight after the weekly sync, on the same day.",
		},
		ask:    []string{"On what day is {name}'s dentist appointment?", "Which day does {name} see the dentist?"},
		answer: func(v string) string { d, _, _ := strings.Cut(v, " at "); return d },
	},
	{
		on: KinCompany,
		state: []string{
			"{k} is the one who taught me to swim, back when we were kids.",
			"I only learned to swim because {k} dragged me to the pool every summer.",
		},
		ask:    []string{"Where does the person who taught {name} to swim work?", "Which company does the one who taught {name} to swim work for?"},
		answer: func(v string) string { return v },
	},
}

var siblingNames = map[string][]string{
	"sister":  {"Leah", "Nadia", "Greta", "Yuki", "Rosa", "Imogen"},
	"brother": {"Marco", "Eli", "Henrik", "Kofi", "Sami", "Theo"},
}

var speakerNames = []string{"Maya", "Daniel", "Aisha", "Lukas", "Chloe", "Omar", "Elena", "Jonah", "Freya", "Mateus", "Zoe", "Arjun"}
