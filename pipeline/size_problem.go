package pipeline

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/capplan/capplan/binpack/vbp"
	"github.com/capplan/capplan/datasets"
)

// errNoSuchGroup is returned (wrapped) when sizing names a node group the
// cluster does not have.
var errNoSuchGroup = errors.New("no such node group")

// sizingItem describes the containers of a vbp item for a plan: their
// shape name and owner, and the factor from item units to base units per
// dimension.
type sizingItem struct {
	Shape, Owner string
}

// newSizingInstance builds the vector bin packing instance of a demand on
// nodes shaped like one node group: one item per (application, request)
// with its count, sizes in exact integer units (base units, or milli-units
// for a dimension with fractional quantities). Every application must be
// allowed on that group.
func newSizingInstance(c *datasets.Cluster, d *datasets.Demand, group string) (*vbp.Instance, []string, []sizingItem, []float64, error) {
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
	names    []sizingItem
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
			return nil, fmt.Errorf("%w: %q is not a node group of %s (groups: %s)", errNoSuchGroup, group, c.Source, strings.Join(names, ", "))
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
				if i := slices.Index(c.Resources, r); i < 0 || q.Cmp(node.Capacity[i]) > 0 {
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
			si.names = append(si.names, sizingItem{Shape: fmt.Sprintf("%s/%d", app.Name, k+1), Owner: app.Name})
		}
	}
	if len(si.items) == 0 {
		return nil, fmt.Errorf("%s: no application has requests to pack", d.Source)
	}
	return si, nil
}

// mixedSizingInput is the sizing problem of a demand on several node
// types with costs, with what is needed to write its plan.
type mixedSizingInput struct {
	Instance *vbp.MixedInstance
	// Dims, Units and Items are as for newSizingInstance.
	Dims  []string
	Units []float64
	Items []sizingItem
}

// newMixedSizingInstance builds the variable-sized vector bin packing
// instance of a demand on nodes shaped like the node groups, each node of
// groups[t] costing costs[t]: one item per (application, request), allowed
// on the groups the application may use (selector and minCapacity). An
// application allowed on none of the groups is an error naming it.
func newMixedSizingInstance(c *datasets.Cluster, d *datasets.Demand, groups []string, costs []float64) (*mixedSizingInput, error) {
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
	return &mixedSizingInput{Instance: mi, Dims: si.dims, Units: si.units, Items: si.names}, nil
}
