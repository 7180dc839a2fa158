package datasets

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/api/validate/content"
	sigsjson "sigs.k8s.io/json"

	"github.com/capplan/capplan/internal/inputerr"
)

// kubectlListFields are the fields of a NodeList (or a List of Nodes).
var kubectlListFields = []string{"apiVersion", "kind", "metadata", "items"}

// kubectlFromTree reads the output of `kubectl get nodes -o json` (a List
// or NodeList of Nodes) as a cluster. Every item is decoded strictly into a
// k8s.io/api/core/v1 Node (a field that is not part of a Node is an
// error), then:
//
//   - a cordoned node (spec.unschedulable) is left out, listed in
//     Cluster.Excluded;
//   - capacity is status.allocatable, falling back to status.capacity;
//     only schedulable resources count (kubeResource): cpu, memory,
//     ephemeral-storage, hugepages-* and extended resources such as
//     nvidia.com/gpu, and pods only with opts.Pods; zero amounts are
//     absent. Resources are cpu and memory, then the others sorted;
//   - nodes are grouped into node groups (kubeGroups): by instance type
//     and taints, else by allocatable, labels and taints.
//
// The rack of a node is the value of its label opts.RackLabel.
func kubectlFromTree(ps *inputerr.List, root any, opts LoadOptions) *Cluster {
	o, ok := asObject(ps, "", root, kubectlListFields)
	if !ok {
		return nil
	}
	items, ok := o.list("items", true)
	if ok && len(items) == 0 {
		ps.Add("items", "the node list has no nodes")
	}
	if len(items) > MaxNodes {
		ps.Add("items", "%d nodes; at most %d are supported", len(items), MaxNodes)
		return nil
	}
	c := &Cluster{}
	var nodes []kubeNode
	firstAt := map[string]int{}
	for i, v := range items {
		path := indexPath("items", i)
		before := ps.Len()
		n, ok := readKubeNode(ps, path, v, opts)
		if n.name != "" {
			if j, dup := firstAt[n.name]; dup {
				ps.Add(path+".metadata.name", "duplicate node name %q (also items[%d])", n.name, j)
			} else {
				firstAt[n.name] = i
			}
		}
		if !ok || ps.Len() > before {
			continue
		}
		if n.cordoned {
			c.Excluded = append(c.Excluded, Exclusion{Node: n.name, Reason: "cordoned (spec.unschedulable)"})
			continue
		}
		nodes = append(nodes, n)
	}
	if ps.Len() > 0 {
		return c
	}
	if len(nodes) == 0 && len(items) > 0 {
		what := fmt.Sprintf("all %d nodes are", len(items))
		if len(items) == 1 {
			what = "its only node is"
		}
		ps.Add("items", "no schedulable node: %s cordoned (spec.unschedulable)", what)
		return c
	}
	kubeGroups(c, nodes)
	return c
}

// kubeNode is one decoded Node, reduced to what planning uses.
type kubeNode struct {
	name, rack   string
	labels       map[string]string // with the rack label, as Node.Labels
	instanceType string
	taints       []corev1.Taint
	capacity     map[string]resource.Quantity
	cordoned     bool
}

// Instance-type labels, in the order they are looked up.
const (
	InstanceTypeLabel     = "node.kubernetes.io/instance-type"
	betaInstanceTypeLabel = "beta.kubernetes.io/instance-type"
	// hostnameLabel names one node; it is left out when nodes without an
	// instance type are grouped by their labels.
	hostnameLabel = "kubernetes.io/hostname"
)

