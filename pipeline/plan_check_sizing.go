package pipeline

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/capplan/capplan/binpack/vbp"
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/plan"
)

// checkSizingDoc re-verifies a sizing PackingPlan against the vector bin
// packing instance rebuilt from the inputs and the document's node types
// (its nodeType flag): every container is an item of the instance with
// its size, packed once, within its node's capacity and on a type its
// application may use (vbp.Check, vbp.CheckMixed: also the nodes per
// type and the cost), and the lower bound is the recomputed one
// (vbp.LowerBound, vbp.MixedLowerBound) and at most the nodes (cost).
func checkSizingDoc(c *datasets.Cluster, d *datasets.Demand, doc *plan.PackingPlan) (string, error) {
	types, err := parseNodeTypes(doc.Flags["nodeType"])
	if err != nil {
		return "", fmt.Errorf("%s: flags.nodeType: %w", PlanSizingFile, err)
	}
	groups := make([]string, len(types))
	costs := make([]float64, len(types))
	for i, t := range types {
		groups[i], costs[i] = t.Group, t.Cost
	}
	if len(types) == 1 && !types[0].Priced {
		inst, dims, items, units, err := newSizingInstance(c, d, groups[0])
		if err != nil {
			return "", err
		}
		what := fmt.Sprintf("%s %s every request once within capacity (vbp.Check); lower bound %d recomputed",
			plural.Count(doc.NodesUsed, "node"), plural.Verb(doc.NodesUsed, "holds", "hold"), doc.LowerBound)
		bins, _, err := sizingBins(doc, dims, units, items, inst.Items, nil)
		if err != nil {
			return what, err
		}
		packing := make(vbp.Packing, len(bins))
		for b := range bins {
			packing[b] = bins[b].Items
		}
		if err := vbp.Check(inst, packing); err != nil {
			return what, fmt.Errorf("%s: %w", PlanSizingFile, err)
		}
		lb, err := vbp.LowerBound(inst)
		switch {
		case err != nil:
			return what, err
		case doc.NodesUsed != len(packing):
			return what, fmt.Errorf("%s: nodesUsed %d, the plan has %d nodes", PlanSizingFile, doc.NodesUsed, len(packing))
		case doc.LowerBound != lb.Best:
			return what, fmt.Errorf("%s: lowerBound %d, the recomputed bound is %d", PlanSizingFile, doc.LowerBound, lb.Best)
		case lb.Best > len(packing):
			return what, fmt.Errorf("%s: the lower bound %d exceeds the %d nodes used", PlanSizingFile, lb.Best, len(packing))
		}
		return what, nil
	}
	mi, err := newMixedSizingInstance(c, d, groups, costs)
	if err != nil {
		return "", err
	}
	what := fmt.Sprintf("%s of %s %s every request once within capacity on allowed types, at cost %s (vbp.CheckMixed); lower bound recomputed",
		plural.Count(doc.NodesUsed, "node"), plural.Count(len(types), "type"), plural.Verb(doc.NodesUsed, "holds", "hold"), fmt.Sprint(doc.Cost))
	bins, count, err := sizingBins(doc, mi.Dims, mi.Units, mi.Items, mi.Instance.Items, groups)
	if err != nil {
		return what, err
	}
	for t, nt := range doc.NodeTypes {
		if t >= len(count) || nt.Name != groups[t] || nt.Nodes != count[t] {
			return what, fmt.Errorf("%s: nodeTypes[%d] buys %d nodes of %s; the plan's nodes give %v of %v", PlanSizingFile, t, nt.Nodes, nt.Name, count, groups)
		}
	}
	res := &vbp.MixedResult{Bins: bins, Count: count, Cost: doc.Cost, LowerBound: doc.CostLowerBound, Optimal: doc.Optimal}
	if err := vbp.CheckMixed(mi.Instance, res); err != nil {
		return what, fmt.Errorf("%s: %w", PlanSizingFile, err)
	}
	lb, _, err := vbp.MixedLowerBound(mi.Instance)
	if err != nil {
		return what, err
	}
	if math.Abs(lb-doc.CostLowerBound) > 1e-9*math.Max(1, lb) {
		return what, fmt.Errorf("%s: costLowerBound %v, the recomputed bound is %v", PlanSizingFile, doc.CostLowerBound, lb)
	}
	return what, nil
}

