package pipeline

import (
	"fmt"

	"github.com/capplan/capplan/binpack/vbp"
	"github.com/capplan/capplan/plan"
)

// newSizingPlan builds the sizing-mode PackingPlan of a vector packing:
// one node per bin (named node-1, node-2, ...), every container with its
// size, the lower bounds, and the stranded capacity. items describes each
// Instance.Items entry (nil: shape "item-<i>", no owner); units converts
// item units to base units per dimension (nil: 1).
func newSizingPlan(h plan.Header, dims []string, inst *vbp.Instance, res *vbp.Result, items []sizingItem, units []float64) *plan.PackingPlan {
	h.APIVersion, h.Kind = plan.APIVersion, plan.KindPackingPlan
	base := func(d int, v int64) float64 {
		if units == nil {
			return float64(v)
		}
		return float64(v) / units[d]
	}
	doc := &plan.PackingPlan{
		Header:       h,
		Mode:         "sizing",
		Resources:    dims,
		NodeCapacity: map[string]float64{},
		Method:       res.Method,
		NodesUsed:    res.Bins,
		LowerBound:   res.LowerBound.Best,
		Bounds:       map[string]int{"l1": res.LowerBound.L1, "clique": res.LowerBound.Clique, "l2": res.LowerBound.L2},
		Optimal:      res.Bins == res.LowerBound.Best,
		Unplaced:     []plan.UnplacedContainer{},
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
		node := plan.PackedNode{Name: fmt.Sprintf("node-%d", b+1), Containers: make([]plan.PackedContainer, 0, len(bin))}
		for _, k := range bin {
			i := owner[k]
			c := plan.PackedContainer{Shape: fmt.Sprintf("item-%d", i+1), Size: map[string]float64{}}
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
	capacity := make([]float64, len(dims))
	for d, dim := range dims {
		capacity[d] = doc.NodeCapacity[dim] * float64(res.Bins)
	}
	doc.Stranded = stranded(dims, capacity, used)
	return doc
}

// newMixedSizingPlan builds the sizing-mode PackingPlan of a mixed sizing:
// one node per bin (named TYPE-1, TYPE-2, ... per type), every container
// with its size, the nodes bought per type, the cost and its lower bound,
// and the stranded capacity over the nodes bought.
func newMixedSizingPlan(h plan.Header, in *mixedSizingInput, res *vbp.MixedResult) *plan.PackingPlan {
	h.APIVersion, h.Kind = plan.APIVersion, plan.KindPackingPlan
	mi := in.Instance
	base := func(d int, v int64) float64 { return float64(v) / in.Units[d] }
	sizeOf := func(v []int64) map[string]float64 {
		m := make(map[string]float64, len(v))
		for d, x := range v {
			m[in.Dims[d]] = base(d, x)
		}
		return m
	}
	doc := &plan.PackingPlan{
		Header:         h,
		Mode:           "sizing",
		Resources:      in.Dims,
		Method:         res.Method,
		NodesUsed:      len(res.Bins),
		Cost:           res.Cost,
		CostLowerBound: res.LowerBound,
		CostBounds:     res.Bounds,
		Optimal:        res.Optimal,
		Unplaced:       []plan.UnplacedContainer{},
	}
	for t, nt := range mi.Types {
		doc.NodeTypes = append(doc.NodeTypes, plan.NodeTypeUse{Name: nt.Name, Capacity: sizeOf(nt.Capacity), Cost: nt.Cost, Nodes: res.Count[t]})
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
		node := plan.PackedNode{Name: fmt.Sprintf("%s-%d", nt.Name, seq[bin.Type]), Type: nt.Name, Capacity: sizeOf(nt.Capacity),
			Containers: make([]plan.PackedContainer, 0, len(bin.Items))}
		for d := range capacity {
			capacity[d] += base(d, nt.Capacity[d])
		}
		for _, k := range bin.Items {
			it := mi.Items[owner[k]]
			c := plan.PackedContainer{Shape: in.Items[owner[k]].Shape, Owner: in.Items[owner[k]].Owner, Size: sizeOf(it.Size)}
			for d := range used {
				used[d] += base(d, it.Size[d])
			}
			node.Containers = append(node.Containers, c)
		}
		doc.Nodes = append(doc.Nodes, node)
	}
	doc.Stranded = stranded(in.Dims, capacity, used)
	return doc
}
