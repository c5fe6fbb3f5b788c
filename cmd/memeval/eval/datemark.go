package eval

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// A memory may show when something was said; the update evaluation asks
// whether a superseded statement it returns carries its date. Dated says
// what counts.

const months = `(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)`

var (
	isoDate  = regexp.MustCompile(`\b(\d{4})-(\d{1,2})-(\d{1,2})\b`)
	dayMonth = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)? (?:of )?` + months + `\.?,? (\d{4})\b`)
	monthDay = regexp.MustCompile(`(?i)\b` + months + `\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})\b`)
)

// headerMax is how many words besides its date a header line may hold.
const headerMax = 6

// Dated reports whether history shows text (white space squashed) on a
// line that is dated day: the line itself carries a date marker for that
// day, or the nearest line above it that is a date header does. A date
// marker is "2023-05-08", "8 May 2023", "8 May, 2023", "8th of May 2023",
// "May 8, 2023" or "May 8 2023" (month names in full or cut to three
// letters, any case); a date header is a line that carries a date marker
// and at most six other words, as in "[Session 3, 1:56 pm on 8 May, 2023]".
// A line that holds text but no date for day counts as undated even if
// another line holding text is dated.
func Dated(history, text string, day time.Time) bool {
	want := squash(text)
	lines := strings.Split(history, "\n")
	for i, l := range lines {
		if !strings.Contains(squash(l), want) {
			continue
		}
		if hasDay(l, day) {
			return true
		}
		for j := i - 1; j >= 0; j-- {
			if isHeader(lines[j]) {
				if hasDay(lines[j], day) {
					return true
				}
				break
			}
		}
	}
	return false
}

// dates returns the days of the date markers in s and s with them cut out.
func dates(s string) (days []time.Time, rest string) {
	add := func(y, m, d int) {
		if m >= 1 && m <= 12 && d >= 1 && d <= 31 {
			days = append(days, time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC))
		}
	}
	num := func(s string) int { n, _ := strconv.Atoi(s); return n }
	rest = isoDate.ReplaceAllStringFunc(s, func(m string) string {
		g := isoDate.FindStringSubmatch(m)
		add(num(g[1]), num(g[2]), num(g[3]))
		return " "
	})
	rest = dayMonth.ReplaceAllStringFunc(rest, func(m string) string {
		g := dayMonth.FindStringSubmatch(m)
		add(num(g[3]), month(g[2]), num(g[1]))
		return " "
	})
	rest = monthDay.ReplaceAllStringFunc(rest, func(m string) string {
		g := monthDay.FindStringSubmatch(m)
		add(num(g[3]), month(g[1]), num(g[2]))
		return " "
	})
	return days, rest
}

func month(name string) int {
	name = strings.ToLower(name)
	for m := time.January; m <= time.December; m++ {
		if strings.HasPrefix(strings.ToLower(m.String()), name[:3]) {
			return int(m)
		}
	}
	return 0
}

func hasDay(line string, day time.Time) bool {
	ds, _ := dates(line)
	for _, d := range ds {
		if d.Year() == day.Year() && d.YearDay() == day.YearDay() {
			return true
		}
	}
	return false
}

func isHeader(line string) bool {
	ds, rest := dates(line)
	return len(ds) > 0 && len(strings.Fields(rest)) <= headerMax
}
