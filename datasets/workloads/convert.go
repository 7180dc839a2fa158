package workloads

import (
	"fmt"
	"slices"
	"strings"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/sim"
)

// Quanta chooses the quanta (SIMULATE.md §1.1) of a cluster's resources
// from its capacities and the demands add reports (in exact milli-units or
// base units).
func Quanta(c *datasets.Cluster, add func(b *sim.QuantaBuilder)) sim.Quanta {
	b := sim.NewQuantaBuilder(len(c.Resources))
	for _, g := range c.Groups {
		for d, m := range g.Capacity.Milli() {
			b.AddMilli(d, m)
		}
	}
	if add != nil {
		add(b)
	}
	return b.Quanta()
}

// WorkloadDemands reports every demand of a Workload document to b, for
// Quanta; resources the cluster does not declare are skipped.
func WorkloadDemands(w *datasets.Workload, resources []string) func(b *sim.QuantaBuilder) {
	return func(b *sim.QuantaBuilder) {
		for _, j := range w.Jobs {
			for _, s := range j.Stages {
				for d, r := range resources {
					if q, ok := s.Demand[r]; ok {
						if milli, ok := datasets.Milli(q); ok {
							b.AddMilli(d, milli)
						}
					}
				}
			}
			for _, t := range j.Tasks {
				for d, r := range resources {
					if q, ok := t.Demand[r]; ok {
						if milli, ok := datasets.Milli(q); ok {
							b.AddMilli(d, milli)
						}
					}
				}
			}
		}
	}
}

// Cluster expands c into simulator machines (groups in file order, nodes
// in index order) with capacities in quanta, rounded down, and the nodes'
// labels (the rack included).
func Cluster(c *datasets.Cluster, q sim.Quanta) *sim.Cluster {
	out := &sim.Cluster{Resources: slices.Clone(c.Resources), Quanta: q.BaseAll()}
	capv := map[string]sim.Vec{}
	for gi := range c.Groups {
		g := &c.Groups[gi]
		v := make(sim.Vec, len(c.Resources))
		for d, m := range g.Capacity.Milli() {
			v[d] = q.CapacityMilli(d, m)
		}
		capv[g.Name] = v
	}
	for _, n := range c.Nodes() {
		out.Machines = append(out.Machines, sim.Machine{Name: n.Name, Cap: capv[n.Group], Labels: n.Labels, Node: -1, Owner: sim.NoUser})
	}
	return out
}

// Users converts a Demand's applications into users: exact integer
// weights in the applications' ratios, selectors, and minCapacity in
// quanta (rounded up).
func Users(d *datasets.Demand, resources []string, q sim.Quanta) ([]sim.User, error) {
	weights, err := datasets.IntegerWeights(d.Applications)
	if err != nil {
		return nil, err
	}
	us := make([]sim.User, len(d.Applications))
	for i := range d.Applications {
		a := &d.Applications[i]
		u := sim.User{Name: a.Name, Weight: weights[i], Constraint: sim.Constraint{Selector: a.Selector}, Sharing: sim.Sharing{Alone: a.Sharing.Alone}}
		if b := a.Sharing.Bound; b != nil {
			u.Sharing.Bound, u.Sharing.Set = *b, true
		}
		if len(a.MinCapacity) > 0 {
			u.Constraint.MinCapacity = make(sim.Vec, len(resources))
			for _, r := range sortedQuantityKeys(a.MinCapacity) {
				k := slices.Index(resources, r)
				if k < 0 {
					return nil, fmt.Errorf("%s: application %s: minCapacity names resource %q, which the cluster does not declare", d.Source, a.Name, r)
				}
				milli, _ := datasets.Milli(a.MinCapacity[r])
				u.Constraint.MinCapacity[k] = q.DemandMilli(k, milli)
			}
		}
		us[i] = u
	}
	return us, nil
}

func sortedQuantityKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// UserIndex maps group names to users. Without a Demand (users == nil),
// each distinct group becomes a user of weight 1, in order of first
// appearance, and a job without a group belongs to user "default".
type UserIndex struct {
	Users  []sim.User
	byName map[string]sim.UserID
	fixed  bool
	source string
}

// NewUserIndex indexes users; fixed users (from a Demand named source)
// make an unknown group an error.
func NewUserIndex(users []sim.User, source string) *UserIndex {
	x := &UserIndex{Users: users, byName: map[string]sim.UserID{}, fixed: users != nil, source: source}
	for i, u := range users {
		x.byName[u.Name] = sim.UserID(i)
	}
	return x
}

// Of returns the user of group, creating it when the users are not fixed.
func (x *UserIndex) Of(job, group string) (sim.UserID, error) {
	if group == "" && !x.fixed {
		group = "default"
	}
	if u, ok := x.byName[group]; ok {
		return u, nil
	}
	if x.fixed {
		var names []string
		for _, u := range x.Users {
			names = append(names, u.Name)
		}
		return 0, fmt.Errorf("job %s: group %q is not an application of %s (applications: %s)", job, group, x.source, strings.Join(names, ", "))
	}
	u := sim.UserID(len(x.Users))
	x.Users = append(x.Users, sim.User{Name: group, Weight: 1})
	x.byName[group] = u
	return u, nil
}

// FromWorkload converts a Workload document's jobs (dags.FromJob, then
// DAGConversion.Job), in file order. A job that cannot be expanded (too
// large, a resource the cluster lacks) is rejected with its reason; a job
// whose group names no application is an error.
func FromWorkload(w *datasets.Workload, conv *sim.DAGConversion, users *UserIndex) ([]sim.Job, []sim.Rejection, error) {
	var jobs []sim.Job
	var rejected []sim.Rejection
	for i := range w.Jobs {
		j := &w.Jobs[i]
		u, err := users.Of(j.Name, j.Group)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", w.Source, err)
		}
		d, err := dags.FromJob(j, conv.Resources, dags.WorkloadOptions{})
		if err != nil {
			rejected = append(rejected, sim.Rejection{Job: j.Name, Reason: err.Error()})
			continue
		}
		job, _, err := conv.Job(d, u, conv.Ticks(j.Arrival))
		if err != nil {
			rejected = append(rejected, sim.Rejection{Job: j.Name, Reason: err.Error()})
			continue
		}
		jobs = append(jobs, job)
	}
	return jobs, rejected, nil
}

// WorkloadResources returns the resources a Workload's demands name, for
// a message when the cluster lacks one.
func WorkloadResources(w *datasets.Workload) []string {
	set := map[string]bool{}
	var out []string
	for _, j := range w.Jobs {
		for _, s := range j.Stages {
			for _, r := range sortedQuantityKeys(s.Demand) {
				if !set[r] {
					set[r] = true
					out = append(out, r)
				}
			}
		}
		for _, t := range j.Tasks {
			for _, r := range sortedQuantityKeys(t.Demand) {
				if !set[r] {
					set[r] = true
					out = append(out, r)
				}
			}
		}
	}
	return out
}
