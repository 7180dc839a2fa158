package main

import (
	"math"
	"testing"
)

// TestXFlexTable1 checks W-XFLEX against X-Flex's Table 1 targets
// (SIMULATE.md §5.4 X1–X5) on the medians of seeds 1–5, as make bench
// prints them, and that drf-am with order=fifo stays within 10% of every
// cell of the paper's DRF column.
func TestXFlexTable1(t *testing.T) {
	r, err := xflexMedians([]uint64{1, 2, 3, 4, 5})
	if err != nil {
		t.Fatal(err)
	}
	art := func(c string) float64 { return r.cells[c][3] }
	if !(art("flex") < art("fair") && art("fair") < art("fifo") && art("fifo") < art("drf")) {
		t.Errorf("X1: overall ART flex %.1f, fair %.1f, fifo %.1f, drf %.1f: want flex < fair < fifo < drf",
			art("flex"), art("fair"), art("fifo"), art("drf"))
	}
	for _, c := range []struct {
		b   string
		max float64
	}{{"drf", 0.40}, {"fair", 0.80}, {"fifo", 0.55}} {
		if got := r.ratio("flex", c.b); got > c.max {
			t.Errorf("X1: flex/%s ART = %.3f, want ≤ %.2f", c.b, got, c.max)
		}
	}
	small := func(c string) float64 { return r.cells[c][0] }
	if !(small("flex") < small("fair") && small("fair") < small("fifo")) {
		t.Errorf("X2: small-job ART flex %.1f, fair %.1f, fifo %.1f: want increasing", small("flex"), small("fair"), small("fifo"))
	}
	lo, hi := math.Inf(1), 0.0
	for _, c := range []string{"flex", "fair", "fifo"} {
		lo, hi = min(lo, r.cells[c][4]), max(hi, r.cells[c][4])
	}
	if hi > 1.05*lo {
		t.Errorf("X3: X-Flex makespans %.1f–%.1f differ by more than 5%%", lo, hi)
	}
	if mk := r.cells["drf"][4]; mk < 1.15*r.cells["flex"][4] {
		t.Errorf("X4: drf-am's makespan %.1f < 1.15 × flex's %.1f", mk, r.cells["flex"][4])
	}
	if r.cpu["xflex"] <= r.cpu["drf"] {
		t.Errorf("X5: cpu allocation xschedule %.3f ≤ drf-am's %.3f", r.cpu["xflex"], r.cpu["drf"])
	}
	for i, name := range []string{"small ART", "medium ART", "large ART", "overall ART", "makespan"} {
		got, want := r.cells["drf-fifo"][i], xflexPaper["drf"][i]
		if math.Abs(got/want-1) > 0.10 {
			t.Errorf("drf-am order=fifo %s = %.1f s, more than 10%% from the paper's DRF %.1f s", name, got, want)
		}
	}
}
