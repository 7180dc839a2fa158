package reports

import (
	"github.com/capplan/capplan/plan"
)

// SummaryTable lists the key figures of a bundle, one per row with its
// unit: what was planned, the evidence of each step (certificate, gaps to
// bounds, λ against its bound), the number of warnings, then where it
// came from (the generator and every input with its SHA-256 digest).
func SummaryTable(b *plan.Bundle, warnings int) StepTable {
	t := StepTable{Sheet: "Summary", Title: "Summary",
		Columns: []Column{{"figure", ShowText}, {"value (unit in next column)", ShowText}, {"unit", ShowText}}}
	add := func(figure string, v any, f NumberFormat, unit string) {
		t.Rows = append(t.Rows, []any{figure, FormattedCell{v, f}, unit})
	}
	if fs := b.FairShare; fs != nil {
		add("applications", fs.Summary.Applications, ShowInteger, "count")
		add("machines", fs.Summary.Machines, ShowInteger, "machines")
		add("machines allocated by fair shares", fs.Summary.Allocated, ShowDecimal2, "machines")
		add("smallest level (fair share / weight)", fs.Summary.MinLevel, ShowDecimal4, "machines per weight")
		add("fair shares proven optimal (certificate verified)", fs.Certificate.Verified, ShowYesNo, "yes/no")
	}
	if c := b.Shapes; c != nil {
		add("container shapes", len(c.Shapes), ShowInteger, "count")
		add("shape cost above its lower bound", c.Ratio-1, ShowPercent, "%")
	}
	if o := b.Ownership; o != nil {
		add("ownership multiplier λ packed", o.Lambda, ShowDecimal4, "× forecast")
		add("λ as a share of its upper bound", ratio(o.Lambda, o.LambdaUpperBound), ShowPercent, "%")
	}
	if s := b.Sizing; s != nil {
		add("nodes bought by the sizing", s.NodesUsed, ShowInteger, "nodes")
		if len(s.NodeTypes) > 0 {
			add("sizing cost", s.Cost, ShowDecimal2, "cost")
			add("sizing cost above its lower bound", ratio(s.Cost, s.CostLowerBound)-1, ShowPercent, "%")
		} else {
			add("sizing lower bound", s.LowerBound, ShowInteger, "nodes")
		}
	}
	if d := b.DAG; d != nil {
		add("DAG jobs scheduled", d.Summary.Jobs, ShowInteger, "count")
		add("schedules proven optimal", d.Summary.Optimal, ShowInteger, "count")
		add("mean gap to the best lower bound", d.Summary.MeanGap, ShowPercent, "%")
		add("largest gap to the best lower bound", d.Summary.MaxGap, ShowPercent, "%")
	}
	if b.Simulation != nil {
		simulationSummary(b.Simulation, add)
	}
	add("warnings", warnings, ShowInteger, "count")
	if h := bundleHeader(b); h != nil {
		add("generator", h.Generator, ShowText, "")
		for _, in := range h.Inputs {
			add("input "+in.Role, in.Path, ShowText, "")
			add("input "+in.Role+" sha256", in.SHA256, ShowText, "")
		}
	}
	return t
}

// bundleHeader is the header that best describes where the bundle came
// from: the index's, else the first document's.
func bundleHeader(b *plan.Bundle) *plan.Header {
	switch {
	case b.Plan != nil:
		return &b.Plan.Header
	case b.FairShare != nil:
		return &b.FairShare.Header
	case b.Shapes != nil:
		return &b.Shapes.Header
	case b.Ownership != nil:
		return &b.Ownership.Header
	case b.Sizing != nil:
		return &b.Sizing.Header
	case b.DAG != nil:
		return &b.DAG.Header
	case b.Simulation != nil:
		return &b.Simulation.Header
	}
	return nil
}

// BundleWarnings lists the bundle's warnings (from its index) followed by
// extra ones (such as those of the exports), each as "step: message".
func BundleWarnings(b *plan.Bundle, extra []string) []string {
	var out []string
	if b.Plan != nil {
		for _, w := range b.Plan.Warnings {
			if w.Step != "" {
				out = append(out, w.Step+": "+w.Message)
			} else {
				out = append(out, w.Message)
			}
		}
	}
	return append(out, extra...)
}
