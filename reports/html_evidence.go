package reports

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/plan"
)

// Evidence states, one sentence per claim, why each step's result can be
// trusted: the fair shares' optimality certificate, the shape catalogue's
// cost against its lower bound and ε, λ against its upper bound and the
// share deviations, the sizing against every lower bound, each DAG
// schedule against its bounds, and what the simulated check found.
func Evidence(b *plan.Bundle) []string {
	var out []string
	if fs := b.FairShare; fs != nil {
		c := fs.Certificate
		levels := make([]string, len(c.Pieces))
		for i, p := range c.Pieces {
			levels[i] = FormatNumber(p.Level)
		}
		s := fmt.Sprintf("Fair shares (%s): %s certificate %s, %s with levels %s; %s of %s allocated.",
			fs.Method, c.Kind, verified(c.Verified), plural.Count(len(c.Pieces), "tight set"), strings.Join(levels, " < "),
			FormatNumber(fs.Summary.Allocated), plural.Count(fs.Summary.Machines, "machine"))
		if c.LPMaxRelDiff != nil {
			s += fmt.Sprintf(" The iterative LP agrees to a relative %s.", SigCell(*c.LPMaxRelDiff).Text)
		}
		out = append(out, s)
	}
	if cat := b.Shapes; cat != nil {
		opt := "not proven optimal"
		if cat.Optimal {
			opt = "proven optimal"
		}
		out = append(out, fmt.Sprintf("Shape catalogue (%s, K = %d): cost %s against a lower bound of %s, at most %s above the optimum, ε = %s; %s.",
			cat.Method, cat.K, SigCell(cat.Cost).Text, SigCell(cat.LowerBound).Text, FormatPercent(cat.Ratio-1), FormatNumber(cat.Epsilon), opt))
	}
	if pp := b.Ownership; pp != nil {
		worst := 0.0
		for _, o := range pp.Owners {
			worst = max(worst, abs(o.Deviation))
		}
		var stranded []string
		for _, s := range pp.Stranded {
			stranded = append(stranded, fmt.Sprintf("%s %s%%", s.Resource, FormatNumber(s.Percent)))
		}
		out = append(out, fmt.Sprintf("Ownership packing: λ = %s against an upper bound of %s (%s of the bound); largest share deviation %s; stranded capacity %s; %s unplaced.",
			FormatNumber(pp.Lambda), FormatNumber(pp.LambdaUpperBound), FormatPercent(ratio(pp.Lambda, pp.LambdaUpperBound)),
			FormatPercent(worst), strings.Join(stranded, ", "), plural.Count(len(pp.Unplaced), "container")))
	}
	if pp := b.Sizing; pp != nil {
		if len(pp.NodeTypes) > 0 {
			var bounds []string
			for _, k := range slices.Sorted(maps.Keys(pp.CostBounds)) {
				bounds = append(bounds, k+" "+FormatNumber(pp.CostBounds[k]))
			}
			out = append(out, fmt.Sprintf("Sizing: %s costing %s; lower bounds on the cost: %s; gap %s.",
				plural.Count(pp.NodesUsed, "node"), FormatNumber(pp.Cost), strings.Join(bounds, ", "), FormatPercent(ratio(pp.Cost, pp.CostLowerBound)-1)))
		} else {
			var bounds []string
			for _, k := range slices.Sorted(maps.Keys(pp.Bounds)) {
				bounds = append(bounds, fmt.Sprintf("%s %d", k, pp.Bounds[k]))
			}
			out = append(out, fmt.Sprintf("Sizing: %s; lower bounds on the node count: %s; optimal: %s.",
				plural.Count(pp.NodesUsed, "node"), strings.Join(bounds, ", "), ShowYesNo.Text(pp.Optimal)))
		}
	}
	if d := b.DAG; d != nil {
		for _, j := range d.Jobs {
			out = append(out, fmt.Sprintf("DAG %s: makespan %s s against lower bounds critical path %s s, TWork %s s, NewLB %s s, best %s s: %s.",
				j.Name, FormatNumber(j.Makespan), FormatNumber(j.Bounds.CPLength), FormatNumber(j.Bounds.TWork),
				FormatNumber(j.Bounds.NewLB), FormatNumber(j.Bounds.Best), gapText(j)))
		}
	}
	if b.Simulation != nil {
		out = append(out, simulationEvidence(b.Simulation))
	}
	return out
}

func verified(ok bool) string {
	if ok {
		return "verified"
	}
	return "NOT verified"
}

// gapText is the job's certificate (which bound proves its makespan
// optimal, or its gap to which bound), or for a document without one
// whether it is optimal.
func gapText(j plan.DAGJob) string {
	switch {
	case j.Certificate != "":
		return j.Certificate
	case j.Optimal:
		return "optimal"
	}
	return "within " + FormatPercent(j.Gap) + " of optimal"
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
