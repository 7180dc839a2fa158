package plan

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/capplan/capplan/binpack/vbp"
	"github.com/capplan/capplan/datasets"
)

// ErrNoSuchGroup is returned (wrapped) when sizing names a node group the
// cluster does not have.
var ErrNoSuchGroup = errors.New("plan: no such node group")

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

// NewSizingInstance builds the vector bin packing instance of a demand on
// nodes shaped like one node group: one item per (application, request)
// with its count, sizes in exact integer units (base units, or milli-units
// for a dimension with fractional quantities). Every application must be
// allowed on that group.
func NewSizingInstance(c *datasets.Cluster, d *datasets.Demand, group string) (*vbp.Instance, []string, []SizingItem, []float64, error) {
	var g *datasets.NodeGroup
	gi := -1
	for i := range c.Groups {
		if c.Groups[i].Name == group {
			g, gi = &c.Groups[i], i
		}
	}
	if g == nil {
		var names []string
		for _, gr := range c.Groups {
			names = append(names, gr.Name)
		}
		return nil, nil, nil, nil, fmt.Errorf("%w: %q is not a node group of %s (groups: %s)", ErrNoSuchGroup, group, c.Source, strings.Join(names, ", "))
	}
	var node datasets.Node
	for _, n := range c.Nodes() {
		if n.Group == group {
			node = n
			break
		}
	}
	nodeLabels := labels.Set(node.Labels)
	var dims []string
	var idx []int
	for i, r := range c.Resources {
		used := !g.Capacity[i].IsZero()
		for _, a := range d.Applications {
			for _, rq := range a.Requests {
				_, ok := rq.Shape[r]
				used = used || ok
			}
		}
		if used {
			dims = append(dims, r)
			idx = append(idx, i)
		}
	}
	units := make([]float64, len(dims))
	for j, i := range idx {
		units[j] = exactUnit(c.Groups[gi:gi+1], i, d, dims[j])
	}
	value := func(j int, milli int64) int64 {
		if units[j] == 1 {
			return milli / 1000
		}
		return milli
	}
	inst := &vbp.Instance{Name: group, Capacity: make([]int64, len(dims))}
	for j, i := range idx {
		inst.Capacity[j] = value(j, g.Capacity[i].MilliValue())
	}
	var items []SizingItem
	for _, a := range d.Applications {
		if !a.Selector.Matches(nodeLabels) {
			return nil, nil, nil, nil, fmt.Errorf("%s: application %s may not run on node group %s (selector %q)", d.Source, a.Name, group, a.SelectorText)
		}
		for r, q := range a.MinCapacity {
			if i := indexOf(c.Resources, r); i < 0 || q.Cmp(node.Capacity[i]) > 0 {
				return nil, nil, nil, nil, fmt.Errorf("%s: application %s needs at least %s %s, more than node group %s has", d.Source, a.Name, q.String(), r, group)
			}
		}
		for k, rq := range a.Requests {
			it := vbp.Item{Size: make([]int64, len(dims)), Count: int(rq.Count)}
			for j := range dims {
				if q, ok := rq.Shape[dims[j]]; ok {
					it.Size[j] = value(j, q.MilliValue())
				}
			}
			inst.Items = append(inst.Items, it)
			items = append(items, SizingItem{Shape: fmt.Sprintf("%s/%d", a.Name, k+1), Owner: a.Name})
		}
	}
	if len(items) == 0 {
		return nil, nil, nil, nil, fmt.Errorf("%s: no application has requests to pack", d.Source)
	}
	return inst, dims, items, units, nil
}