// sizingBins reads a sizing document's nodes back into bins of item
// copies (numbered as vbp.Instance.Sizes: the copies of item 0, then of
// item 1, ...), checking every container's size; with groups (mixed
// sizing) each node's type is its index in groups and count the nodes per
// type.
func sizingBins(doc *plan.PackingPlan, dims []string, units []float64, names []sizingItem, items []vbp.Item, groups []string) ([]vbp.MixedBin, []int, error) {
	byName := map[string]int{}
	first := make([]int, len(items))
	next := 0
	for i, it := range items {
		byName[names[i].Shape] = i
		first[i] = next
		next += it.Count
	}
	used := make([]int, len(items))
	count := make([]int, len(groups))
	var bins []vbp.MixedBin
	for b, node := range doc.Nodes {
		bin := vbp.MixedBin{Items: make([]int, 0, len(node.Containers))}
		if groups != nil {
			bin.Type = -1
			for t, g := range groups {
				if g == node.Type {
					bin.Type = t
				}
			}
			if bin.Type < 0 {
				return nil, nil, fmt.Errorf("%s: nodes[%d] (%s) has type %q, not one of %v", PlanSizingFile, b, node.Name, node.Type, groups)
			}
			count[bin.Type]++
		}
		for j, ct := range node.Containers {
			i, ok := byName[ct.Shape]
			if !ok || names[i].Owner != ct.Owner {
				return nil, nil, fmt.Errorf("%s: nodes[%d].containers[%d]: %s of %s is not a request of the demand", PlanSizingFile, b, j, ct.Shape, ct.Owner)
			}
			for k, dim := range dims {
				if want := float64(items[i].Size[k]) / units[k]; ct.Size[dim] != want {
					return nil, nil, fmt.Errorf("%s: nodes[%d].containers[%d] (%s): %s %v, the request has %v", PlanSizingFile, b, j, ct.Shape, dim, ct.Size[dim], want)
				}
			}
			if used[i] == items[i].Count {
				return nil, nil, fmt.Errorf("%s: nodes[%d].containers[%d]: more than the %d requests %s has", PlanSizingFile, b, j, items[i].Count, ct.Shape)
			}
			bin.Items = append(bin.Items, first[i]+used[i])
			used[i]++
		}
		bins = append(bins, bin)
	}
	return bins, count, nil
}

// checkSizingCurve re-verifies the index's sizing curve: the forecast's
// point is the sizing document's own, and every other point's lower bound
// is the one recomputed for its multiplier (flags sizeCurve) with the cost
// at least the bound. The other points' packings are not kept, so their
// costs are checked against the bounds only.
func checkSizingCurve(c *datasets.Cluster, d *datasets.Demand, p *plan.Plan, sizing *plan.PackingPlan) (string, error) {
	what := fmt.Sprintf("sizing curve: %s; the forecast's is the sizing's, the others' lower bounds recomputed and at most their costs", plural.Count(len(p.SizingCurve), "point"))
	multipliers := []float64{1}
	if s := p.Flags["sizeCurve"]; s != "" {
		for _, f := range strings.Split(s, ",") {
			m, err := strconv.ParseFloat(f, 64)
			if err != nil || !(m > 0) {
				return what, fmt.Errorf("%s: flags.sizeCurve %q: %q is not a positive number", plan.PlanFile, s, f)
			}
			multipliers = append(multipliers, m)
		}
	}
	for i, pt := range p.SizingCurve {
		field := fmt.Sprintf("%s: sizingCurve[%d] (%s)", plan.PlanFile, i, pt.Label)
		m := -1.0
		for _, x := range multipliers {
			if sizingLabel(x) == pt.Label {
				m = x
			}
		}
		if m < 0 {
			return what, fmt.Errorf("%s: the label names no multiplier of flags.sizeCurve", field)
		}
		if m == 1 {
			if want := sizingPoint(pt.Label, sizing); *want != pt {
				return what, fmt.Errorf("%s: %+v, the sizing document gives %+v", field, pt, *want)
			}
			continue
		}
		lb, err := sizingLowerBound(c, scaleDemand(d, m), sizing.Flags["nodeType"])
		switch {
		case err != nil:
			return what, fmt.Errorf("%s: %w", field, err)
		case math.Abs(lb-pt.LowerBound) > 1e-9*math.Max(1, lb):
			return what, fmt.Errorf("%s: lowerBound %v, the recomputed bound is %v", field, pt.LowerBound, lb)
		case pt.Cost < lb*(1-1e-9):
			return what, fmt.Errorf("%s: cost %v is below the lower bound %v", field, pt.Cost, lb)
		}
	}
	return what, nil
}

// sizingLabel is the label of the sizing curve's point for multiplier m.
func sizingLabel(m float64) string {
	if m == 1 {
		return "forecast"
	}
	return "forecast × " + strconv.FormatFloat(m, 'g', -1, 64)
}

// sizingLowerBound is the lower bound Size proves for a demand: on the
// node count for one unpriced node type, else on the cost of the mix.
func sizingLowerBound(c *datasets.Cluster, d *datasets.Demand, nodeTypes string) (float64, error) {
	types, err := parseNodeTypes(nodeTypes)
	if err != nil {
		return 0, err
	}
	if len(types) == 1 && !types[0].Priced {
		inst, _, _, _, err := newSizingInstance(c, d, types[0].Group)
		if err != nil {
			return 0, err
		}
		b, err := vbp.LowerBound(inst)
		return float64(b.Best), err
	}
	groups := make([]string, len(types))
	costs := make([]float64, len(types))
	for i, t := range types {
		groups[i], costs[i] = t.Group, t.Cost
	}
	mi, err := newMixedSizingInstance(c, d, groups, costs)
	if err != nil {
		return 0, err
	}
	lb, _, err := vbp.MixedLowerBound(mi.Instance)
	return lb, err
}
