package datasets

import (
	"strings"

	"github.com/capplan/capplan/internal/inputerr"
	"github.com/capplan/capplan/internal/topo"
)

// dagSpec says how checkDAG names the nodes of a DAG in messages.
type dagSpec struct {
	what string // "stage" or "task"
	base string // path of the list, e.g. jobs[0].stages
	key  string // field holding the node's name: "name" or "id"
}

// maxCycleShown bounds the names a cycle message lists.
const maxCycleShown = 12

// checkDAG checks the dependencies of one job: names unique, every after
// entry naming a node of the job, and no cycle. Each cycle found by a
// depth-first search (one per back edge) is reported by names, in
// dependency order: "cycle: stage a -> b -> a" means b runs after a and a
// after b. Empty names were reported already and are skipped. It returns
// the predecessor indices of each node.
func checkDAG(ps *inputerr.List, spec dagSpec, names []string, after [][]string) [][]int {
	nodePath := func(i int) string { return indexPath(spec.base, i) }
	index := make(map[string]int, len(names))
	for i, n := range names {
		if n == "" {
			continue
		}
		if j, dup := index[n]; dup {
			ps.Add(nodePath(i)+"."+spec.key, "duplicate %s %q (also %s)", spec.what, clip(n), nodePath(j))
			continue
		}
		index[n] = i
	}
	preds := make([][]int, len(names))
	succ := make([][]int, len(names))
	for i, refs := range after {
		for _, r := range refs {
			p, ok := index[r]
			if !ok {
				ps.Add(nodePath(i)+".after", "unknown %s %q%s", spec.what, clip(r), suggestName(r, names))
				continue
			}
			preds[i] = append(preds[i], p)
			succ[p] = append(succ[p], i)
		}
	}
	for _, cycle := range findCycles(succ) {
		last := cycle[len(cycle)-1]
		ps.Add(nodePath(last)+".after", "cycle: %s %s", spec.what, cycleText(names, cycle))
	}
	return preds
}

// findCycles returns, for every back edge v→w met by an iterative
// depth-first search over succ (starting from nodes in index order), the
// cycle w → ... → v → w as node indices, w repeated at the end
// (topo.Cycles).
func findCycles(succ [][]int) [][]int {
	return topo.Cycles(len(succ), func(v int) []int { return succ[v] }, 0)
}

// cycleText renders a cycle of node indices as "a -> b -> a", eliding the
// middle of long cycles.
func cycleText(names []string, cycle []int) string {
	parts := make([]string, 0, min(len(cycle), maxCycleShown+1))
	for k, v := range cycle {
		if len(cycle) > maxCycleShown && k == maxCycleShown-2 {
			parts = append(parts, "...")
		}
		if len(cycle) > maxCycleShown && k >= maxCycleShown-2 && k < len(cycle)-2 {
			continue
		}
		parts = append(parts, clip(names[v]))
	}
	return strings.Join(parts, " -> ")
}
