package datasets

import (
	"fmt"
	"math"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/validate/content"

	"github.com/capplan/capplan/internal/inputerr"
)

var (
	clusterFields = []string{"apiVersion", "kind", "resources", "nodes"}
	groupFields   = []string{"name", "count", "rack", "racks", "labels", "taints", "capacity"}
)

// clusterFromTree reads a capplan/v1 Cluster whose header readKind has
// checked. It returns nil only when problems were reported.
func clusterFromTree(ps *inputerr.List, root any) *Cluster {
	o, ok := asObject(ps, "", root, clusterFields)
	if !ok {
		return nil
	}
	c := &Cluster{}
	resIndex, resOK := readResources(o, c)
	list, ok := o.list("nodes", true)
	if ok && len(list) == 0 {
		ps.Add("nodes", "the cluster has no node groups")
	}
	firstAt := map[string]int{}
	total := 0
	for i, v := range list {
		path := indexPath("nodes", i)
		g, ok := readGroup(ps, path, v, c.Resources, resIndex, resOK)
		if g.Name != "" {
			if j, dup := firstAt[g.Name]; dup {
				ps.Add(path+".name", "duplicate group name %q (first used by nodes[%d])", g.Name, j)
				ok = false
			} else {
				firstAt[g.Name] = i
			}
		}
		if ok {
			total += g.Count
			c.Groups = append(c.Groups, g)
		}
	}
	if total > MaxNodes {
		ps.Add("nodes", "%d nodes in all; at most %d are supported", total, MaxNodes)
	}
	return c
}

// readResources reads the resource list into c.Resources. ok is false when
// the list is missing or wrong, so that capacities are not also reported
// against it.
func readResources(o object, c *Cluster) (map[string]int, bool) {
	names, ok := o.stringList("resources")
	if !ok {
		if !o.has("resources") {
			o.missing("resources")
		}
		return nil, false
	}
	if len(names) == 0 {
		o.ps.Add("resources", "list at least one resource, e.g. [cpu, memory]")
		return nil, false
	}
	index := make(map[string]int, len(names))
	good := true
	for i, n := range names {
		path := indexPath("resources", i)
		if !checkResourceName(o.ps, path, n) {
			good = false
			continue
		}
		if j, dup := index[n]; dup {
			o.ps.Add(path, "duplicate resource %q (also resources[%d])", n, j)
			good = false
			continue
		}
		index[n] = i
	}
	c.Resources = names
	return index, good
}

// checkResourceName reports a resource name that is empty or not a
// Kubernetes qualified name (cpu, memory, nvidia.com/gpu, ...).
func checkResourceName(ps *inputerr.List, path, name string) bool {
	if name == "" {
		ps.Add(path, "resource name must not be empty")
		return false
	}
	if errs := content.IsLabelKey(name); len(errs) > 0 {
		ps.Add(path, "invalid resource name %q: %s", clip(name), strings.Join(errs, "; "))
		return false
	}
	return true
}

func readGroup(ps *inputerr.List, path string, v any, resources []string, resIndex map[string]int, resOK bool) (NodeGroup, bool) {
	o, ok := asObject(ps, path, v, groupFields)
	if !ok {
		return NodeGroup{}, false
	}
	before := ps.Len()
	var g NodeGroup
	g.Name, _ = o.name("name")
	g.Count = readCount(o, g.Name)
	g.Racks = readRacks(o)
	if m, ok := o.mapping("labels", false); ok {
		g.Labels = readLabels(ps, o.at("labels"), m)
	}
	if list, ok := o.list("taints", false); ok {
		for i, v := range list {
			p := indexPath(o.at("taints"), i)
			var t corev1.Taint
			if decodeStrict(ps, p, v, &t, "a Kubernetes taint (key, value, effect)") && checkTaint(ps, p, t) {
				g.Taints = append(g.Taints, t)
			}
		}
	}
	g.Capacity = make(Vector, len(resources))
	if m, ok := o.mapping("capacity", true); ok {
		if len(m) == 0 {
			ps.Add(o.at("capacity"), "is empty: give the capacity of at least one resource")
		}
		for name, q := range quantityMap(ps, o.at("capacity"), m, positive) {
			if j, declared := resIndex[name]; declared {
				g.Capacity[j] = q
			} else if resOK {
				ps.Add(fieldPath(o.at("capacity"), name), "resource %q is not declared in resources [%s]%s",
					name, strings.Join(resources, ", "), suggestName(name, resources))
			}
		}
	}
	return g, ps.Len() == before
}

// readCount reads a group's count: 1 when absent (a listed node is one
// machine), and an error naming the group when it is not a whole number
// of nodes between 1 and MaxNodes.
func readCount(o object, name string) int {
	n, ok := o.number("count", false)
	if !ok {
		if o.has("count") {
			return 0 // reported by number
		}
		return 1
	}
	what := "node group"
	if name != "" {
		what = fmt.Sprintf("node group %q", name)
	}
	v, ok := checkInteger(o.ps, o.at("count"), n, math.MinInt64, math.MaxInt64)
	switch {
	case !ok:
		return 0
	case v < 1:
		o.ps.Add(o.at("count"), "%s must have at least 1 node, got %d (leave count out for one node)", what, v)
		return 0
	case v > MaxNodes:
		o.ps.Add(o.at("count"), "%s has %d nodes, more than the %d supported", what, v, MaxNodes)
		return 0
	}
	return int(v)
}

// readRacks reads rack or racks (round-robin), which exclude each other.
func readRacks(o object) []string {
	if o.has("rack") && o.has("racks") {
		o.ps.Add(o.at("racks"), "give rack or racks, not both")
		return nil
	}
	if r, ok := o.str("rack", false); ok {
		if checkLabelValue(o.ps, o.at("rack"), r, true) {
			return []string{r}
		}
		return nil
	}
	racks, ok := o.stringList("racks")
	if !ok {
		return nil
	}
	if len(racks) == 0 {
		o.ps.Add(o.at("racks"), "is empty: list at least one rack, or leave racks out")
	}
	for i, r := range racks {
		checkLabelValue(o.ps, indexPath(o.at("racks"), i), r, true)
	}
	return racks
}

// readLabels reads a label map, checking Kubernetes label syntax.
func readLabels(ps *inputerr.List, path string, m map[string]any) map[string]string {
	out := make(map[string]string, len(m))
	for _, k := range sortedKeys(m) {
		p := fieldPath(path, k)
		keyOK := true
		if errs := content.IsLabelKey(k); len(errs) > 0 {
			ps.Add(p, "invalid label key %q: %s", clip(k), strings.Join(errs, "; "))
			keyOK = false
		}
		s, isStr := m[k].(string)
		if !isStr {
			ps.Add(p, "label value must be a string, got %s%s", describe(m[k]), quoteHint(m[k]))
			continue
		}
		if checkLabelValue(ps, p, s, false) && keyOK {
			out[k] = s
		}
	}
	return out
}

// checkLabelValue reports a value that is not a valid Kubernetes label
// value (or is empty, when nonEmpty).
func checkLabelValue(ps *inputerr.List, path, v string, nonEmpty bool) bool {
	if nonEmpty && v == "" {
		ps.Add(path, "must not be empty")
		return false
	}
	if errs := content.IsLabelValue(v); len(errs) > 0 {
		ps.Add(path, "invalid label value %q: %s", clip(v), strings.Join(errs, "; "))
		return false
	}
	return true
}

// suggestName returns `; did you mean "x"?` when name is a near miss of one
// of names.
func suggestName(name string, names []string) string {
	if s := suggest(name, names); strings.HasPrefix(s, ";") {
		return s
	}
	return ""
}