// readKubeNode decodes and checks one item. ok is false when the item
// could not be decoded.
func readKubeNode(ps *inputerr.List, path string, v any, opts LoadOptions) (kubeNode, bool) {
	var n kubeNode
	item, ok := asObject(ps, path, v, nil)
	if !ok {
		return n, false
	}
	// The name first, so that duplicates are found even in nodes with
	// problems.
	if meta, ok := item.m["metadata"].(map[string]any); ok {
		n.name, _ = meta["name"].(string)
	}
	// Quantities are checked on the tree first: the checks bound the cost
	// of parsing hostile text and name the field.
	before := ps.Len()
	if sv, ok := item.get("status"); ok {
		if st, ok := sv.(map[string]any); ok {
			for _, key := range []string{"allocatable", "capacity"} {
				if m, ok := st[key].(map[string]any); ok {
					for _, r := range sortedKeys(m) {
						parseQuantity(ps, fieldPath(path+".status."+key, r), m[r], nonNegative)
					}
				}
			}
		}
	}
	if ps.Len() > before {
		return n, false
	}
	node, ok := decodeKubeNode(ps, path, v)
	if !ok {
		return n, false
	}
	if node.Kind != "" && node.Kind != "Node" {
		ps.Add(path+".kind", "got %q, want Node: the list must hold nodes only", clip(node.Kind))
		return n, false
	}
	if n.name = node.Name; n.name == "" {
		ps.Add(path+".metadata.name", "missing required field")
	}
	labels := map[string]string{}
	for _, k := range sortedKeys(node.Labels) {
		p := fieldPath(path+".metadata.labels", k)
		if errs := content.IsLabelKey(k); len(errs) > 0 {
			ps.Add(p, "invalid label key %q: %s", clip(k), strings.Join(errs, "; "))
			continue
		}
		if checkLabelValue(ps, p, node.Labels[k], false) {
			labels[k] = node.Labels[k]
		}
	}
	n.instanceType = labels[InstanceTypeLabel]
	if n.instanceType == "" {
		n.instanceType = labels[betaInstanceTypeLabel]
	}
	if rack := labels[opts.rackLabel()]; rack != "" {
		n.rack = rack
		if _, has := labels[RackLabel]; !has {
			labels[RackLabel] = rack
		}
	}
	n.labels = labels
	for k, t := range node.Spec.Taints {
		checkTaint(ps, indexPath(path+".spec.taints", k), t)
	}
	n.taints = node.Spec.Taints
	n.cordoned = node.Spec.Unschedulable
	key, amounts := "allocatable", node.Status.Allocatable
	if len(amounts) == 0 {
		key, amounts = "capacity", node.Status.Capacity
	}
	if amounts == nil {
		ps.Add(path+".status", "has neither allocatable nor capacity")
		return n, true
	}
	n.capacity = map[string]resource.Quantity{}
	names := make([]string, 0, len(amounts))
	for name := range amounts {
		names = append(names, string(name))
	}
	slices.Sort(names)
	for _, r := range names {
		if !checkResourceName(ps, fieldPath(path+".status."+key, r), r) {
			continue
		}
		if q := amounts[corev1.ResourceName(r)]; kubeResource(r, opts.Pods) && !q.IsZero() {
			n.capacity[r] = q
		}
	}
	if len(n.capacity) == 0 && !n.cordoned {
		ps.Add(path+".status."+key, "gives no schedulable resource (cpu, memory, ephemeral-storage, hugepages-*, extended resources; zero amounts count as none)")
	}
	return n, true
}

// strictFieldRE finds the field path in sigs.k8s.io/json's strict errors
// (`unknown field "spec.foo"`).
var strictFieldRE = regexp.MustCompile(`unknown field "([^"]*)"`)

// decodeKubeNode decodes one item strictly into a corev1.Node.
func decodeKubeNode(ps *inputerr.List, path string, v any) (corev1.Node, bool) {
	var node corev1.Node
	ok := decodeStrict(ps, path, v, &node, "a Kubernetes Node (k8s.io/api core/v1)")
	return node, ok
}

// decodeStrict decodes a tree value strictly into out, a Kubernetes API
// type (what names it in messages): a field that is not part of it and a
// value of the wrong type are reported at their field path.
func decodeStrict(ps *inputerr.List, path string, v any, out any, what string) bool {
	data, err := json.Marshal(v)
	if err != nil { // cannot happen: the tree came from JSON or YAML
		ps.Add(path, "cannot read the value: %v", err)
		return false
	}
	strict, err := sigsjson.UnmarshalStrict(data, out, sigsjson.DisallowUnknownFields, sigsjson.DisallowDuplicateFields)
	if err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			ps.Add(strictPath(path, te.Field), "must be %s, got %s", jsonTypeName(te.Type.Kind().String()), jsonValueName(te.Value))
		} else {
			ps.Add(path, "not %s: %s", what, strings.TrimPrefix(err.Error(), "json: "))
		}
		return false
	}
	for _, e := range strict {
		if m := strictFieldRE.FindStringSubmatch(e.Error()); m != nil {
			ps.Add(strictPath(path, m[1]), "unknown field: not part of %s", what)
		} else {
			ps.Add(path, "%s", strings.TrimPrefix(e.Error(), "json: "))
		}
	}
	return len(strict) == 0
}

// strictPath joins a path and a dotted field path of a strict error.
func strictPath(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

// jsonTypeName names a Go kind the way a user of JSON says it.
func jsonTypeName(kind string) string {
	switch kind {
	case "bool":
		return "true or false"
	case "string":
		return "a string"
	case "slice", "array":
		return "a list"
	case "map", "struct":
		return "a mapping"
	}
	return "a number"
}

// jsonValueName names the JSON value kind of an UnmarshalTypeError.
func jsonValueName(v string) string {
	switch v {
	case "object":
		return "a mapping"
	case "array":
		return "a list"
	case "bool":
		return "true or false"
	}
	return "a " + v
}

// kubeResource reports whether a node resource becomes a dimension: the
// resources the scheduler places pods by — cpu, memory,
// ephemeral-storage, hugepages-* and extended resources (a domain-prefixed
// name outside kubernetes.io, e.g. nvidia.com/gpu) — and pods when asked.
// attachable-volumes-* (volume attach limits) and any other name are not.
func kubeResource(name string, pods bool) bool {
	switch {
	case name == "cpu", name == "memory", name == "ephemeral-storage", strings.HasPrefix(name, "hugepages-"):
		return true
	case name == "pods":
		return pods
	}
	return isExtendedResource(name)
}

// isExtendedResource follows Kubernetes' IsExtendedResourceName: a
// domain-prefixed name outside *kubernetes.io/, not starting with
// "requests.".
func isExtendedResource(name string) bool {
	if !strings.Contains(name, "/") || strings.Contains(name, "kubernetes.io/") || strings.HasPrefix(name, "requests.") {
		return false
	}
	return len(content.IsLabelKey("requests."+name)) == 0
}
