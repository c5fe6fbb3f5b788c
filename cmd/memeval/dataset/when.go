package dataset

import (
	"math/rand/v2"
	"time"
)

// A when is a relative time expression as a speaker says it, and the date
// a temporal question expects, resolved against the session date.
type when struct {
	said   string
	answer string
}

// dateLayout and sessionLayout follow the published LoCoMo files.
const (
	dateLayout    = "2 January 2006"
	sessionLayout = "3:04 pm on 2 January, 2006"
)

// pastWhen picks a relative expression for something that happened before
// the session at `at`.
func pastWhen(r *rand.Rand, at time.Time) when {
	day := func(d int) string { return at.AddDate(0, 0, -d).Format(dateLayout) }
	switch r.IntN(9) {
	case 0:
		return when{"yesterday", day(1)}
	case 1:
		return when{"two days ago", day(2)}
	case 2:
		return when{"last weekend", "the weekend before " + at.Format(dateLayout)}
	case 3:
		return when{"last week", "the week before " + at.Format(dateLayout)}
	case 4:
		return when{"this morning", day(0)}
	case 5:
		return when{"a few days ago", "a few days before " + at.Format(dateLayout)}
	case 6:
		first := time.Date(at.Year(), at.Month(), 1, 0, 0, 0, 0, at.Location())
		return when{"last month", first.AddDate(0, -1, 0).Format("January 2006")}
	default:
		// "on Saturday" means the latest such weekday strictly before today.
		wd := time.Weekday(r.IntN(7))
		back := (int(at.Weekday()) - int(wd) + 7) % 7
		if back == 0 {
			back = 7
		}
		said := "on " + wd.String()
		if back > 3 && chance(r, 0.5) {
			said = "last " + wd.String()
		}
		return when{said, day(back)}
	}
}
