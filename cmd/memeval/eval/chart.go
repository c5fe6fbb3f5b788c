package eval

import (
	"fmt"
	"image/color"
	"io"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// The chart's size, and the strip on its right that holds the legend: a
// legend inside the plot hides the lines it names.
const (
	chartWidth  = 8 * vg.Inch
	chartHeight = 4.5 * vg.Inch
	legendWidth = 1.5 * vg.Inch
)

// seriesColors are the Okabe–Ito colours, told apart by colour-blind
// readers too (with wine for their yellow, too pale on white), then grey:
// one per memory, in the order they first appear.
var seriesColors = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{213, 94, 0, 255},    // vermilion
	color.RGBA{0, 158, 115, 255},   // bluish green
	color.RGBA{204, 121, 167, 255}, // reddish purple
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{86, 180, 233, 255},  // sky blue
	color.RGBA{136, 34, 85, 255},   // wine
	color.RGBA{0, 0, 0, 255},       // black
	color.RGBA{128, 128, 128, 255}, // grey
	color.RGBA{153, 153, 51, 255},  // olive
}

// seriesShapes are the markers, one per memory, so that lines that overlap
// still show each point.
var seriesShapes = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{},
	draw.RingGlyph{}, draw.BoxGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{},
}

// WriteChart draws evidence recall against budget, one line per memory, as
// a PNG: engram's memories solid, the baselines dashed, each with its own
// colour and marker, the legend beside the plot.
func WriteChart(w io.Writer, rs []Result, title string) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "token budget (cl100k_base)"
	p.Y.Label.Text = "evidence recall"
	p.Y.Min, p.Y.Max = 0, 1
	p.Y.Tick.Marker = tenths{}
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
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{Y: 220}
	grid.Horizontal.Color = color.Gray{Y: 220}
	p.Add(grid)

	engram := make(map[string]bool)
	for _, m := range All() {
		engram[m.Name] = m.Engram
	}
	var names []string
	for _, r := range rs {
		if !slices.Contains(names, r.Memory) {
			names = append(names, r.Memory)
		}
	}
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.ThumbnailWidth = 0.45 * vg.Inch
	for i, n := range names {
		var pts plotter.XYs
		for _, r := range rs {
			if r.Memory == n {
				pts = append(pts, plotter.XY{X: float64(max(1, r.Budget)), Y: r.Recall})
			}
		}
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return fmt.Errorf("eval: chart: %s: %w", n, err)
		}
		c := seriesColors[i%len(seriesColors)]
		l.Color, l.Width = c, vg.Points(1.5)
		if !engram[n] {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		s.Color, s.Shape, s.Radius = c, seriesShapes[i%len(seriesShapes)], vg.Points(3.5)
		p.Add(l, s)
		legend.Add(n, l, s)
	}

	img := vgimg.New(chartWidth, chartHeight)
	dc := draw.New(img)
	p.Draw(draw.Crop(dc, 0, -legendWidth, 0, 0))
	// The legend's top level with the plot area's, below the title.
	legend.Draw(draw.Crop(dc, chartWidth-legendWidth+vg.Points(8), 0, 0, -vg.Points(30)))
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w); err != nil {
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
			ts = append(ts, plot.Tick{Value: float64(max(1, r.Budget)), Label: fmt.Sprint(r.Budget)})
		}
	}
	return ts
}

// tenths marks recall every 0.1, so that a reader can read a point's value
// off the grid.
type tenths struct{}

func (tenths) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for i := 0; i <= 10; i++ {
		if v := float64(i) / 10; v >= lo-1e-9 && v <= hi+1e-9 {
			ts = append(ts, plot.Tick{Value: v, Label: fmt.Sprintf("%.1f", v)})
		}
	}
	return ts
}
