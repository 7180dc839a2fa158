package reports

import (
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/plot/vg"

	"github.com/capplan/capplan/plan"
)

// maxNodeBars bounds the bars of a packing figure: beyond it, consecutive
// nodes are aggregated into one bar (their mean fill per owner).
const maxNodeBars = 160

// PackingFigures draws how full each node of a packing plan is, one
// figure per resource the nodes have (cpu, memory, then others): a bar per
// node, in plan order, stacked by owner (the share of the node's capacity
// the owner's containers take), so stranded capacity is the gap above the
// stack. With more than 160 nodes each bar averages ⌈nodes/160⌉
// consecutive nodes. The owner colours follow fs (may be nil).
func PackingFigures(pp *plan.PackingPlan, fs *plan.FairShare) ([]Figure, error) {
	if pp == nil || len(pp.Nodes) == 0 {
		return nil, errors.New("reports: packing figure: no nodes")
	}
	owners := newOwnerOrder(fs)
	var figs []Figure
	for _, res := range pp.Resources {
		if !nodesHave(pp, res) {
			continue
		}
		fig, err := packingFigure(pp, owners, res)
		if err != nil {
			return nil, err
		}
		figs = append(figs, fig)
	}
	return figs, nil
}

func nodeCapacity(pp *plan.PackingPlan, n *plan.PackedNode, res string) float64 {
	if n.Capacity != nil {
		return n.Capacity[res]
	}
	return pp.NodeCapacity[res]
}

func nodesHave(pp *plan.PackingPlan, res string) bool {
	for i := range pp.Nodes {
		if nodeCapacity(pp, &pp.Nodes[i], res) > 0 {
			return true
		}
	}
	return false
}

func packingFigure(pp *plan.PackingPlan, owners *ownerOrder, res string) (Figure, error) {
	n := len(pp.Nodes)
	per := (n + maxNodeBars - 1) / maxNodeBars
	bars := (n + per - 1) / per
	// fill[b][k] is the mean fraction of capacity owner k takes in bar b.
	fill := make([]map[int]float64, bars)
	for i := range pp.Nodes {
		node := &pp.Nodes[i]
		b := i / per
		if fill[b] == nil {
			fill[b] = map[int]float64{}
		}
		c := nodeCapacity(pp, node, res)
		if c <= 0 {
			continue // the node has none of res: an empty bar
		}
		for _, ct := range node.Containers {
			fill[b][owners.of(ct.Owner)] += ct.Size[res] / c
		}
	}
	var rs rects
	used := map[int]bool{}
	for b, f := range fill {
		width := min(per, n-b*per)
		y := 0.0
		keys := make([]int, 0, len(f))
		for k := range f {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			h := 100 * f[k] / float64(width)
			rs = append(rs, rect{x0: float64(b) + 0.1, x1: float64(b) + 0.9, y0: y, y1: y + h, color: seriesColor(k)})
			used[k] = true
			y += h
		}
	}
	_, unit := unitScale(res)
	xLabel := "node, in plan order"
	if per > 1 {
		xLabel = fmt.Sprintf("nodes, in plan order (each bar averages %d nodes)", per)
	}
	p := newPlot("Node fill by owner: "+res, xLabel, "% of node "+res+" ("+unit+")")
	leg := newSideLegend()
	p.Add(rs)
	for k, name := range owners.names {
		if used[k] {
			label := name
			if label == "" {
				label = "(no owner)"
			}
			leg.add(label, legendBox(seriesColor(k)))
		}
	}
	p.X.Min, p.X.Max = 0, float64(bars)
	p.Y.Min, p.Y.Max = 0, 100
	svg, err := renderSVG(p, leg, figureWidth, figureHeight+vg.Inch)
	if err != nil {
		return Figure{}, err
	}
	return Figure{
		Name:    "packing-" + res,
		Title:   "Node packing: " + res,
		Caption: "Share of each node's " + res + " taken by each owner's containers; the gap above a bar is stranded capacity.",
		SVG:     svg,
	}, nil
}
