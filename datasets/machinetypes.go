package datasets

import (
	"maps"
	"strconv"

	"github.com/capplan/capplan/internal/inputerr"
)

// Instance is a cluster and a demand reduced to what fair sharing needs:
// machine types (classes of interchangeable nodes) and, per application,
// the types it may use and its integer weight.
type Instance struct {
	// Resources is the cluster's dimension order.
	Resources []string
	// Types are the machine types, ordered by their first node (groups in
	// file order, nodes in index order).
	Types []MachineType
	// Applications are in demand order.
	Applications []Eligibility
}

// MachineType is a class of nodes with equal capacity on which exactly the
// same applications may run.
type MachineType struct {
	// Name is the group of its first node, suffixed -2, -3, ... when an
	// earlier type already has that name.
	Name string
	// Count is the number of nodes.
	Count int64
	// Capacity of each node, in Instance.Resources order. Shared with the
	// cluster: do not modify.
	Capacity Vector
	// Labels are the labels all its nodes share (the rack label included).
	Labels map[string]string
	// Groups are the node groups its nodes come from, in order.
	Groups []string
	// Nodes are its node names, in order.
	Nodes []string
}

// Eligibility is one application of an Instance.
type Eligibility struct {
	Name string
	// Weight is the application's integer weight (see IntegerWeights).
	Weight int64
	// MaxMachines caps its machines; 0 means unbounded.
	MaxMachines int64
	// Types are the indices of the machine types it may use, increasing.
	Types []int
	// Machines is the number of nodes it may use: the sum of the counts of
	// Types.
	Machines int64
}

// Coalesce groups the nodes of c into machine types by (capacity vector,
// set of applications of d that may run on the node) and computes each
// application's eligible types and integer weight. Eligibility is
// selector match on the node's labels and at least minCapacity in every
// named resource, compared exactly. It costs O(profiles × applications)
// selector evaluations, a profile being one rack of one group, plus O(1)
// per node.
//
// An application that may run on no node, or whose minCapacity names an
// undeclared resource, makes Coalesce fail with an *inputerr.Error on the
// demand file naming every such application and why; weights too large
// give ErrWeightsTooLarge.
func Coalesce(c *Cluster, d *Demand) (*Instance, error) {
	m := newMatching(c, d)
	ps := &inputerr.List{File: d.Source}
	for a := range d.Applications {
		m.checkApplication(ps, a, false)
	}
	if err := ps.Err(); err != nil {
		return nil, err
	}
	weights, err := IntegerWeights(d.Applications)
	if err != nil {
		return nil, err
	}
	inst := &Instance{Resources: c.Resources}
	profType := make([]int, len(m.profiles)) // type of each profile, -1 until seen
	for p := range profType {
		profType[p] = -1
	}
	byKey := map[string]int{}
	names := map[string]bool{}
	var typeRep []int // a profile of each type, for its eligibility
	for g := range c.Groups {
		grp := &c.Groups[g]
		for i := 0; i < grp.Count; i++ {
			p := m.profileOf(g, i)
			t := profType[p]
			if t < 0 { // the first node of profile p: find or make its type
				key := m.typeKey(p)
				var ok bool
				if t, ok = byKey[key]; ok {
					inst.Types[t].Labels = commonLabels(inst.Types[t].Labels, m.profiles[p].labels)
				} else {
					t = len(inst.Types)
					byKey[key] = t
					inst.Types = append(inst.Types, MachineType{
						Name:     uniqueName(names, grp.Name),
						Capacity: grp.Capacity,
						Labels:   maps.Clone(m.profiles[p].labels),
					})
					typeRep = append(typeRep, p)
				}
				profType[p] = t
			}
			mt := &inst.Types[t]
			if n := len(mt.Groups); n == 0 || mt.Groups[n-1] != grp.Name {
				mt.Groups = append(mt.Groups, grp.Name)
			}
			mt.Nodes = append(mt.Nodes, grp.NodeName(i))
			mt.Count++
		}
	}
	inst.Applications = make([]Eligibility, len(d.Applications))
	for a := range d.Applications {
		e := Eligibility{Name: d.Applications[a].Name, Weight: weights[a], MaxMachines: d.Applications[a].MaxMachines}
		for t := range inst.Types {
			if m.isEligible(typeRep[t], a) {
				e.Types = append(e.Types, t)
				e.Machines += inst.Types[t].Count
			}
		}
		inst.Applications[a] = e
	}
	return inst, nil
}

// uniqueName returns name, or name-2, name-3, ... when taken, and marks the
// result taken.
func uniqueName(taken map[string]bool, name string) string {
	out := name
	for k := 2; taken[out]; k++ {
		out = name + "-" + strconv.Itoa(k)
	}
	taken[out] = true
	return out
}
