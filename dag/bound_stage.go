package dag

import (
	"math"
	"slices"
)

// stageWork bounds the work StageLB spends by default.
const stageWork = 20_000_000

// StageLB is destructive improvement at stage level, for DAGs of many
// tasks in stages (cluster jobs): it reasons about each stage as a whole,
// so its cost depends on the number of stages S, not of tasks.
//
// Every task of stage s starts at or after h_s = E(s), NewLB's earliest
// start of the stage (ALGORITHMS §3.2), and ends at least q_s before the
// makespan, q_s being E(s) of the reversed DAG. So under makespan T it
// runs within [h_s, e_s), e_s = T − q_s, and T is refuted when
//
//   - some stage's window is shorter than its standalone bound LB(s)
//     (energy, longest task, slot bound), or
//   - energetic reasoning (see energy) fails over some interval
//     [t1, t2): the stages' minimal energies inside exceed C_r·(t2−t1).
//     A stage's minimal energy in resource r is the larger of two valid
//     lower bounds: its tasks' minimal intersections computed with the
//     stage's shortest duration (the intersection grows with duration),
//     times their summed demand; and W_sr − C_r·o_s, its whole energy less
//     what the pool can absorb in the o_s ticks of its window outside the
//     interval. Intervals run between the points h_s, h_s+d_s, e_s−d_s
//     and e_s of the stages (d_s: shortest duration).
//
// T is searched by bisection between the simple bounds and the sum of
// durations; the largest refuted T + 1 is returned (0 when the stage graph
// is not a DAG). O(N + S³·K) per T.
func StageLB(d *DAG, machines [][]float64) int64 {
	if d.stageTopo == nil || d.N() == 0 {
		return 0
	}
	lo := max(CPLength(d), EnergyLB(d, machines), NewLB(d, machines))
	return stageBound(d, machines, lo, d.TotalDuration(), &budget{max: stageWork})
}

// stageBound is StageLB between lo and hi (a feasible makespan).
func stageBound(d *DAG, machines [][]float64, lo, hi int64, b *budget) int64 {
	if d.stageTopo == nil {
		return 0
	}
	st := newStageModel(d, machines)
	b.spend(int64(d.N()))
	best := lo
	for best < hi && !b.done() {
		t := best + (hi-best)/2
		refuted := st.refutes(t, b)
		if refuted {
			best = t + 1
		} else {
			hi = t
		}
	}
	return best
}

// stageModel is the data of the stage-level test.
type stageModel struct {
	n       int
	head    []int64     // h_s
	tail    []int64     // q_s
	lb      []int64     // LB(s)
	dmin    []int64     // shortest positive duration (0: all zero)
	demand  [][]float64 // Σ over the stage's tasks of positive duration, per resource
	energy  [][]float64 // W_sr = Σ dur·demand
	cap     []float64   // pooled capacity per resource (with the checker's tolerance)
	resUsed []bool
}

func newStageModel(d *DAG, machines [][]float64) *stageModel {
	ns, k := len(d.Stages), d.K()
	m := &stageModel{n: ns, dmin: make([]int64, ns), demand: make([][]float64, ns), energy: make([][]float64, ns),
		cap: make([]float64, k), resUsed: make([]bool, k)}
	for _, c := range machines {
		for r, x := range c {
			m.cap[r] += x + CapTol*math.Max(1, x)
		}
	}
	m.head, _, m.lb = stageRecursion(d, machines, Critical(d, 0))
	rd := d.Reverse()
	m.tail, _, _ = stageRecursion(rd, machines, Critical(rd, 0))
	for s, st := range d.Stages {
		m.demand[s], m.energy[s] = make([]float64, k), make([]float64, k)
		for _, v := range st.Tasks {
			t := &d.Tasks[v]
			if t.Duration == 0 {
				continue
			}
			if m.dmin[s] == 0 || t.Duration < m.dmin[s] {
				m.dmin[s] = t.Duration
			}
			for r, x := range t.Demand {
				m.demand[s][r] += x
				m.energy[s][r] += float64(t.Duration) * x
				m.resUsed[r] = m.resUsed[r] || x > 0
			}
		}
	}
	return m
}

// refutes reports whether makespan ≤ T is impossible by the stage tests.
func (m *stageModel) refutes(T int64, b *budget) bool {
	end := make([]int64, m.n)
	var points []int64
	for s := 0; s < m.n; s++ {
		end[s] = T - m.tail[s]
		if end[s]-m.head[s] < m.lb[s] {
			return true
		}
		if m.dmin[s] > 0 {
			points = append(points, m.head[s], m.head[s]+m.dmin[s], end[s]-m.dmin[s], end[s])
		}
	}
	slices.Sort(points)
	points = slices.Compact(points)
	b.spend(int64(len(points) * len(points) * m.n / 2))
	for r, used := range m.resUsed {
		if !used {
			continue
		}
		C := m.cap[r]
		for x, t1 := range points {
			for _, t2 := range points[x+1:] {
				var need float64
				for s := 0; s < m.n; s++ {
					if m.dmin[s] == 0 || m.demand[s][r] == 0 {
						continue
					}
					h, e, dm := m.head[s], end[s], m.dmin[s]
					plus := min(max(h+dm-t1, 0), dm)    // p⁺(t1)
					minus := min(max(t2-(e-dm), 0), dm) // p⁻(t2)
					mi := float64(min(t2-t1, plus, minus)) * m.demand[s][r]
					outside := float64(max(0, min(t1, e)-h) + max(0, e-max(t2, h)))
					mi = max(mi, m.energy[s][r]-C*outside)
					need += max(0, mi)
				}
				// A float margin (relative) keeps rounding from refuting a
				// feasible T.
				if need > C*float64(t2-t1)*(1+1e-9)+1e-9 {
					return true
				}
			}
		}
	}
	return false
}
