package datasets

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/capplan/capplan/internal/inputerr"
)

// CheckDemand checks a demand against a cluster and reports, all at once
// (as an *inputerr.Error on the demand file):
//   - a minCapacity or request shape naming a resource the cluster does not
//     declare;
//   - an application no node may run (its selector matches no node, or no
//     matching node has enough of a minCapacity resource), with the reason;
//   - a request shape that fits no node the application may run on.
func CheckDemand(c *Cluster, d *Demand) error {
	m := newMatching(c, d)
	ps := &inputerr.List{File: d.Source}
	for a := range d.Applications {
		m.checkApplication(ps, a, true)
	}
	return ps.Err()
}

// checkApplication reports application a's undeclared resources and, if it
// may run nowhere, why; with requests, also its undeclared request
// resources and the shapes that fit none of its nodes.
func (m *matching) checkApplication(ps *inputerr.List, a int, requests bool) {
	app := &m.d.Applications[a]
	path := indexPath("applications", a)
	m.reportUndeclared(ps, path+".minCapacity", app.MinCapacity)
	if !m.undeclared[a] && !m.anyEligible(a) {
		m.explainIneligible(ps, a, path)
	}
	if !requests {
		return
	}
	for r := range app.Requests {
		shapePath := indexPath(path+".requests", r) + ".shape"
		shape := app.Requests[r].Shape
		if m.reportUndeclared(ps, shapePath, shape) || !m.anyEligible(a) {
			continue
		}
		if !m.shapeFits(shape, func(p int) bool { return m.isEligible(p, a) }) {
			ps.Add(shapePath, "shape %s fits no node application %q may run on", formatQuantities(shape), app.Name)
		}
	}
}

// reportUndeclared reports every key of q that the cluster does not declare
// and returns whether there was one.
func (m *matching) reportUndeclared(ps *inputerr.List, path string, q map[string]resource.Quantity) bool {
	found := false
	for _, r := range sortedKeys(q) {
		if _, ok := m.resIndex[r]; !ok {
			ps.Add(fieldPath(path, r), "resource %q is not declared by cluster %s (resources: %s)%s",
				r, m.c.Source, strings.Join(m.c.Resources, ", "), suggestName(r, m.c.Resources))
			found = true
		}
	}
	return found
}

// shapeFits reports whether some profile accepted by ok has at least shape
// in every resource (all declared).
func (m *matching) shapeFits(shape map[string]resource.Quantity, ok func(p int) bool) bool {
	for p := range m.profiles {
		if ok(p) && m.covers(p, shape) {
			return true
		}
	}
	return false
}

func (m *matching) covers(p int, shape map[string]resource.Quantity) bool {
	for r, q := range shape {
		milli, _ := Milli(q)
		if m.profiles[p].milli[m.resIndex[r]] < milli {
			return false
		}
	}
	return true
}

// explainIneligible reports why application a may run on no node: its
// selector matches no node, or the matching nodes lack minCapacity
// resources (each lacking resource with the largest amount on offer), or
// no matching node has all of them at once.
func (m *matching) explainIneligible(ps *inputerr.List, a int, path string) {
	app := &m.d.Applications[a]
	var matched []int
	for p := range m.profiles {
		if m.selects(p, a) {
			matched = append(matched, p)
		}
	}
	if len(matched) == 0 {
		ps.Add(path+".selector", "application %q can run on no node: selector %q matches no node", app.Name, app.selectorText())
		return
	}
	var tolerated []int
	for _, p := range matched {
		if m.tolerated(p, a) {
			tolerated = append(tolerated, p)
		}
	}
	if len(tolerated) == 0 {
		t, _ := untolerated(app.Tolerations, m.c.Groups[m.profiles[matched[0]].group].Taints)
		where := "every node matching its selector"
		if app.SelectorText == "" {
			where = "every node"
		}
		ps.Add(path+".tolerations", "application %q can run on no node: %s has a taint it does not tolerate (e.g. %s); add a toleration for it",
			app.Name, where, t.ToString())
		return
	}
	matched = tolerated
	where := "no node matching its selector"
	if app.SelectorText == "" {
		where = "no node"
	}
	var short []string
	for _, n := range m.needs[a] {
		best := m.profiles[matched[0]].milli[n.res]
		for _, p := range matched[1:] {
			best = max(best, m.profiles[p].milli[n.res])
		}
		if best < n.milli {
			r := m.c.Resources[n.res]
			short = append(short, fmt.Sprintf("%s (needs %s, largest is %s)", r, milliText(n.milli, n.format), milliText(best, n.format)))
		}
	}
	if len(short) > 0 {
		ps.Add(path+".minCapacity", "application %q can run on no node: %s has enough %s", app.Name, where, strings.Join(short, ", "))
		return
	}
	ps.Add(path+".minCapacity", "application %q can run on no node: %s has all of %s at once",
		app.Name, where, formatQuantities(app.MinCapacity))
}

// milliText renders a milli-value as a canonical quantity in format.
func milliText(milli int64, format resource.Format) string {
	return resource.NewMilliQuantity(milli, format).String()
}

// CheckWorkload checks a workload against a cluster and reports, all at
// once (as an *inputerr.Error on the workload file), every task demand
// naming a resource the cluster does not declare and every task demand no
// node can hold.
func CheckWorkload(c *Cluster, w *Workload) error {
	m := newMatching(c, &Demand{})
	ps := &inputerr.List{File: w.Source}
	check := func(path string, demand map[string]resource.Quantity) {
		if m.reportUndeclared(ps, path, demand) {
			return
		}
		if !m.shapeFits(demand, func(int) bool { return true }) {
			ps.Add(path, "demand %s fits no node of cluster %s", formatQuantities(demand), c.Source)
		}
	}
	for j, job := range w.Jobs {
		jp := indexPath("jobs", j)
		for s, st := range job.Stages {
			check(indexPath(jp+".stages", s)+".demand", st.Demand)
		}
		for t, task := range job.Tasks {
			check(indexPath(jp+".tasks", t)+".demand", task.Demand)
		}
	}
	return ps.Err()
}
