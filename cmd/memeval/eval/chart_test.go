package eval

import (
	"bytes"
	"image/png"
	"slices"
	"testing"

	"gonum.org/v1/plot"
)

func TestWriteChart(t *testing.T) {
	var rs []Result
	for i, m := range All() {
		for j, b := range []int{512, 1024, 2048, 4096} {
			rs = append(rs, Result{Memory: m.Name, Budget: b, Recall: float64(i+j) / 20})
		}
	}
	var buf bytes.Buffer
	if err := WriteChart(&buf, rs, "test"); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() <= b.Dy() {
		t.Errorf("chart is %v, want wider than tall (the legend beside the plot)", b)
	}
	if len(All()) > len(seriesColors) {
		t.Errorf("%d memories, %d colours: some would share one", len(All()), len(seriesColors))
	}
}

func TestTenths(t *testing.T) {
	var got []string
	for _, tk := range (tenths{}).Ticks(0, 1) {
		got = append(got, tk.Label)
	}
	want := []string{"0.0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1.0"}
	if !slices.Equal(got, want) {
		t.Errorf("ticks %q, want %q", got, want)
	}
	var _ plot.Ticker = tenths{}
}
