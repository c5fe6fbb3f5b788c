package eval

import (
	"testing"
	"time"
)

func TestDated(t *testing.T) {
	day := time.Date(2023, time.May, 8, 13, 56, 0, 0, time.UTC)
	const said = "We moved to  Berlin."
	for _, c := range []struct {
		history string
		want    bool
	}{
		{"Human: We moved to Berlin.", false},
		{"Human: [2023-05-08] We moved to Berlin.", true},
		{"Human (8 May 2023): We moved to Berlin.", true},
		{"Human: We moved to Berlin. (said on May 8th, 2023)", true},
		{"Human: We moved to Berlin. [9 May 2023]", false}, // another day
		{"[Session 3, 1:56 pm on 8 May, 2023]\nAI: hi\nHuman: We moved to Berlin.", true},
		{"— 8 may 2023 —\nHuman: We moved to Berlin.\n— 9 May 2023 —", true},
		{"— 8 May 2023 —\n— 9 May 2023 —\nHuman: We moved to Berlin.", false}, // nearest header is another day
		{"AI: On 8 May 2023 I flew to Rome and saw the Colosseum with friends.\nHuman: We moved to Berlin.", false},
		{"Human: We moved to Berlin.\n[8 May 2023]", false}, // a header below does not date it
		{"", false},
	} {
		if got := Dated(c.history, said, day); got != c.want {
			t.Errorf("Dated(%q) = %v, want %v", c.history, got, c.want)
		}
	}
}
