package export

import (
	"fmt"
	"strings"

	"github.com/capplan/capplan/internal/plural"
)

// nodesPerCommand bounds the nodes one generated command names, keeping
// command lines short on clusters with thousands of nodes.
const nodesPerCommand = 100

// yarnNodeLabels renders node-labels.sh: `yarn rmadmin
// -addToClusterNodeLabels` adding one exclusive label per machine type,
// then `yarn rmadmin -replaceLabelsOnNode "node=label ..."` for every node
// the plan names (Hadoop NodeLabel.md, centralized configuration), at most
// 100 nodes per command. The nodes of a type come from the FairShare's
// per-node assignment (capplan fairshare --per-node) or from an ownership
// PackingPlan; a type whose nodes no document names gets a comment and a
// warning instead of commands.
func (m *model) yarnNodeLabels() (*File, []string) {
	var warnings []string
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	b.WriteString(commentLines("# ", provenance(m.doc)))
	b.WriteString("# Adds one exclusive YARN node label (partition) per machine type and labels\n")
	b.WriteString("# every node the plan names. Run on a host with the yarn CLI and RM admin rights.\n")
	b.WriteString("set -eu\n\n")
	labels := make([]string, len(m.types))
	for t, ty := range m.types {
		labels[t] = ty.id + "(exclusive=true)"
	}
	fmt.Fprintf(&b, "yarn rmadmin -addToClusterNodeLabels %s\n", shellQuote(strings.Join(labels, ",")))
	for _, ty := range m.types {
		fmt.Fprintf(&b, "\n# machine type %s: %s\n", ty.name, plural.Count(ty.count, "node"))
		if len(ty.nodes) == 0 {
			b.WriteString("# The plan does not name these nodes (run capplan fairshare --per-node, or pass\n")
			b.WriteString("# an ownership packing plan): label them with\n")
			fmt.Fprintf(&b, "#   yarn rmadmin -replaceLabelsOnNode \"<node>=%s\"\n", ty.id)
			warnings = append(warnings, fmt.Sprintf("machine type %s: the plan names none of its %s, so node-labels.sh cannot label them", ty.name, plural.Count(ty.count, "node")))
			continue
		}
		for start := 0; start < len(ty.nodes); start += nodesPerCommand {
			end := min(start+nodesPerCommand, len(ty.nodes))
			pairs := make([]string, 0, end-start)
			for _, n := range ty.nodes[start:end] {
				pairs = append(pairs, n+"="+ty.id)
			}
			fmt.Fprintf(&b, "yarn rmadmin -replaceLabelsOnNode %s\n", shellQuote(strings.Join(pairs, " ")))
		}
	}
	return &File{Path: YARNNodeLabelsPath, Data: []byte(b.String()), Executable: true}, warnings
}

// shellQuote quotes s for a POSIX shell: inside single quotes, where a
// single quote in s closes the quotes, is escaped, and reopens them.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// YARN renders the YARN export of a plan: yarn/fair-scheduler.xml (a
// FairScheduler allocation file), yarn/capacity-scheduler.xml (a
// CapacityScheduler configuration with one node label per machine type)
// and yarn/node-labels.sh (the yarn rmadmin commands that create and
// assign those labels), with warnings about what the plan cannot express.
// Element and property names follow the Hadoop documentation
// (FairScheduler.md, CapacityScheduler.md, NodeLabel.md); every capacity
// percentage is an exact decimal in hundredths, summing to exactly 100 per
// parent queue and per label.
func YARN(in Input) (*Export, error) {
	m, err := newModel(in)
	if err != nil {
		return nil, err
	}
	fair, err := m.yarnFair()
	if err != nil {
		return nil, err
	}
	capacity, w1 := m.yarnCapacity()
	labels, w2 := m.yarnNodeLabels()
	return &Export{
		Files:    []File{*fair, *capacity, *labels},
		Warnings: prefixed("yarn", m.warnings, w1, w2),
	}, nil
}
