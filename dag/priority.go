package dag

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
)

// Rule is a priority rule for list scheduling (ALGORITHMS §6.3; Kolisch,
// J. Oper. Mgmt 14(3), 1996; Kolisch & Hartmann 1999). Priority turns a
// rule into per-task values where smaller runs first; "max" rules are
// negated. Ties always go to the lower task index.
type Rule int

const (
	// LFT: min latest finish LF_j (CPM backward pass from T̄).
	LFT Rule = iota
	// LST: min latest start LS_j.
	LST
	// MSLK: min slack LS_j − ES_j.
	MSLK
	// MTS: max number of transitive successors.
	MTS
	// MIS: max number of immediate successors.
	MIS
	// GRPW: max dur_j + Σ_{i ∈ succ(j)} dur_i (greatest rank positional weight).
	GRPW
	// LPT: max duration.
	LPT
	// SPT: min duration.
	SPT
	// CP: max bottom level bl_j = dur_j + max_{succ} bl (critical path; Graphene's CPSched).
	CP
	// BFS: min breadth-first level of the task's stage (topological depth
	// in the stage graph), then stage index (Tez's default order).
	BFS
	// Random: a random priority from the seed (a random topological order).
	Random
	numRules
)

var ruleNames = [numRules]string{"lft", "lst", "mslk", "mts", "mis", "grpw", "lpt", "spt", "cp", "bfs", "random"}

// String returns the rule's lower-case name.
func (r Rule) String() string {
	if r < 0 || r >= numRules {
		return fmt.Sprintf("Rule(%d)", int(r))
	}
	return ruleNames[r]
}

// RuleByName returns the rule with the given name; an unknown name is an
// error listing the valid ones.
func RuleByName(name string) (Rule, error) {
	for r, n := range ruleNames {
		if n == name {
			return Rule(r), nil
		}
	}
	return 0, fmt.Errorf("dag: unknown priority rule %q (valid: %s)", name, strings.Join(ruleNames[:], ", "))
}

// Rules returns every rule.
func Rules() []Rule {
	r := make([]Rule, numRules)
	for i := range r {
		r[i] = Rule(i)
	}
	return r
}

// Priority returns the rule's value for every task (smaller first). The
// CPM rules use the horizon T̄ = horizon (the sum of durations when ≤ 0).
// rng is used by Random only. O(N+E), or O(E·N/64) for MTS.
func Priority(d *DAG, rule Rule, horizon int64, rng *rand.Rand) []float64 {
	n := d.N()
	v := make([]float64, n)
	if horizon <= 0 {
		horizon = d.TotalDuration()
	}
	switch rule {
	case LFT, LST, MSLK:
		c := Critical(d, horizon)
		for j := range v {
			switch rule {
			case LFT:
				v[j] = float64(c.LF[j])
			case LST:
				v[j] = float64(c.LS[j])
			default:
				v[j] = float64(c.LS[j] - c.ES[j])
			}
		}
	case MTS:
		for j, x := range transitiveSuccessors(d) {
			v[j] = -float64(x)
		}
	case MIS:
		for j := range v {
			v[j] = -float64(len(d.Succs(j)))
		}
	case GRPW:
		for j := range v {
			w := d.Tasks[j].Duration
			for _, s := range d.Succs(j) {
				w += d.Tasks[s].Duration
			}
			v[j] = -float64(w)
		}
	case LPT, SPT:
		for j := range v {
			v[j] = float64(d.Tasks[j].Duration)
			if rule == LPT {
				v[j] = -v[j]
			}
		}
	case CP:
		for j, bl := range BottomLevels(d) {
			v[j] = -float64(bl)
		}
	case BFS:
		depth := stageDepth(d)
		ns := float64(len(d.Stages))
		for j := range v {
			s := d.Tasks[j].Stage
			v[j] = float64(depth[s])*ns + float64(s)
		}
	case Random:
		for j := range v {
			v[j] = rng.Float64()
		}
	default:
		panic(fmt.Sprintf("dag: unknown rule %d", rule))
	}
	return v
}

// stageDepth returns each stage's breadth-first level: 0 for stages of
// source tasks, else 1 + the deepest parent stage, computed over the task
// order so it is defined even when the stage graph is not a DAG.
func stageDepth(d *DAG) []int {
	td := make([]int, d.N())
	sd := make([]int, len(d.Stages))
	for _, v := range d.Topo() {
		for _, p := range d.Preds(v) {
			if d.Tasks[p].Stage != d.Tasks[v].Stage {
				td[v] = max(td[v], td[p]+1)
			} else {
				td[v] = max(td[v], td[p])
			}
		}
		sd[d.Tasks[v].Stage] = max(sd[d.Tasks[v].Stage], td[v])
	}
	return sd
}

// transitiveSuccessors counts each task's descendants: exactly with
// bitsets up to reachLimit tasks, beyond that by the upper estimate
// min(N−1, Σ_{s ∈ succ} (1 + count_s)), which over-counts shared
// descendants.
func transitiveSuccessors(d *DAG) []int {
	n := d.N()
	out := make([]int, n)
	topo := d.Topo()
	if n > reachLimit {
		for k := n - 1; k >= 0; k-- {
			v := topo[k]
			for _, s := range d.Succs(v) {
				out[v] += 1 + out[s]
			}
			out[v] = min(out[v], n-1)
		}
		return out
	}
	w := (n + 63) / 64
	reach := make([]uint64, n*w)
	for k := n - 1; k >= 0; k-- {
		v := topo[k]
		rv := reach[v*w : (v+1)*w]
		for _, s := range d.Succs(v) {
			rv[s/64] |= 1 << (s % 64)
			for x, y := range reach[s*w : (s+1)*w] {
				rv[x] |= y
			}
		}
		for _, y := range rv {
			out[v] += bits.OnesCount64(y)
		}
	}
	return out
}

// orderBy returns the tasks sorted by priority value, ties by index.
func orderBy(prio []float64) []int {
	o := make([]int, len(prio))
	for i := range o {
		o[i] = i
	}
	slices.SortStableFunc(o, func(a, b int) int {
		switch {
		case prio[a] < prio[b]:
			return -1
		case prio[a] > prio[b]:
			return 1
		}
		return 0
	})
	return o
}
