package policies

import (
	"math"

	"github.com/capplan/capplan/sim"
)

// lsPlan is a job's latest-start schedule from its last pack: the reverse
// blocks of each stage, read as latest starts LS = at + anchor − ρ − d̂
// (absolute ticks), and the tasks of each stage started since. At any
// later time, the tasks of stage s that must have started are those with
// LS ≤ now, so the must-start count is
//
//	must_s(now) = #{pending tasks of s at the pack with LS ≤ now} − started_s
//
// clipped to [0, runnable_s].
//
// Carbyne keeps a job's plan until its share changes by a whole task of
// its mean demand (or it has none), instead of repacking whenever the job
// changes as SIMULATE.md §3.3 memoises on (job version, A_k) [DERIVED,
// deliberately]: this is Theorem 3.1's setting — a job that keeps its
// allocation completes by the T_k of its plan whatever it yields — and the
// ways a job departs from its plan only make the plan more cautious, never
// later:
//   - a task started before its latest start (by the leftover step)
//     counts in started_s and lowers later must counts, exactly as a
//     repack from the new state would;
//   - a must-start task that found no room, a task that ran past its
//     estimate (its successors' latest starts pass before they are
//     runnable) and a killed task (started_s goes back down) all leave
//     tasks with LS ≤ now: they stay must-start until placed, ahead of
//     the rest of the plan, where a repack would move the deadline
//     later and let the job yield more;
//   - a share smaller by a whole task (or by planSlack of itself, for
//     shares above 16 tasks) may no longer hold the plan, and a larger one
//     finishes sooner: both repack.
//
// Repacking on every version change instead costs a pack per job whose
// tasks started or ended (on W-ALI@0.8, ~40% of the job-Rounds), and moves
// the deadline of every job that yielded to the leftover step. The packs
// and the Rounds served by a plan are counted in PolicyStats.
type lsPlan struct {
	valid   bool
	x       float64  // the share in mean tasks the pack used
	at      sim.Tick // when it was packed
	anchor  sim.Tick // min(H, R)
	H, R    sim.Tick
	pool    sim.Vec     // the share A_k packed on
	dur     []sim.Tick  // per stage, as packed
	off     []int32     // blocks of stage s are blocks[off[s]:off[s+1]]
	blocks  []packBlock // by stage, then reverse start
	started []int64     // tasks of each stage started since the pack
}

// stale reports whether the plan must be repacked for a share of x tasks.
func (pl *lsPlan) stale(x float64) bool {
	return !pl.valid || math.Abs(x-pl.x) >= max(1, planSlack*pl.x)
}

// planSlack is how far a share may move, relative to the share the plan
// was packed on, before the plan is repacked (below 16 tasks: one task).
// On W-ALI@0.8 one task repacks 110,609 times and 1/16 16,087 times, for
// the same JCTs within 2% (the avg-JCT ratio to DRF 1.48 and 1.47).
const planSlack = 1.0 / 16

// set records the blocks of pack pk, made at time at for share x.
func (pl *lsPlan) set(pk *stagePack, at sim.Tick, x float64) {
	S := len(pk.st)
	pl.valid, pl.x, pl.at, pl.anchor, pl.H, pl.R = true, x, at, pk.Anchor, pk.H, pk.R
	pl.pool = append(pl.pool[:0], pk.A...)
	pl.dur = append(pl.dur[:0], make([]sim.Tick, S)...)
	pl.off = append(pl.off[:0], make([]int32, S+1)...)
	pl.started = append(pl.started[:0], make([]int64, S)...)
	for s := range pk.st {
		pl.dur[s] = pk.st[s].dur
	}
	for _, b := range pk.blocks {
		pl.off[b.s+1]++
	}
	for s := 0; s < S; s++ {
		pl.off[s+1] += pl.off[s]
	}
	pl.blocks = append(pl.blocks[:0], make([]packBlock, len(pk.blocks))...)
	pos := append([]int32(nil), pl.off[:S]...)
	for _, b := range pk.blocks { // stable by stage: reverse starts stay in order
		pl.blocks[pos[b.s]] = b
		pos[b.s]++
	}
}

// due returns how many tasks of stage s must have started by now:
// the planned tasks with LS ≤ now, less those started since the pack.
func (pl *lsPlan) due(s int32, now sim.Tick) int64 {
	dur := pl.dur[s]
	var n int64
	for _, b := range pl.blocks[pl.off[s]:pl.off[s+1]] {
		// wave i starts at LS = at + anchor − ρ − (i+1)·dur: due when
		// (i+1)·dur ≥ g = at + anchor − ρ − now
		g := pl.at + pl.anchor - b.rho - now
		first := int64(max(0, ceilDiv(g-dur, dur)))
		if first < b.waves {
			n += (b.waves - first) * b.n
		}
	}
	return n - pl.started[s]
}
