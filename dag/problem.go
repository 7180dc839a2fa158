package dag

import (
	"math"
	"slices"
)

// problem is the task-level cumulative problem behind the propagation
// bounds and the exact search (RCPSP in the notation of Klein & Scholl,
// EJOR 1999): n tasks with integer durations p_i and integer demands c_ir
// on K pooled resources of integer capacity C_r, and the DAG's edges. It
// is a relaxation of scheduling d on the machines: the machines are
// pooled (fragmentation is ignored) and demands are scaled to integers
// rounding in the relaxing direction, so every lower bound computed on it
// is a lower bound of the DAG. It is the problem itself (exact) when there
// is one machine and every demand and capacity scales to integers without
// rounding, as for PSPLIB.
type problem struct {
	n, k int
	dur  []int64
	dem  []int64 // dem[i·k + r]
	cap  []int64
	succ [][]int // successors of each task (the DAG's edges)
	pred [][]int
	topo []int
	// exact: a schedule of the problem is a schedule of the DAG on its
	// single machine (still checked by Check before use).
	exact bool
}

// scaleLimit bounds scaled integer quantities so that sums over a few
// thousand tasks times durations stay far from overflow.
const scaleLimit = 1 << 40

// maxScaleDigits is the largest power of ten tried to make demands
// integral (10⁶: micro-units of a core or a byte count both scale).
const maxScaleDigits = 6

// newProblem builds the cumulative relaxation of d on machines. Per
// resource r it looks for the least 10^e (e ≤ maxScaleDigits) making every
// demand and the pooled capacity integral; failing that (or past
// scaleLimit) it scales so that the capacity is about 2³⁰ and rounds
// demands down and the capacity up, a relaxation. The capacity always
// includes the checker's tolerance, so no schedule Check accepts is cut
// off. O(N·K + E).
func newProblem(d *DAG, machines [][]float64) *problem {
	n, k := d.N(), d.K()
	p := &problem{n: n, k: k, dur: make([]int64, n), dem: make([]int64, n*k), cap: make([]int64, k),
		succ: make([][]int, n), pred: make([][]int, n), topo: d.Topo(), exact: len(machines) == 1}
	for i := range d.Tasks {
		p.dur[i] = d.Tasks[i].Duration
		p.succ[i] = d.Succs(i)
		p.pred[i] = d.Preds(i)
	}
	for r := 0; r < k; r++ {
		var pool, slack float64 // pooled capacity and the checker's tolerance on it
		for _, c := range machines {
			pool += c[r]
			slack += CapTol * math.Max(1, c[r])
		}
		vals := make([]float64, 0, n+1)
		vals = append(vals, pool)
		for i := range d.Tasks {
			vals = append(vals, d.Tasks[i].Demand[r])
		}
		if e, ok := integralScale(vals); ok {
			for i := range d.Tasks {
				p.dem[i*k+r] = int64(math.Round(d.Tasks[i].Demand[r] * e))
			}
			p.cap[r] = int64(math.Floor((pool + slack) * e))
			continue
		}
		p.exact = false
		s := float64(1<<30) / math.Max(pool, slices.Max(vals))
		for i := range d.Tasks {
			p.dem[i*k+r] = int64(math.Floor(d.Tasks[i].Demand[r] * s))
		}
		p.cap[r] = int64(math.Ceil((pool + slack) * s))
	}
	return p
}

// integralScale returns the least 10^e, e ≤ maxScaleDigits, such that
// every value times it is an integer (to within float rounding) below
// scaleLimit.
func integralScale(vals []float64) (float64, bool) {
	e := 1.0
	for digits := 0; digits <= maxScaleDigits; digits, e = digits+1, e*10 {
		ok := true
		for _, v := range vals {
			x := v * e
			if x >= scaleLimit || math.Abs(x-math.Round(x)) > 1e-9*math.Max(1, x) {
				ok = false
				break
			}
		}
		if ok {
			return e, true
		}
	}
	return 0, false
}

// d returns task i's demand row.
func (p *problem) demand(i int) []int64 { return p.dem[i*p.k : (i+1)*p.k] }

// incompatible reports whether tasks i and j cannot run at the same time
// for lack of capacity: c_ir + c_jr > C_r for some r.
func (p *problem) incompatible(i, j int) bool {
	a, b := p.demand(i), p.demand(j)
	for r, c := range p.cap {
		if a[r]+b[r] > c {
			return true
		}
	}
	return false
}

// partners returns, per task, the tasks it cannot overlap (both of
// positive duration), in index order.
func (p *problem) partners() [][]int32 {
	out := make([][]int32, p.n)
	for i := 0; i < p.n; i++ {
		if p.dur[i] == 0 {
			continue
		}
		for j := i + 1; j < p.n; j++ {
			if p.dur[j] > 0 && p.incompatible(i, j) {
				out[i] = append(out[i], int32(j))
				out[j] = append(out[j], int32(i))
			}
		}
	}
	return out
}

// criticalPath returns the longest path (heads) from a forward pass.
func (p *problem) criticalPath() int64 {
	ef := make([]int64, p.n)
	var best int64
	for _, v := range p.topo {
		var es int64
		for _, q := range p.pred[v] {
			es = max(es, ef[q])
		}
		ef[v] = es + p.dur[v]
		best = max(best, ef[v])
	}
	return best
}
