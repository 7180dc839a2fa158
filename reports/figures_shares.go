package reports

import (
	"errors"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/capplan/capplan/plan"
)

// Row heights of bar figures: each category gets barRowHeight on top of
// barChromeHeight for the title, axis and legend.
const (
	barRowHeight    = vg.Length(0.32) * vg.Inch
	barChromeHeight = vg.Length(1.6) * vg.Inch
)

// SharesFigure draws each application's fair share against its demand,
// in machines: two horizontal bars per application, the first application
// at the top. The demand is the application's cap (maxMachines) or, when
// it has none, every machine it may use (eligibleMachines).
func SharesFigure(fs *plan.FairShare) (Figure, error) {
	if fs == nil || len(fs.Shares) == 0 {
		return Figure{}, errors.New("reports: shares figure: no shares")
	}
	n := len(fs.Shares)
	share := make(plotter.Values, n)
	demand := make(plotter.Values, n)
	names := make([]string, n)
	for i, s := range fs.Shares {
		// Row 0 is drawn at the bottom: reverse so the first is on top.
		k := n - 1 - i
		names[k] = s.Application
		share[k] = s.Machines
		demand[k] = float64(s.EligibleMachines)
		if s.MaxMachines != nil {
			demand[k] = float64(min(*s.MaxMachines, s.EligibleMachines))
		}
	}
	height := min(max(figureHeight, barChromeHeight+barRowHeight*vg.Length(n)), figureMaxHeight)
	barWidth := min(max((height-barChromeHeight)/vg.Length(n)/2.6, vg.Points(2)), vg.Points(14))
	p := newPlot("Fair share vs demand per application", "machines", "")
	leg := newSideLegend()
	for i, s := range []struct {
		label  string
		values plotter.Values
	}{{"fair share (CMMF)", share}, {"demand", demand}} {
		bars, err := plotter.NewBarChart(s.values, barWidth)
		if err != nil {
			return Figure{}, err
		}
		bars.Horizontal = true
		bars.Color = seriesColor(i)
		bars.LineStyle.Width = 0
		bars.Offset = vg.Length(0.5-float64(i)) * barWidth
		p.Add(bars)
		leg.add(s.label, bars)
	}
	p.NominalY(names...)
	p.X.Min = 0
	svg, err := renderSVG(p, leg, figureWidth, height)
	if err != nil {
		return Figure{}, err
	}
	return Figure{
		Name:    "shares",
		Title:   "Fair shares",
		Caption: "Machines each application receives under constrained max-min fairness, beside its demand: its cap, or all the machines its placement constraints admit.",
		SVG:     svg,
	}, nil
}
