package plan

import (
	"fmt"

	"github.com/capplan/capplan/binpack/vbp"
)

// SizingItem describes the containers of a vbp item for a plan: their
// shape name and owner, and the factor from item units to base units per
// dimension.
type SizingItem struct {
	Shape, Owner string
}

// NewSizingPlan builds the sizing-mode PackingPlan of a vector packing:
// one node per bin (named node-1, node-2, ...), every container with its
// size, the lower bounds, and the stranded capacity. items describes each
// Instance.Items entry (nil: shape "item-<i>", no owner); units converts
// item units to base units per dimension (nil: 1).
func NewSizingPlan(h Header, dims []string, inst *vbp.Instance, res *vbp.Result, items []SizingItem, units []float64) *PackingPlan {
	h.APIVersion, h.Kind = APIVersion, KindPackingPlan
	base := func(d int, v int64) float64 {
		if units == nil {
			return float64(v)
		}
		return float64(v) / units[d]
	}
	doc := &PackingPlan{
		Header:       h,
		Mode:         "sizing",
		Resources:    dims,
		NodeCapacity: map[string]float64{},
		Method:       res.Method,
		NodesUsed:    res.Bins,
		LowerBound:   res.LowerBound.Best,
		Bounds:       map[string]int{"l1": res.LowerBound.L1, "clique": res.LowerBound.Clique, "l2": res.LowerBound.L2},
		Optimal:      res.Bins == res.LowerBound.Best,
		Unplaced:     []UnplacedContainer{},
	}
	for d, dim := range dims {
		doc.NodeCapacity[dim] = base(d, inst.Capacity[d])
	}
	// Item copies in Sizes() order belong to Items entries in order.
	owner := make([]int, 0, inst.NumItems())
	for i, it := range inst.Items {
		for c := 0; c < it.Count; c++ {
			owner = append(owner, i)
		}
	}
	sizes := inst.Sizes()
	used := make([]float64, len(dims))
	for b, bin := range res.Packing {
		node := PackedNode{Name: fmt.Sprintf("node-%d", b+1), Containers: make([]PackedContainer, 0, len(bin))}
		for _, k := range bin {
			i := owner[k]
			c := PackedContainer{Shape: fmt.Sprintf("item-%d", i+1), Size: map[string]float64{}}
			if items != nil {
				c.Shape, c.Owner = items[i].Shape, items[i].Owner
			}
			for d, dim := range dims {
				v := base(d, sizes[k][d])
				c.Size[dim] = v
				used[d] += v
			}
			node.Containers = append(node.Containers, c)
		}
		doc.Nodes = append(doc.Nodes, node)
	}
	for d, dim := range dims {
		total := doc.NodeCapacity[dim] * float64(res.Bins)
		s := Stranded{Resource: dim, Capacity: total, Used: used[d], Unused: total - used[d]}
		if total > 0 {
			s.Percent = 100 * s.Unused / total
		}
		doc.Stranded = append(doc.Stranded, s)
	}
	return doc
}
