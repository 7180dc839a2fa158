package datasets

import (
	"fmt"
	"slices"

	"github.com/capplan/capplan/internal/inputerr"
)

// FeasibleDemand splits a demand into the part the cluster can hold and
// the problems of the rest, for jobs that plan what they can and name
// what they cannot (`capplan plan`). It keeps CheckDemand's rules:
//
//   - a minCapacity or request shape naming a resource the cluster does not
//     declare is bad input: the error is CheckDemand's and nothing is
//     returned;
//   - an application no node may run (selector, minCapacity) is left out,
//     with CheckDemand's explanation;
//   - a request shape that fits no node its application may run on is
//     left out of that application's requests;
//   - an application with colocateWith naming an application left out is
//     left out too (it may only run beside it), repeatedly; exlocateWith
//     entries naming an application left out are dropped (the rule can no
//     longer bind).
//
// The feasible demand is a new Demand (the same Source) whose applications
// are copies in input order; the input is not changed. Every problem has
// the field path of the part left out. A demand CheckDemand accepts is
// returned as a copy with no problems. Cost that of CheckDemand.
func FeasibleDemand(c *Cluster, d *Demand) (*Demand, []inputerr.Problem, error) {
	m := newMatching(c, d)
	hard := &inputerr.List{File: d.Source}
	for a := range d.Applications {
		app := &d.Applications[a]
		path := indexPath("applications", a)
		m.reportUndeclared(hard, path+".minCapacity", app.MinCapacity)
		for r := range app.Requests {
			m.reportUndeclared(hard, indexPath(path+".requests", r)+".shape", app.Requests[r].Shape)
		}
	}
	if err := hard.Err(); err != nil {
		return nil, nil, err
	}
	soft := &inputerr.List{File: d.Source}
	dropped := make([]bool, len(d.Applications))
	apps := make([]Application, len(d.Applications))
	for a := range d.Applications {
		app := d.Applications[a]
		path := indexPath("applications", a)
		if !m.anyEligible(a) {
			m.explainIneligible(soft, a, path)
			dropped[a] = true
			continue
		}
		var keep []Request
		for r, rq := range app.Requests {
			if m.shapeFits(rq.Shape, func(p int) bool { return m.isEligible(p, a) }) {
				keep = append(keep, rq)
				continue
			}
			soft.Add(indexPath(path+".requests", r)+".shape", "shape %s fits no node application %q may run on", formatQuantities(rq.Shape), app.Name)
		}
		app.Requests = keep
		apps[a] = app
	}
	// Colocation with an application left out rules the colocated one out.
	index := map[string]int{}
	for a, app := range d.Applications {
		index[app.Name] = a
	}
	for changed := true; changed; {
		changed = false
		for a, app := range d.Applications {
			if dropped[a] {
				continue
			}
			for _, other := range app.ColocateWith {
				if b, ok := index[other]; ok && dropped[b] {
					soft.Add(indexPath("applications", a)+".colocateWith",
						"application %q may only run beside %q, which can run on no node", app.Name, other)
					dropped[a], changed = true, true
					break
				}
			}
		}
	}
	out := &Demand{Source: d.Source}
	for a := range apps {
		if dropped[a] {
			continue
		}
		app := apps[a]
		app.ExlocateWith = slices.DeleteFunc(slices.Clone(app.ExlocateWith), func(name string) bool {
			b, ok := index[name]
			return ok && dropped[b]
		})
		out.Applications = append(out.Applications, app)
	}
	var problems []inputerr.Problem
	if err, ok := soft.Err().(*inputerr.Error); ok {
		problems = err.Problems
	}
	if len(out.Applications) == 0 {
		return nil, nil, fmt.Errorf("%s: no application can run on any node of %s: %w", d.Source, c.Source, soft.Err())
	}
	return out, problems, nil
}
