package ann

import "testing"

// TestRecall: a trained index (20,000 vectors: 141 lists, 64 probed) finds
// nearly all of the exact 64 best; a broken one (a random 45% of the
// vectors scanned) would find under half.
func TestRecall(t *testing.T) {
	for _, tc := range []struct {
		name    string
		m, qs   matrix
		min     float64 // with the exact re-rank
		minInt8 float64 // from the int8 codes alone
	}{
		{"clustered", clustered(20000, 100, 13), clustered(60, 100, 14), 0.9, 0.85},
		{"GloVe text", text(20000, 13), text(60, 14), 0.95, 0.9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix := build(t, tc.m)
			if ix.cents == nil {
				t.Fatal("not trained")
			}
			for _, c := range []struct {
				vs  Vectors
				min float64
			}{{tc.m.vectors, tc.min}, {nil, tc.minInt8}} {
				var sum float64
				var dst []int32
				for i := range tc.qs.n() {
					q := tc.qs.row(int32(i))
					dst = ix.Search(q, 64, c.vs, dst)
					sum += recall(tc.m, q, oracle(tc.m, q, 64), dst)
				}
				r := sum / float64(tc.qs.n())
				t.Logf("re-rank %v: recall@64 %.3f", c.vs != nil, r)
				if r < c.min {
					t.Errorf("re-rank %v: recall@64 %.3f, want at least %.2f", c.vs != nil, r, c.min)
				}
			}
		})
	}
}
