package datasets

import (
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/capplan/capplan/internal/inputerr"
)

// kubectlFromTree reads the output of `kubectl get nodes -o json` (a List
// or NodeList of Nodes) as a cluster with one single-node group per node,
// named after the node. Capacity comes from status.allocatable, falling
// back to status.capacity; zero amounts count as absent. Resources are cpu
// and memory, then every other resource found, sorted; pods,
// ephemeral-storage and hugepages-* are left out. The rack is the value of
// the label opts.RackLabel. Fields capplan does not use are ignored.
func kubectlFromTree(ps *inputerr.List, root any, opts LoadOptions) *Cluster {
	o, ok := asObject(ps, "", root, nil)
	if !ok {
		return nil
	}
	items, ok := o.list("items", true)
	if ok && len(items) == 0 {
		ps.Add("items", "the node list has no nodes")
	}
	type kubeNode struct {
		group    NodeGroup
		capacity map[string]resource.Quantity
	}
	var nodes []kubeNode
	firstAt := map[string]int{}
	extra := map[string]bool{}
	for i, v := range items {
		path := indexPath("items", i)
		before := ps.Len()
		g, capacity := readKubeNode(ps, path, v, opts.rackLabel())
		if g.Name != "" {
			if j, dup := firstAt[g.Name]; dup {
				ps.Add(path+".metadata.name", "duplicate node name %q (also items[%d])", g.Name, j)
			} else {
				firstAt[g.Name] = i
			}
		}
		if ps.Len() > before {
			continue
		}
		for r := range capacity {
			if r != "cpu" && r != "memory" {
				extra[r] = true
			}
		}
		nodes = append(nodes, kubeNode{g, capacity})
	}
	if len(nodes) > MaxNodes {
		ps.Add("items", "%d nodes; at most %d are supported", len(nodes), MaxNodes)
	}
	c := &Cluster{Resources: append([]string{"cpu", "memory"}, sortedKeys(extra)...)}
	for _, n := range nodes {
		n.group.Capacity = make(Vector, len(c.Resources))
		for j, r := range c.Resources {
			n.group.Capacity[j] = n.capacity[r]
		}
		c.Groups = append(c.Groups, n.group)
	}
	return c
}

// readKubeNode reads one Node item. Problems are reported; the caller
// drops a node that has any.
func readKubeNode(ps *inputerr.List, path string, v any, rackLabel string) (NodeGroup, map[string]resource.Quantity) {
	item, ok := asObject(ps, path, v, nil)
	if !ok {
		return NodeGroup{}, nil
	}
	if k, ok := item.str("kind", false); ok && k != "Node" {
		ps.Add(item.at("kind"), "got %q, want Node: the list must hold nodes only", clip(k))
		return NodeGroup{}, nil
	}
	g := NodeGroup{Count: 1}
	if mv, ok := item.get("metadata"); !ok {
		item.missing("metadata")
	} else if meta, ok := asObject(ps, item.at("metadata"), mv, nil); ok {
		g.Name, _ = meta.name("name")
		if m, ok := meta.mapping("labels", false); ok {
			g.Labels = readLabels(ps, meta.at("labels"), m)
		}
	}
	g.Hostnames = []string{g.Name}
	if rack, ok := g.Labels[rackLabel]; ok && rack != "" {
		g.Racks = []string{rack}
	}
	var capacity map[string]resource.Quantity
	if sv, ok := item.get("status"); !ok {
		item.missing("status")
	} else if status, ok := asObject(ps, item.at("status"), sv, nil); ok {
		key := "allocatable"
		if !status.has(key) {
			key = "capacity"
		}
		if m, ok := status.mapping(key, false); ok {
			before := ps.Len()
			capacity = kubeCapacity(ps, status.at(key), m)
			if len(capacity) == 0 && ps.Len() == before {
				ps.Add(status.at(key), "gives no capacity (pods, ephemeral-storage, hugepages-* and zero amounts are left out)")
			}
		} else if !status.has(key) {
			ps.Add(status.path, "has neither allocatable nor capacity")
		}
	}
	return g, capacity
}

// kubeCapacity parses an allocatable or capacity map, leaving out the
// resources capplan does not plan for and zero amounts.
func kubeCapacity(ps *inputerr.List, path string, m map[string]any) map[string]resource.Quantity {
	out := map[string]resource.Quantity{}
	for _, r := range sortedKeys(m) {
		if r == "pods" || r == "ephemeral-storage" || strings.HasPrefix(r, "hugepages-") {
			continue
		}
		p := fieldPath(path, r)
		if !checkResourceName(ps, p, r) {
			continue
		}
		if q, ok := parseQuantity(ps, p, m[r], nonNegative); ok && !q.IsZero() {
			out[r] = q
		}
	}
	return out
}
