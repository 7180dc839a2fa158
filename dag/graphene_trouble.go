package dag

import (
	"math"
	"slices"
)

// units is the graph Graphene reasons over: stages when the stage graph
// is a DAG (§4.4 "reason over stages"), else single tasks.
type units struct {
	tasks      [][]int
	succ, pred [][]int
}

func unitsOf(d *DAG) *units {
	u := &units{}
	if d.stageTopo != nil {
		for _, s := range d.Stages {
			u.tasks = append(u.tasks, s.Tasks)
		}
		u.succ = make([][]int, len(d.Stages))
		u.pred = make([][]int, len(d.Stages))
		for _, e := range d.StageEdges {
			u.succ[e.From] = append(u.succ[e.From], e.To)
			u.pred[e.To] = append(u.pred[e.To], e.From)
		}
		return u
	}
	for v := 0; v < d.N(); v++ {
		u.tasks = append(u.tasks, []int{v})
		u.succ = append(u.succ, d.Succs(v))
		u.pred = append(u.pred, d.Preds(v))
	}
	return u
}

// reach marks every unit reachable from the set (the set included).
func reach(adj [][]int, set []bool) []bool {
	out := slices.Clone(set)
	var stack []int
	for u, in := range set {
		if in {
			stack = append(stack, u)
		}
	}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, w := range adj[u] {
			if !out[w] {
				out[w] = true
				stack = append(stack, w)
			}
		}
	}
	return out
}

// scores returns LongScore and FragScore per unit (Graphene §4.1):
// Long = max duration in the unit / the DAG's longest duration; Frag =
// TWork(unit) / ExecTime(unit), with ExecTime the makespan of the unit's
// tasks packed alone, longest first, on the empty machines (1 when it is
// 0).
func scores(d *DAG, machines [][]float64, u *units) (long, frag []float64) {
	var maxDur int64
	for i := range d.Tasks {
		maxDur = max(maxDur, d.Tasks[i].Duration)
	}
	pool := Pool(machines)[0]
	prio := durPrio(d)
	long = make([]float64, len(u.tasks))
	frag = make([]float64, len(u.tasks))
	for k, tasks := range u.tasks {
		var md int64
		for _, v := range tasks {
			md = max(md, d.Tasks[v].Duration)
		}
		if maxDur > 0 {
			long[k] = float64(md) / float64(maxDur)
		}
		order := slices.Clone(tasks)
		slices.SortStableFunc(order, func(a, b int) int {
			switch {
			case prio[a] < prio[b]:
				return -1
			case prio[a] > prio[b]:
				return 1
			}
			return a - b
		})
		sp := NewSpace(machines)
		var exec int64
		for _, v := range order {
			t := &d.Tasks[v]
			_, st := sp.Forward(t.Demand, t.Duration, 0)
			exec = max(exec, st+t.Duration)
		}
		frag[k] = 1
		if exec > 0 {
			var tw float64
			for _, w := range twork(d, tasks, pool) {
				tw = max(tw, w)
			}
			frag[k] = tw / float64(exec)
		}
	}
	return long, frag
}

// thresholds returns the distinct values of x, sorted, subsampled evenly
// (keeping both ends) to at most maxThresholds.
func thresholds(x []float64) []float64 {
	v := slices.Clone(x)
	slices.Sort(v)
	v = slices.Compact(v)
	if len(v) <= maxThresholds {
		return v
	}
	out := make([]float64, maxThresholds)
	for i := range out {
		out[i] = v[i*(len(v)-1)/(maxThresholds-1)]
	}
	return slices.Compact(out)
}

// troubleCandidates enumerates the candidate troublesome sets (Graphene
// Fig. 9 with discriminative thresholds, ALGORITHMS §3.3): T = ∅ first,
// then, for l over the LongScore thresholds from the highest and f over
// the FragScore thresholds from the lowest (each with a sentinel selecting
// nothing), the closure of {u : Long(u) ≥ l or Frag(u) ≤ f}, deduplicated
// and pruned, split into T, S, P, C task lists. When more remain than the
// budget (MaxCandidates, and grapheneWork task placements) allows, an
// evenly spaced subset is kept.
func troubleCandidates(d *DAG, machines [][]float64, o Options) []candidate {
	u := unitsOf(d)
	long, frag := scores(d, machines, u)
	frac := o.MaxTroubleFraction
	if frac <= 0 {
		frac = DefaultMaxTroubleFraction
	}
	ls := thresholds(long)
	slices.Reverse(ls)
	ls = append(ls, math.Inf(1))
	fs := append(thresholds(frag), math.Inf(-1))
	nu := len(u.tasks)
	seen := map[string]bool{}
	var sets [][]bool
	sets = append(sets, make([]bool, nu)) // T = ∅
	seen[string(make([]byte, (nu+7)/8))] = true
	key := make([]byte, (nu+7)/8)
	for _, l := range ls {
		for _, f := range fs {
			t := make([]bool, nu)
			for k := range t {
				t[k] = long[k] >= l || frag[k] <= f
			}
			desc, anc := reach(u.succ, t), reach(u.pred, t)
			size := 0
			clear(key)
			for k := range t {
				t[k] = t[k] || desc[k] && anc[k]
				if t[k] {
					size += len(u.tasks[k])
					key[k/8] |= 1 << (k % 8)
				}
			}
			if size == 0 || float64(size) > frac*float64(d.N()) || seen[string(key)] {
				continue
			}
			seen[string(key)] = true
			sets = append(sets, t)
		}
	}
	limit := o.MaxCandidates
	if limit <= 0 {
		limit = DefaultMaxCandidates
	}
	limit = max(1, min(limit, grapheneWork/(seqPerCandidate*d.N())))
	if len(sets) > limit {
		kept := make([][]bool, limit)
		for i := range kept {
			kept[i] = sets[i*(len(sets)-1)/max(1, limit-1)]
		}
		sets = kept
	}
	cands := make([]candidate, 0, len(sets))
	for _, t := range sets {
		desc, anc := reach(u.succ, t), reach(u.pred, t)
		var c candidate
		for k, tasks := range u.tasks {
			switch {
			case t[k]:
				c.t = append(c.t, tasks...)
			case anc[k]:
				c.p = append(c.p, tasks...)
			case desc[k]:
				c.c = append(c.c, tasks...)
			default:
				c.s = append(c.s, tasks...)
			}
		}
		cands = append(cands, c)
	}
	return cands
}
