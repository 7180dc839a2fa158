package export

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/capplan/capplan/internal/plural"
)

// nodePlan says how node-labels.sh reaches each machine type's nodes and
// which applications own tainted nodes.
type nodePlan struct {
	// selector[t] is a label selector matching exactly the nodes of type
	// t, or "" when the type's labels cannot single them out.
	selector []string
	// tainted[u] is true when application u owns nodes that get its taint.
	tainted  []bool
	warnings []string
}

// nodePlan decides, per machine type, how to select its nodes: by name
// when the plan names them, else by its labels when they provably select
// no node of another type (exactSelector); and which owned nodes get a
// taint: those of applications without a sharing bound (an application
// with a bound lends its idle capacity, X-Flex §2, so its nodes stay open;
// without a demand no application is known to lend).
func (m *model) nodePlan() nodePlan {
	np := nodePlan{selector: make([]string, len(m.types)), tainted: make([]bool, len(m.apps))}
	for t, ty := range m.types {
		if len(ty.nodes) > 0 {
			continue
		}
		if sel, ok := m.exactSelector(t); ok {
			np.selector[t] = sel
		} else {
			np.warnings = append(np.warnings, fmt.Sprintf("machine type %s: the plan names none of its %s and its labels do not single them out, so node-labels.sh cannot label them (run capplan fairshare --per-node)", ty.name, plural.Count(ty.count, "node")))
		}
	}
	for _, u := range m.nodeOwner {
		np.tainted[u] = m.taints(u)
	}
	for t, ty := range m.types {
		if ty.owner >= 0 && np.selector[t] != "" {
			np.tainted[ty.owner] = m.taints(ty.owner)
		}
	}
	return np
}

// taints reports whether application u's owned nodes are tainted.
func (m *model) taints(u int) bool {
	s := m.apps[u].sharing
	return s == nil || s.Bound == nil
}

// exactSelector returns the selector "k1=v1,k2=v2,..." of the labels all
// nodes of type t share, when it provably matches no node of any other
// type: every other type shares a key with t whose value differs, so none
// of its nodes can carry t's value. A type without labels has none.
func (m *model) exactSelector(t int) (string, bool) {
	own := m.types[t].labels
	if len(own) == 0 {
		return "", false
	}
	for u, other := range m.types {
		if u == t {
			continue
		}
		separated := false
		for k, v := range own {
			if w, ok := other.labels[k]; ok && w != v {
				separated = true
				break
			}
		}
		if !separated {
			return "", false
		}
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(own)) {
		parts = append(parts, k+"="+own[k])
	}
	return strings.Join(parts, ","), true
}

// k8sNodeScript renders node-labels.sh: kubectl commands labelling every
// node with its machine type (capplan.io/machine-type, which the Kueue
// ResourceFlavors select) and every owned node with capplan.io/owner,
// tainting those of owners that do not lend (see nodePlan).
func (m *model) k8sNodeScript(np nodePlan) File {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	b.WriteString(commentLines("# ", provenance(m.doc)))
	b.WriteString("# Labels every node with its machine type (" + LabelMachineType + "); marks nodes the\n")
	b.WriteString("# plan gives wholly to one application with " + LabelOwner + "=<application> and, unless\n")
	b.WriteString("# the application lends (a sharing bound), taints them " + LabelOwner + "=<application>:NoSchedule.\n")
	b.WriteString("set -eu\n")
	for t, ty := range m.types {
		fmt.Fprintf(&b, "\n# machine type %s: %s\n", ty.name, plural.Count(ty.count, "node"))
		label := LabelMachineType + "=" + ty.id
		switch {
		case len(ty.nodes) > 0:
			writeNodeCommands(&b, "kubectl label nodes --overwrite", ty.nodes, label)
		case np.selector[t] != "":
			fmt.Fprintf(&b, "kubectl label nodes --overwrite -l %s %s\n", shellQuote(np.selector[t]), label)
			if u := ty.owner; u >= 0 {
				owner := LabelOwner + "=" + m.apps[u].id
				fmt.Fprintf(&b, "kubectl label nodes --overwrite -l %s %s\n", shellQuote(np.selector[t]), owner)
				if np.tainted[u] {
					fmt.Fprintf(&b, "kubectl taint nodes --overwrite -l %s %s:NoSchedule\n", shellQuote(np.selector[t]), owner)
				}
			}
		default:
			b.WriteString("# The plan does not name these nodes and their labels do not single them out:\n")
			fmt.Fprintf(&b, "#   kubectl label nodes --overwrite <node>... %s\n", label)
		}
	}
	// Owned nodes the plan names, grouped by owner in plan order.
	byOwner := make([][]string, len(m.apps))
	for _, ty := range m.types {
		for _, n := range ty.nodes {
			if u, ok := m.nodeOwner[n]; ok {
				byOwner[u] = append(byOwner[u], n)
			}
		}
	}
	for u, nodes := range byOwner {
		if len(nodes) == 0 {
			continue
		}
		owner := LabelOwner + "=" + m.apps[u].id
		fmt.Fprintf(&b, "\n# owned by %s: %s\n", m.apps[u].name, plural.Count(len(nodes), "node"))
		writeNodeCommands(&b, "kubectl label nodes --overwrite", nodes, owner)
		if np.tainted[u] {
			writeNodeCommands(&b, "kubectl taint nodes --overwrite", nodes, owner+":NoSchedule")
		}
	}
	return File{Path: K8sNodeLabelsPath, Data: []byte(b.String()), Executable: true}
}

// writeNodeCommands writes "cmd node... arg" for the nodes, at most
// nodesPerCommand per line.
func writeNodeCommands(b *strings.Builder, cmd string, nodes []string, arg string) {
	for start := 0; start < len(nodes); start += nodesPerCommand {
		end := min(start+nodesPerCommand, len(nodes))
		quoted := make([]string, 0, end-start)
		for _, n := range nodes[start:end] {
			quoted = append(quoted, shellQuote(n))
		}
		fmt.Fprintf(b, "%s %s %s\n", cmd, strings.Join(quoted, " "), arg)
	}
}
