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
	si, err := newSizingItems(c, d, []string{group})
	if err != nil {
		return nil, nil, nil, nil, err
	}
	for a, allowed := range si.appAllowed {
		if len(allowed) == 0 {
			return nil, nil, nil, nil, fmt.Errorf("%s: application %s may not run on node group %s: %s", d.Source, d.Applications[a].Name, group, si.why[a])
		}
	}
	inst := &vbp.Instance{Name: group, Capacity: si.capacity[0], Items: si.items}
	return inst, si.dims, si.names, si.units, nil
}

// sizingItems is the common part of single- and mixed-type sizing: the
// dimensions used, exact units, the capacity of each node group asked for,
// and one item per (application, request) with the groups its application
// may use.
type sizingItems struct {
	dims     []string
	units    []float64
	capacity [][]int64 // per group, in units
	items    []vbp.Item
	names    []SizingItem
	// itemApp[i] is the demand application of items[i]; appAllowed[a]
	// the indices (into groups) it may use, why[a] the reason when none.
	itemApp    []int
	appAllowed [][]int
	why        []string
}

// newSizingItems builds the sizing items of d on nodes shaped like each of
// groups. Dimensions are the cluster resources some group offers or some
// request asks for; eligibility is the selector and minCapacity on the
// group's first node.
func newSizingItems(c *datasets.Cluster, d *datasets.Demand, groups []string) (*sizingItems, error) {
	gis := make([]int, len(groups))
	nodes := make([]datasets.Node, len(groups))
	all := c.Nodes()
	for j, group := range groups {
		gis[j] = -1
		for i := range c.Groups {
			if c.Groups[i].Name == group {
				gis[j] = i
			}
		}
		if gis[j] < 0 {
			var names []string
			for _, gr := range c.Groups {
				names = append(names, gr.Name)
			}
			return nil, fmt.Errorf("%w: %q is not a node group of %s (groups: %s)", ErrNoSuchGroup, group, c.Source, strings.Join(names, ", "))
		}
		for _, n := range all {
			if n.Group == group {
				nodes[j] = n
				break
			}
		}
	}
	sel := make([]datasets.NodeGroup, len(gis))
	for j, gi := range gis {
		sel[j] = c.Groups[gi]
	}
	si := &sizingItems{}
	var idx []int
	for i, r := range c.Resources {
		used := false
		for _, g := range sel {
			used = used || !g.Capacity[i].IsZero()
		}
		for _, a := range d.Applications {
			for _, rq := range a.Requests {
				_, ok := rq.Shape[r]
				used = used || ok
			}
		}
		if used {
			si.dims = append(si.dims, r)
			idx = append(idx, i)
		}
	}
	si.units = make([]float64, len(si.dims))
	for j, i := range idx {
		si.units[j] = exactUnit(sel, i, d, si.dims[j])
	}
	value := func(j int, milli int64) int64 {
		if si.units[j] == 1 {
			return milli / 1000
		}
		return milli
	}
	for _, g := range sel {
		capacity := make([]int64, len(si.dims))
		for j, i := range idx {
			capacity[j] = value(j, g.Capacity[i].MilliValue())
		}
		si.capacity = append(si.capacity, capacity)
	}
	for a, app := range d.Applications {
		var allowed []int
		why := ""
		for j, node := range nodes {
			if !app.Selector.Matches(labels.Set(node.Labels)) {
				why = fmt.Sprintf("selector %q", app.SelectorText)
				continue
			}
			ok := true
			for r, q := range app.MinCapacity {
				if i := indexOf(c.Resources, r); i < 0 || q.Cmp(node.Capacity[i]) > 0 {
					why = fmt.Sprintf("it needs at least %s %s", q.String(), r)
					ok = false
				}
			}
			if ok {
				allowed = append(allowed, j)
			}
		}
		si.appAllowed = append(si.appAllowed, allowed)
		si.why = append(si.why, why)
		for k, rq := range app.Requests {
			it := vbp.Item{Size: make([]int64, len(si.dims)), Count: int(rq.Count)}
			for j := range si.dims {
				if q, ok := rq.Shape[si.dims[j]]; ok {
					it.Size[j] = value(j, q.MilliValue())
				}
			}
			si.items = append(si.items, it)
			si.itemApp = append(si.itemApp, a)
			si.names = append(si.names, SizingItem{Shape: fmt.Sprintf("%s/%d", app.Name, k+1), Owner: app.Name})
		}
	}
	if len(si.items) == 0 {
		return nil, fmt.Errorf("%s: no application has requests to pack", d.Source)
	}
	return si, nil
}
