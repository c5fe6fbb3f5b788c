package text

// IsStop reports whether the lower-cased word w carries no content.
func IsStop(w string) bool {
	_, ok := stopWords[w]
	return ok
}

var stopWords = func() map[string]struct{} {
	m := make(map[string]struct{})
	for _, w := range []string{
		"a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any",
		"are", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both",
		"but", "by", "can", "could", "did", "do", "does", "doing", "down", "during", "each", "either",
		"else", "ever", "every", "few", "for", "from", "further", "get", "got", "had", "has", "have",
		"having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how", "i", "if",
		"in", "into", "is", "it", "its", "itself", "just", "let", "lets", "me", "might", "more",
		"most", "much", "must", "my", "myself", "no", "nor", "not", "now", "of", "off", "oh", "ok",
		"okay", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over",
		"own", "really", "same", "shall", "she", "should", "so", "some", "such", "than", "that",
		"the", "their", "theirs", "them", "themselves", "then", "there", "these", "they", "this",
		"those", "through", "to", "too", "under", "until", "up", "us", "very", "was", "we", "were",
		"what", "when", "where", "which", "while", "who", "whom", "whose", "why", "will", "with",
		"would", "yeah", "yes", "you", "your", "yours", "yourself", "yourselves", "im", "ive",
		"youre", "dont", "didnt", "doesnt", "isnt", "wasnt", "thats", "whats", "s", "t", "d", "ll",
		"m", "re", "ve", "anything", "something", "thing", "things", "lot", "well", "kind", "sort",
		"ca", "wo", "sha", "quite", "pretty", "still", "even", "though", "ah", "hey", "hi", "hmm", "lol", "wow",
		// interjections and greetings, which start sentences with a capital
		// and would otherwise pass for names
		"yo", "ha", "hah", "haha", "hahaha", "heh", "hehe", "omg", "aww", "aw", "ooh", "oooh", "ohh",
		"ahh", "yay", "ugh", "yikes", "whoa", "woah", "huh", "nah", "yep", "yup", "nope", "welp",
		"oops", "hiya", "howdy", "hello", "bye", "cheers", "congrats", "thanks", "thank", "please",
		"sorry", "wait", "anyway", "anyways", "btw", "tbh", "lmao", "haa", "eh", "meh", "um", "uh",
	} {
		m[w] = struct{}{}
	}
	return m
}()
