package datasets

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/api/validate/content"
)

// Independent checks of the invariants a loaded model promises, shared by
// the round-trip tests and the fuzz targets. Each returns a description of
// the first broken invariant, or "".

func clusterInvariant(c *Cluster) string {
	if len(c.Resources) == 0 || len(c.Groups) == 0 {
		return "no resources or no groups"
	}
	for i, r := range c.Resources {
		if len(content.IsLabelKey(r)) > 0 || slices.Index(c.Resources, r) != i {
			return fmt.Sprintf("bad or repeated resource %q", r)
		}
	}
	names := map[string]bool{}
	total := 0
	for _, g := range c.Groups {
		if g.Name == "" || names[g.Name] || g.Count < 1 {
			return fmt.Sprintf("group %q: bad name or count %d", g.Name, g.Count)
		}
		names[g.Name] = true
		total += g.Count
		if len(g.Capacity) != len(c.Resources) {
			return fmt.Sprintf("group %s: capacity has %d entries", g.Name, len(g.Capacity))
		}
		for _, q := range g.Capacity {
			if _, ok := Milli(q); !ok || q.Sign() < 0 {
				return fmt.Sprintf("group %s: capacity %s", g.Name, q.String())
			}
		}
		for k, v := range g.Labels {
			if len(content.IsLabelKey(k)) > 0 || len(content.IsLabelValue(v)) > 0 {
				return fmt.Sprintf("group %s: label %q=%q", g.Name, k, v)
			}
		}
		for _, r := range g.Racks {
			if r == "" || len(content.IsLabelValue(r)) > 0 {
				return fmt.Sprintf("group %s: rack %q", g.Name, r)
			}
		}
		if g.Members != nil && len(g.Members) != g.Count {
			return fmt.Sprintf("group %s: %d members for %d nodes", g.Name, len(g.Members), g.Count)
		}
	}
	if total > MaxNodes || total != c.NumNodes() {
		return fmt.Sprintf("%d nodes", total)
	}
	if total <= 10000 {
		seen := map[string]bool{}
		for _, n := range c.Nodes() {
			if seen[n.Name] {
				return "repeated node name " + n.Name
			}
			seen[n.Name] = true
		}
	}
	return ""
}

func demandInvariant(d *Demand) string {
	if len(d.Applications) == 0 {
		return "no applications"
	}
	names := map[string]bool{}
	for _, a := range d.Applications {
		if a.Name == "" || names[a.Name] || a.Weight == nil || a.Weight.Sign() <= 0 || a.Selector == nil || a.MaxMachines < 0 {
			return fmt.Sprintf("application %q: name, weight, selector or maxMachines", a.Name)
		}
		names[a.Name] = true
		if bad := positiveQuantities(a.MinCapacity); bad != "" {
			return "minCapacity " + bad
		}
		if a.Sharing.Alone && a.Sharing.Bound != nil || a.Sharing.Bound != nil && *a.Sharing.Bound < 0 {
			return fmt.Sprintf("application %s: sharing %+v", a.Name, a.Sharing)
		}
		for _, r := range a.Requests {
			if len(r.Shape) == 0 || r.Count < 1 || r.Duration < 0 {
				return fmt.Sprintf("application %s: request %+v", a.Name, r)
			}
			if bad := positiveQuantities(r.Shape); bad != "" {
				return "shape " + bad
			}
		}
	}
	if _, err := IntegerWeights(d.Applications); err != nil && !strings.Contains(err.Error(), "too large") {
		return err.Error()
	}
	return ""
}

func positiveQuantities(m map[string]resource.Quantity) string {
	for r, q := range m {
		if _, ok := Milli(q); !ok || q.Sign() <= 0 || len(content.IsLabelKey(r)) > 0 {
			return r + "=" + q.String()
		}
	}
	return ""
}

func workloadInvariant(w *Workload) string {
	if len(w.Jobs) == 0 {
		return "no jobs"
	}
	names := map[string]bool{}
	for _, j := range w.Jobs {
		if j.Name == "" || names[j.Name] || j.Arrival < 0 || (len(j.Stages) == 0) == (len(j.Tasks) == 0) {
			return fmt.Sprintf("job %q", j.Name)
		}
		names[j.Name] = true
		var ids []string
		var after [][]string
		for _, s := range j.Stages {
			if s.Tasks < 1 || s.Duration <= 0 || len(s.Demand) == 0 {
				return fmt.Sprintf("job %s stage %q", j.Name, s.Name)
			}
			ids, after = append(ids, s.Name), append(after, s.After)
		}
		for _, t := range j.Tasks {
			if t.Duration <= 0 || len(t.Demand) == 0 {
				return fmt.Sprintf("job %s task %q", j.Name, t.ID)
			}
			ids, after = append(ids, t.ID), append(after, t.After)
		}
		// Kahn's algorithm: every node must come out, or there is a cycle.
		index := map[string]int{}
		for i, id := range ids {
			if _, dup := index[id]; dup || id == "" {
				return fmt.Sprintf("job %s: repeated or empty name %q", j.Name, id)
			}
			index[id] = i
		}
		indeg := make([]int, len(ids))
		succ := make([][]int, len(ids))
		for i, refs := range after {
			for _, r := range refs {
				p, ok := index[r]
				if !ok {
					return fmt.Sprintf("job %s: unknown %q", j.Name, r)
				}
				succ[p] = append(succ[p], i)
				indeg[i]++
				if len(j.Stages) > 0 && j.Stages[i].Edge == OneToOne && j.Stages[p].Tasks != j.Stages[i].Tasks {
					return fmt.Sprintf("job %s: one-to-one between unequal stages", j.Name)
				}
			}
		}
		var queue []int
		for i, d := range indeg {
			if d == 0 {
				queue = append(queue, i)
			}
		}
		done := 0
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			done++
			for _, s := range succ[v] {
				if indeg[s]--; indeg[s] == 0 {
					queue = append(queue, s)
				}
			}
		}
		if done != len(ids) {
			return fmt.Sprintf("job %s has a cycle", j.Name)
		}
	}
	return ""
}

// nodesDiff compares two node lists by group, rack, labels and capacity
// (Quantity.Cmp), and by name unless ignoreNames.
func nodesDiff(a, b []Node, ignoreNames bool) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d nodes vs %d", len(a), len(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		// A kubectl inventory's nodes come back as their group's nodes:
		// names, racks and labels of their own are not kept.
		if !ignoreNames && (x.Name != y.Name || x.Rack != y.Rack || !maps.Equal(x.Labels, y.Labels)) || x.Group != y.Group || len(x.Capacity) != len(y.Capacity) {
			return fmt.Sprintf("node %d: %+v vs %+v", i, x, y)
		}
		for r := range x.Capacity {
			if x.Capacity[r].Cmp(y.Capacity[r]) != 0 {
				return fmt.Sprintf("node %d capacity %d: %s vs %s", i, r, x.Capacity[r].String(), y.Capacity[r].String())
			}
		}
	}
	return ""
}
