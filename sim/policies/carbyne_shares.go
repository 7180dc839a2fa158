package policies

import (
	"math"

	"github.com/capplan/capplan/sim"
)

// waterFill is the closed-form DRF of Carbyne's inter-job step
// (Pseudocode 1 lines 8–15; ALGORITHMS.md §4.1; SIMULATE.md §3.3 step 1).
//
// Job k asks for n_k tasks of mean demand d_k = D_k/n_k, where D_k is
// the total demand of its running and runnable tasks; every weight is 1.
// DRF gives job k x_k tasks so that the dominant shares x_k·Dom(d_k) are
// equal, except that no job gets more than it asks for. In dominant-share
// units: with c_k = Dom(D_k) (the share of the whole demand) and
// u_k = D_k/c_k (the demand scaled to dominant share 1), job k gets
// A_k = min(τ_k, c_k)·u_k, where the common level τ rises until a resource
// saturates:
//
//	level of a set U of uncapped jobs: τ(U) = min_r (R_r − Σ_{k∉U} D_k,r) / Σ_{k∈U} u_k,r
//	U₀ = every job; U_{i+1} = {k ∈ U_i : c_k > τ(U_i)}   until U_{i+1} = U_i
//
// τ(U) never decreases from one iteration to the next (a capped job takes
// c_k·u_k ≤ τ·u_k, leaving more room), so the iteration stops after at
// most J steps, usually two or three. The jobs of U that use the
// saturated resource r* freeze at τ; the others (u_k,r* = 0) go on filling
// the other resources in a further phase, at most D phases in all. This is
// the water-filling of ALGORITHMS.md §4.1 without the sort: O(steps·J·D).
//
// Capped jobs get their demand D_k exactly, as integers. The level of
// uncapped jobs is a float; their pools are rounded down to whole quanta
// after adding poolTol relative to their size, so that a task fitting a
// share exactly (Carbyne's Figure 2: 2×21 + 2×4 = 50) is not lost to
// rounding.
type waterFill struct {
	C     sim.Vec
	jobs  []wfJob
	rest  []float64 // R_r − demand of the capped and frozen jobs
	sumU  []float64 // Σ u_k,r over the open jobs
	open  []int32
	next  []int32
	level float64 // τ of the last phase (for tests)
}

// wfJob is one job's input and result.
type wfJob struct {
	D      sim.Vec   // demand of running ∪ runnable tasks (input)
	c      float64   // Dom(D)
	u      []float64 // D/c
	tau    float64   // the job's level: its dominant share
	capped bool      // A = D exactly
}

// poolTol is the relative rounding error of τ·u absorbed before pools are
// rounded down to whole quanta: the float error of a few dozen operations
// is ~1e-15 relative, and 1e-9 of a pool stays below one quantum for any
// pool under 10⁹ quanta.
const poolTol = 1e-9

// reset prepares for n jobs over capacity C.
func (w *waterFill) reset(C sim.Vec, n int) {
	w.C = C
	if cap(w.jobs) < n {
		w.jobs = append(w.jobs[:cap(w.jobs)], make([]wfJob, n-cap(w.jobs))...)
	}
	w.jobs = w.jobs[:n]
	D := len(C)
	for i := range w.jobs {
		j := &w.jobs[i]
		if len(j.D) != D {
			j.D = make(sim.Vec, D)
			j.u = make([]float64, D)
		}
	}
}

// solve computes every job's level from the D vectors set by the caller.
func (w *waterFill) solve() {
	C := w.C
	D := len(C)
	w.rest = append(w.rest[:0], make([]float64, D)...)
	w.sumU = append(w.sumU[:0], make([]float64, D)...)
	for r := range C {
		w.rest[r] = float64(C[r])
	}
	w.open = w.open[:0]
	for i := range w.jobs {
		j := &w.jobs[i]
		j.c = 0
		for r, x := range j.D {
			if C[r] > 0 {
				j.c = math.Max(j.c, float64(x)/float64(C[r]))
			}
		}
		j.tau, j.capped = 0, false
		if j.c == 0 { // asks for nothing (or only dimensions the cluster lacks)
			j.capped = true
			continue
		}
		for r, x := range j.D {
			j.u[r] = float64(x) / j.c
		}
		w.open = append(w.open, int32(i))
	}
	for len(w.open) > 0 {
		// one phase: iterate U until no open job is capped below τ(U)
		var tau float64
		sat := -1
		for {
			for r := range w.sumU {
				w.sumU[r] = 0
			}
			for _, k := range w.open {
				for r, x := range w.jobs[k].u {
					w.sumU[r] += x
				}
			}
			tau, sat = math.Inf(1), -1
			for r := range C {
				if w.sumU[r] > 0 {
					if t := math.Max(0, w.rest[r]) / w.sumU[r]; t < tau {
						tau, sat = t, r
					}
				}
			}
			w.next = w.next[:0]
			for _, k := range w.open {
				j := &w.jobs[k]
				if j.c <= tau { // capped: gets its whole demand
					j.tau, j.capped = j.c, true
					for r, x := range j.D {
						w.rest[r] -= float64(x)
					}
					continue
				}
				w.next = append(w.next, k)
			}
			if len(w.next) == len(w.open) {
				break
			}
			w.open, w.next = w.next, w.open
		}
		w.level = tau
		// freeze the open jobs that use the saturated resource at τ
		w.next = w.next[:0]
		for _, k := range w.open {
			j := &w.jobs[k]
			if j.u[sat] > 0 {
				j.tau = tau
				for r, x := range j.u {
					w.rest[r] -= tau * x
				}
				continue
			}
			w.next = append(w.next, k)
		}
		w.open, w.next = w.next, w.open
	}
}

// pool writes job i's share A_i in whole quanta into a: D_i when capped,
// else ⌊τ_i·u_i·(1 + poolTol)⌋.
func (w *waterFill) pool(i int, a sim.Vec) {
	j := &w.jobs[i]
	if j.capped {
		copy(a, j.D)
		return
	}
	for r, x := range j.u {
		v := float64(j.tau * x)
		a[r] = int64(math.Floor(v + poolTol*math.Max(1, v)))
	}
}

// tasks returns job i's share in tasks of its mean demand, x_i = τ_i/s_i
// with s_i = c_i/n_i, for n_i tasks asked.
func (w *waterFill) tasks(i int, n int64) float64 {
	j := &w.jobs[i]
	if j.capped || j.c == 0 {
		return float64(n)
	}
	return j.tau / j.c * float64(n)
}
