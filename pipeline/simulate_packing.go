package pipeline

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/sim"
)

// ErrPacking is wrapped by errors about a packing plan that does not fit
// the simulated cluster or demand.
var ErrPacking = errors.New("pipeline: unusable packing plan")

// readPacking reads an ownership PackingPlan (--packing) from path, or
// from embedded bytes named name when path is "".
func (w *workload) readPacking(path, name string, embedded []byte) (*plan.PackingPlan, error) {
	data := embedded
	if path != "" {
		var err error
		if data, err = w.input("packing", path); err != nil {
			return nil, err
		}
		name = path
	} else {
		w.embedded("packing", name, data)
	}
	var pp plan.PackingPlan
	if err := plan.DecodeDocument(name, data, plan.KindPackingPlan, &pp); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPacking, err)
	}
	if pp.Mode != "ownership" {
		return nil, fmt.Errorf("%w: %s: mode: is %q, want \"ownership\" (a plan of `capplan pack --shapes`)", ErrPacking, name, pp.Mode)
	}
	return &pp, nil
}

// packingMilli returns, per resource, the milli-units of a container size
// in base units, or an error naming the field.
func packingMilli(at string, size map[string]float64, resources []string) ([]int64, error) {
	out := make([]int64, len(resources))
	for _, r := range sortedKeysOf(size) {
		d := slices.Index(resources, r)
		v := size[r]
		if d < 0 {
			return nil, fmt.Errorf("%s.size.%s: the cluster has no resource %q (resources: %s)", at, r, r, strings.Join(resources, ", "))
		}
		m := math.Round(v * 1000)
		if !(v >= 0) || math.IsInf(v, 0) || m > 1<<62 || math.Abs(v*1000-m) > 1e-6*math.Max(1, m) {
			return nil, fmt.Errorf("%s.size.%s: %v is not a finite amount ≥ 0 in whole thousandths", at, r, v)
		}
		out[d] = int64(m)
	}
	return out, nil
}

func sortedKeysOf[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// packedContainer is one container of a plan, checked.
type packedContainer struct {
	node  int
	owner sim.UserID
	shape string
	milli []int64
}

// checkPacking checks a plan against the cluster and the users (SIMULATE.md
// §1.4): every node is a node of the cluster (once), every owner a user,
// every size in the cluster's resources, and no node's containers exceed
// its capacity. Errors name the plan's field.
func checkPacking(name string, pp *plan.PackingPlan, c *datasets.Cluster, users []string) ([]packedContainer, error) {
	nodes := c.Nodes()
	index := map[string]int{}
	for i, n := range nodes {
		index[n.Name] = i
	}
	owners := map[string]sim.UserID{}
	for u, x := range users {
		owners[x] = sim.UserID(u)
	}
	seen := map[string]int{}
	var out []packedContainer
	for i, pn := range pp.Nodes {
		at := fmt.Sprintf("%s: nodes[%d]", name, i)
		ni, ok := index[pn.Name]
		if !ok {
			return nil, fmt.Errorf("%w: %s.name: node %q is not in cluster %s", ErrPacking, at, pn.Name, c.Source)
		}
		if j, dup := seen[pn.Name]; dup {
			return nil, fmt.Errorf("%w: %s.name: node %q appears again (first at nodes[%d])", ErrPacking, at, pn.Name, j)
		}
		seen[pn.Name] = i
		used := make([]int64, len(c.Resources))
		for k, ct := range pn.Containers {
			cat := fmt.Sprintf("%s.containers[%d]", at, k)
			u, ok := owners[ct.Owner]
			if !ok {
				return nil, fmt.Errorf("%w: %s.owner: application %q is not in the demand (applications: %s)", ErrPacking, cat, ct.Owner,
					strings.Join(users, ", "))
			}
			milli, err := packingMilli(cat, ct.Size, c.Resources)
			if err != nil {
				return nil, fmt.Errorf("%w: %w", ErrPacking, err)
			}
			for d, m := range milli {
				used[d] += m
			}
			out = append(out, packedContainer{node: ni, owner: u, shape: ct.Shape, milli: milli})
		}
		capm := nodes[ni].Capacity.Milli()
		for d, m := range used {
			if m > capm[d] {
				return nil, fmt.Errorf("%w: %s.containers: over-full: they need %s %s, node %s has %s", ErrPacking, at,
					trimFloat(float64(m)/1000), c.Resources[d], pn.Name, trimFloat(float64(capm[d])/1000))
			}
		}
	}
	return out, nil
}

// demandNames returns the demand's application names in order: the users
// of the simulation, in the same order.
func demandNames(d *datasets.Demand) []string {
	out := make([]string, len(d.Applications))
	for i, a := range d.Applications {
		out[i] = a.Name
	}
	return out
}

func trimFloat(x float64) string { return fmt.Sprintf("%g", x) }

// containerCluster cuts the cluster's nodes into the plan's containers
// (SIMULATE.md §1.4): every container is a machine of one task slot with
// the node's labels plus owner=APP, node=NAME and shape=SHAPE; the nodes' capacity
// outside containers stays unused but counts in the cluster's total.
func containerCluster(c *datasets.Cluster, q sim.Quanta, cs []packedContainer, users []string) *sim.Cluster {
	out := &sim.Cluster{Resources: slices.Clone(c.Resources), Quanta: q.BaseAll()}
	nodes := c.Nodes()
	for _, n := range nodes {
		capv := make(sim.Vec, len(c.Resources))
		for d, m := range n.Capacity.Milli() {
			capv[d] = q.CapacityMilli(d, m)
		}
		out.Nodes = append(out.Nodes, sim.Node{Name: n.Name, Cap: capv})
	}
	count := make([]int, len(nodes))
	for _, ct := range cs {
		capv := make(sim.Vec, len(c.Resources))
		for d, m := range ct.milli {
			capv[d] = q.CapacityMilli(d, m)
		}
		n := nodes[ct.node]
		l := map[string]string{}
		for _, k := range sortedKeysOf(n.Labels) {
			l[k] = n.Labels[k]
		}
		l["owner"], l["node"] = users[ct.owner], n.Name
		if ct.shape != "" {
			l["shape"] = ct.shape
		}
		out.Machines = append(out.Machines, sim.Machine{Name: fmt.Sprintf("%s/%d", n.Name, count[ct.node]), Cap: capv, Labels: l,
			Slots: 1, Node: int32(ct.node), Owner: ct.owner})
		count[ct.node]++
	}
	return out
}

// containerQuanta adds the plan's container sizes to a quanta builder.
func containerQuanta(cs []packedContainer) func(b *sim.QuantaBuilder) {
	return func(b *sim.QuantaBuilder) {
		for _, ct := range cs {
			for d, m := range ct.milli {
				b.AddMilli(d, m)
			}
		}
	}
}
