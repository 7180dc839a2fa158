package datasets

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// kubeGroups groups the schedulable nodes of a kubectl node list into node
// groups, so that the machine types of a real cluster are its instance
// types rather than one type per hostname:
//
//   - nodes with the same instance type (label
//     node.kubernetes.io/instance-type, else
//     beta.kubernetes.io/instance-type) and the same taints form one group
//     named after the instance type;
//   - nodes without one are grouped by equal allocatable, labels (the
//     hostname label aside) and taints, named after their first node.
//
// A group whose name is taken gets -2, -3, ... Groups come in the order of
// their first node, members in list order. A group's capacity is, per
// resource, the smallest of its nodes' (nodes of one instance type may
// differ by a few KiB of allocatable memory): what every one of them
// offers. Such differences are recorded in c.Notes. Resources are cpu and
// memory, then the others sorted, each present on some node.
func kubeGroups(c *Cluster, nodes []kubeNode) {
	extra := map[string]bool{}
	for _, n := range nodes {
		for r := range n.capacity {
			if r != "cpu" && r != "memory" {
				extra[r] = true
			}
		}
	}
	c.Resources = append([]string{"cpu", "memory"}, sortedKeys(extra)...)
	index := map[string]int{}
	var members [][]kubeNode
	for _, n := range nodes {
		k := kubeGroupKey(n, c.Resources)
		g, ok := index[k]
		if !ok {
			g = len(members)
			index[k] = g
			members = append(members, nil)
		}
		members[g] = append(members[g], n)
	}
	taken := map[string]bool{}
	for _, ms := range members {
		name := ms[0].instanceType
		if name == "" {
			name = ms[0].name
		}
		g := NodeGroup{Name: uniqueName(taken, name), Count: len(ms), Taints: ms[0].taints}
		g.Capacity = make(Vector, len(c.Resources))
		for j, r := range c.Resources {
			g.Capacity[j] = ms[0].capacity[r]
			for _, n := range ms[1:] {
				if q := n.capacity[r]; q.Cmp(g.Capacity[j]) < 0 {
					g.Capacity[j] = q
				}
			}
		}
		g.Labels = ms[0].labels
		for _, n := range ms {
			g.Members = append(g.Members, Member{Name: n.name, Rack: n.rack, Labels: n.labels})
			g.Labels = commonLabels(g.Labels, n.labels)
		}
		if note := allocatableNote(g.Name, ms, c.Resources); note != "" {
			c.Notes = append(c.Notes, note)
		}
		c.Groups = append(c.Groups, g)
	}
}

// kubeGroupKey is the grouping key of a node: its instance type and
// taints, or, without an instance type, its allocatable, labels (the
// hostname aside) and taints.
func kubeGroupKey(n kubeNode, resources []string) string {
	var b strings.Builder
	if n.instanceType != "" {
		b.WriteString("type\x00" + n.instanceType)
	} else {
		b.WriteString("node")
		for _, r := range resources {
			q := n.capacity[r]
			milli, _ := Milli(q)
			fmt.Fprintf(&b, "\x00%d", milli)
		}
		for _, k := range sortedKeys(n.labels) {
			if k != hostnameLabel {
				b.WriteString("\x00" + k + "=" + n.labels[k])
			}
		}
	}
	b.WriteString("\x01")
	for _, t := range taintStrings(n.taints) {
		b.WriteString("\x00" + t)
	}
	return b.String()
}

// taintStrings renders taints as kubectl does (key=value:Effect), sorted.
func taintStrings(taints []corev1.Taint) []string {
	out := make([]string, len(taints))
	for i := range taints {
		out[i] = taints[i].ToString()
	}
	slices.Sort(out)
	return out
}

// allocatableNote describes how the nodes of a group differ in
// allocatable, or returns "" when they do not.
func allocatableNote(group string, ms []kubeNode, resources []string) string {
	var diffs []string
	for _, r := range resources {
		lo, hi := ms[0].capacity[r], ms[0].capacity[r]
		for _, n := range ms[1:] {
			q := n.capacity[r]
			if q.Cmp(lo) < 0 {
				lo = q
			}
			if q.Cmp(hi) > 0 {
				hi = q
			}
		}
		if lo.Cmp(hi) != 0 {
			diffs = append(diffs, fmt.Sprintf("%s %s to %s", r, quantityText(lo), quantityText(hi)))
		}
	}
	if len(diffs) == 0 {
		return ""
	}
	return fmt.Sprintf("node group %s: its %d nodes differ in allocatable (%s); planned with the smallest amount of each resource",
		group, len(ms), strings.Join(diffs, ", "))
}

// quantityText renders a quantity canonically ("0" for none).
func quantityText(q resource.Quantity) string { return q.String() }
