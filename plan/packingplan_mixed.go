package plan

import (
	"fmt"
	"strings"

	"github.com/capplan/capplan/binpack/vbp"
	"github.com/capplan/capplan/datasets"
)

// MixedSizingInput is the sizing problem of a demand on several node
// types with costs, with what is needed to write its plan.
type MixedSizingInput struct {
	Instance *vbp.MixedInstance
	// Dims, Units and Items are as for NewSizingInstance.
	Dims  []string
	Units []float64
	Items []SizingItem
}

// NewMixedSizingInstance builds the variable-sized vector bin packing
// instance of a demand on nodes shaped like the node groups, each node of
// groups[t] costing costs[t]: one item per (application, request), allowed
// on the groups the application may use (selector and minCapacity). An
// application allowed on none of the groups is an error naming it.
func NewMixedSizingInstance(c *datasets.Cluster, d *datasets.Demand, groups []string, costs []float64) (*MixedSizingInput, error) {
	si, err := newSizingItems(c, d, groups)
	if err != nil {
		return nil, err
	}
	for a, allowed := range si.appAllowed {
		if len(allowed) == 0 && len(d.Applications[a].Requests) > 0 {
			return nil, fmt.Errorf("%s: application %s may run on none of the node groups %s: %s", d.Source, d.Applications[a].Name, strings.Join(groups, ", "), si.why[a])
		}
	}
	mi := &vbp.MixedInstance{Name: strings.Join(groups, "+"), Items: si.items}
	for t, g := range groups {
		mi.Types = append(mi.Types, vbp.NodeType{Name: g, Capacity: si.capacity[t], Cost: costs[t]})
	}
	restricted := false
	for _, allowed := range si.appAllowed {
		restricted = restricted || len(allowed) < len(groups)
	}
	if restricted {
		mi.Allowed = make([][]int, len(si.items))
		for i, a := range si.itemApp {
			mi.Allowed[i] = si.appAllowed[a]
		}
	}
	return &MixedSizingInput{Instance: mi, Dims: si.dims, Units: si.units, Items: si.names}, nil
}

// NewMixedSizingPlan builds the sizing-mode PackingPlan of a mixed sizing:
// one node per bin (named TYPE-1, TYPE-2, ... per type), every container
// with its size, the nodes bought per type, the cost and its lower bound,
// and the stranded capacity over the nodes bought.
func NewMixedSizingPlan(h Header, in *MixedSizingInput, res *vbp.MixedResult) *PackingPlan {
	h.APIVersion, h.Kind = APIVersion, KindPackingPlan
	mi := in.Instance
	base := func(d int, v int64) float64 { return float64(v) / in.Units[d] }
	sizeOf := func(v []int64) map[string]float64 {
		m := make(map[string]float64, len(v))
		for d, x := range v {
			m[in.Dims[d]] = base(d, x)
		}
		return m
	}
	doc := &PackingPlan{
		Header:         h,
		Mode:           "sizing",
		Resources:      in.Dims,
		Method:         res.Method,
		NodesUsed:      len(res.Bins),
		Cost:           res.Cost,
		CostLowerBound: res.LowerBound,
		CostBounds:     res.Bounds,
		Optimal:        res.Optimal,
		Unplaced:       []UnplacedContainer{},
	}
	for t, nt := range mi.Types {
		doc.NodeTypes = append(doc.NodeTypes, NodeTypeUse{Name: nt.Name, Capacity: sizeOf(nt.Capacity), Cost: nt.Cost, Nodes: res.Count[t]})
	}
	owner := make([]int, 0)
	for i, it := range mi.Items {
		for c := 0; c < it.Count; c++ {
			owner = append(owner, i)
		}
	}
	nd := len(in.Dims)
	used := make([]float64, nd)
	capacity := make([]float64, nd)
	seq := make([]int, len(mi.Types))
	for _, bin := range res.Bins {
		nt := mi.Types[bin.Type]
		seq[bin.Type]++
		node := PackedNode{Name: fmt.Sprintf("%s-%d", nt.Name, seq[bin.Type]), Type: nt.Name, Capacity: sizeOf(nt.Capacity),
			Containers: make([]PackedContainer, 0, len(bin.Items))}
		for d := range capacity {
			capacity[d] += base(d, nt.Capacity[d])
		}
		for _, k := range bin.Items {
			it := mi.Items[owner[k]]
			c := PackedContainer{Shape: in.Items[owner[k]].Shape, Owner: in.Items[owner[k]].Owner, Size: sizeOf(it.Size)}
			for d := range used {
				used[d] += base(d, it.Size[d])
			}
			node.Containers = append(node.Containers, c)
		}
		doc.Nodes = append(doc.Nodes, node)
	}
	for d, dim := range in.Dims {
		s := Stranded{Resource: dim, Capacity: capacity[d], Used: used[d], Unused: capacity[d] - used[d]}
		if capacity[d] > 0 {
			s.Percent = 100 * s.Unused / capacity[d]
		}
		doc.Stranded = append(doc.Stranded, s)
	}
	return doc
}
