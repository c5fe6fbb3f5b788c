package eval

import (
	"fmt"
	"io"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// WriteChart draws evidence recall against budget, one line per memory, as
// a PNG.
func WriteChart(w io.Writer, rs []Result, title string) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "token budget (cl100k_base)"
	p.Y.Label.Text = "evidence recall"
	p.Y.Min, p.Y.Max = 0, 1
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = budgetTicks(rs)
	// Set the range: for one budget, plot would pad it down to 0, which a
	// log scale cannot show.
	for i, r := range rs {
		b := float64(max(1, r.Budget))
		if i == 0 || b/1.2 < p.X.Min {
			p.X.Min = b / 1.2
		}
		if i == 0 || b*1.2 > p.X.Max {
			p.X.Max = b * 1.2
		}
	}
	// Bottom right, above the newest-first buffers' low lines.
	p.Legend.YOffs = 1.2 * vg.Inch
	p.Add(plotter.NewGrid())

	var names []string
	for _, r := range rs {
		if !slices.Contains(names, r.Memory) {
			names = append(names, r.Memory)
		}
	}
	var lines []any
	for _, n := range names {
		var pts plotter.XYs
		for _, r := range rs {
			if r.Memory == n {
				pts = append(pts, plotter.XY{X: float64(r.Budget), Y: r.Recall})
			}
		}
		lines = append(lines, n, pts)
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return fmt.Errorf("eval: chart: %w", err)
	}
	wt, err := p.WriterTo(7*vg.Inch, 4.5*vg.Inch, "png")
	if err != nil {
		return fmt.Errorf("eval: chart: %w", err)
	}
	if _, err := wt.WriteTo(w); err != nil {
		return fmt.Errorf("eval: chart: %w", err)
	}
	return nil
}

// budgetTicks marks exactly the budgets that were run.
type budgetTicks []Result

func (b budgetTicks) Ticks(_, _ float64) []plot.Tick {
	var ts []plot.Tick
	seen := make(map[int]bool)
	for _, r := range b {
		if !seen[r.Budget] {
			seen[r.Budget] = true
			ts = append(ts, plot.Tick{Value: float64(r.Budget), Label: fmt.Sprint(r.Budget)})
		}
	}
	return ts
}
