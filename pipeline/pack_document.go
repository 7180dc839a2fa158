package pipeline

import (
	"math"
	"sort"

	"github.com/capplan/capplan/binpack"
	"github.com/capplan/capplan/binpack/xselect"
	"github.com/capplan/capplan/plan"
)

// newOwnershipPlan builds the ownership-mode PackingPlan of an X-Select
// plan: every node with containers (cluster order; containers by shape,
// then owner), λ and its bound, per owner the required, packed and
// charged size with target and achieved shares, the unplaced containers
// grouped by (shape, owner, reason) with the requests no shape holds, and
// the stranded capacity over the whole cluster. gone lists previous-plan
// nodes the cluster no longer has (incremental mode).
func newOwnershipPlan(h plan.Header, in *ownershipInput, xp *xselect.Plan, incremental bool, gone []string) *plan.PackingPlan {
	h.APIVersion, h.Kind = plan.APIVersion, plan.KindPackingPlan
	p := in.Problem
	nd := len(in.Resources)
	doc := &plan.PackingPlan{
		Header:           h,
		Mode:             "ownership",
		Resources:        in.Resources,
		Method:           "x-select",
		Nodes:            []plan.PackedNode{},
		Lambda:           xp.Lambda,
		LambdaUpperBound: xp.LambdaUpper,
		SharesFrom:       in.SharesFrom,
		Skipped:          in.Skipped,
		Incremental:      incremental,
		GoneNodes:        gone,
		Unplaced:         []plan.UnplacedContainer{},
	}
	if math.IsInf(doc.LambdaUpperBound, 1) { // JSON has no infinity; cannot happen with a non-empty mix
		doc.LambdaUpperBound = 0
	}
	owners := make([]plan.OwnerResult, len(p.Apps))
	for a, app := range p.Apps {
		o := &owners[a]
		o.Application, o.TargetShare, o.Size = app.Name, app.Share, map[string]float64{}
		for _, n := range in.Apps[a].Forecast {
			o.Forecast += n
		}
		r := xp.Apps[a]
		o.Required, o.Packed, o.Frozen, o.Surplus = r.Required, r.Packed, r.Frozen, r.Surplus
	}
	used := make([]float64, nd)
	capacity := make([]float64, nd)
	totalVol := 0.0
	for n, cs := range xp.Nodes {
		for i, v := range p.Nodes[n].Capacity {
			capacity[i] += v
		}
		if len(cs) == 0 {
			continue
		}
		cs = append([]xselect.Container(nil), cs...)
		sort.SliceStable(cs, func(i, j int) bool {
			if cs[i].Shape != cs[j].Shape {
				return cs[i].Shape < cs[j].Shape
			}
			return cs[i].Owner < cs[j].Owner
		})
		node := plan.PackedNode{Name: in.NodeNames[n], Type: in.NodeGroups[n], Capacity: sizeMap(in.Resources, p.Nodes[n].Capacity),
			Containers: make([]plan.PackedContainer, len(cs))}
		for i, c := range cs {
			size := p.Shapes[c.Shape]
			node.Containers[i] = plan.PackedContainer{Shape: in.ShapeNames[c.Shape], Owner: p.Apps[c.Owner].Name, Size: sizeMap(in.Resources, size)}
			v := in.volume(size)
			owners[c.Owner].ChargedSize += v
			totalVol += v
			for d, x := range size {
				used[d] += x
				if x != 0 {
					owners[c.Owner].Size[in.Resources[d]] += x
				}
			}
		}
		doc.Nodes = append(doc.Nodes, node)
	}
	doc.NodesUsed = len(doc.Nodes)
	for a := range owners {
		if totalVol > 0 {
			owners[a].AchievedShare = owners[a].ChargedSize / totalVol
		}
		owners[a].Deviation = owners[a].AchievedShare - owners[a].TargetShare
	}
	doc.Owners = owners
	for _, n := range xp.Changed {
		doc.Changed = append(doc.Changed, in.NodeNames[n])
	}
	doc.MutableLimit = xp.MutableLimit

	// Unplaced: group equal (shape, owner, reason), in first-seen order.
	group := map[[3]string]int{}
	for _, u := range xp.Unplaced {
		reason := u.Reason
		if u.Reason == xselect.ReasonNoEligibleNode {
			reason += ": " + in.largestEligibleShortfall(u.Owner, u.Shape)
		}
		key := [3]string{in.ShapeNames[u.Shape], p.Apps[u.Owner].Name, reason}
		if i, ok := group[key]; ok {
			doc.Unplaced[i].Count++
			continue
		}
		group[key] = len(doc.Unplaced)
		doc.Unplaced = append(doc.Unplaced, plan.UnplacedContainer{Shape: key[0], Owner: key[1], Reason: key[2], Count: 1})
	}
	doc.Unplaced = append(doc.Unplaced, in.Uncovered...)

	doc.Stranded = stranded(in.Resources, capacity, used)
	return doc
}

// largestEligibleShortfall describes why shape k fits no eligible node of
// application a: the shortfalls on the eligible node closest to holding it.
func (in *ownershipInput) largestEligibleShortfall(a, k int) string {
	p := in.Problem
	nodes := p.Apps[a].Eligible
	if nodes == nil {
		nodes = make([]int, len(p.Nodes))
		for n := range nodes {
			nodes[n] = n
		}
	}
	if len(nodes) == 0 {
		return "the application may run on no node"
	}
	caps := make([][]float64, len(nodes))
	for i, n := range nodes {
		caps[i] = p.Nodes[n].Capacity
	}
	i, short := binpack.Closest(caps, p.Shapes[k])
	if len(short) == 0 { // fits when empty: the rules rule it out
		return "placement rules (maxPerNode, colocateWith, exlocateWith) rule out every node that could hold it"
	}
	return describeShortfall(in.Resources, short, "node "+in.NodeNames[nodes[i]])
}
