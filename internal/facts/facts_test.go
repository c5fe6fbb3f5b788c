package facts

import "testing"

func TestAnalyse(t *testing.T) {
	for _, c := range []struct {
		text                string
		speaker             string
		corrects, qualifies bool
	}{
		{"Ana: I like apples.", "ana", false, false},
		{"Ana: But not green apples.", "ana", false, true},
		{"except on Sundays", "", false, true},
		{"Although I never eat them raw.", "", false, true},
		{"Ana: No, I said Tuesday, not Monday. Sorry, long day.", "ana", true, false},
		{"Sorry, typo there: it's 555-0118, not 555-0113.", "", true, false},
		{"Correction: it's Friday at 2 pm, not Monday at 9 am; I mixed them up.", "", true, false},
		{"Actually, it's at four.", "", true, false},
		{"I meant the other one.", "", true, false},
		{"It's Tuesday at 4 pm, not Thursday", "", true, false},
		{"We went to Paris, and it rained.", "", false, false},
		{"No way, that's amazing!", "", false, false},
		{"Butter is my favourite.", "", false, false},
		{"I said hello to her.", "", false, false},
		{"", "", false, false},
	} {
		a := Analyse(c.text)
		if a.Speaker != c.speaker || a.Corrects != c.corrects || a.Qualifies != c.qualifies {
			t.Errorf("Analyse(%q) = %+v, want speaker %q, corrects %v, qualifies %v", c.text, a, c.speaker, c.corrects, c.qualifies)
		}
	}
}

func FuzzAnalyse(f *testing.F) {
	for _, s := range []string{"Ana: No, I said Tuesday", "but", ", not ", "\xff, not X", ":"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { Analyse(s) })
}

func TestDepends(t *testing.T) {
	stmt := Turn("The meeting is on Monday.", "human")
	reply := Turn("Noted.", "ai")
	fix := Turn("No, I said Tuesday, not Monday.", "human")
	but := Turn("But not in the morning.", "ai")
	for _, c := range []struct {
		name string
		a, b Analysis
		k    int
		want bool
	}{
		{"correction of its speaker's statement", fix, stmt, 2, true},
		{"correction of the reply between", fix, reply, 1, false},
		{"correction beyond reach", fix, stmt, Reach + 1, false},
		{"qualifier of the turn before", but, reply, 1, true},
		{"qualifier two back", but, stmt, 2, false},
		{"plain turn", reply, stmt, 1, false},
	} {
		if got := Depends(c.a, c.b, c.k); got != c.want {
			t.Errorf("%s: Depends = %v", c.name, got)
		}
	}
	if Room(fix, 100) != 100 || Room(but, 100) != 50 {
		t.Errorf("Room: correction %d, qualifier %d", Room(fix, 100), Room(but, 100))
	}
	if stmt.Speaker != "human" || Turn("Ana: hi", "human").Speaker != "ana" {
		t.Errorf("Turn's speaker: %q, %q", stmt.Speaker, Turn("Ana: hi", "human").Speaker)
	}
}
