package policies

import (
	"math"
	"math/big"
	"slices"

	"github.com/capplan/capplan/sim"
)

// maxRoundPasses bounds the rounds of passes in one Round: with a grace
// period of 0 a preemption kills at once and holds the container for its
// claimant, whose next pass places there; the rest waits a tick.
const maxRoundPasses = 8

// Round runs X-Schedule's three passes (see xschedule), again while
// immediate kills (grace 0) hold containers for claimants.
func (x *xschedule) Round(s *sim.State, p *sim.Planner) {
	if !x.ready {
		x.setup(s)
	}
	for k := 0; k < maxRoundPasses; k++ {
		x.passes(s, p)
		if len(x.reserved) == 0 {
			return
		}
	}
	p.WakeAt(s.Now() + 1)
}

func (x *xschedule) passes(s *sim.State, p *sim.Planner) {
	clear(x.failed)
	x.collect(s)
	x.placeReserved(s, p)
	x.listFree(s)
	now := s.Now()
	x.order = x.order[:0]
	debt := make([]*big.Rat, len(x.apps))
	for a := range x.apps {
		if len(x.apps[a].jobs) > 0 {
			x.order = append(x.order, sim.UserID(a))
			debt[a] = x.netDebt(sim.UserID(a), now)
		}
	}
	slices.SortStableFunc(x.order, func(a, b sim.UserID) int {
		if c := debt[a].Cmp(debt[b]); c != 0 {
			return c
		}
		return int(a - b)
	})
	x.newPass()
	for _, a := range x.order { // pass 1: owned containers
		if x.apps[a].req != nonOwned {
			x.fill(s, p, a, false)
		}
	}
	x.newPass()
	for _, a := range x.order { // pass 2: borrow
		if x.apps[a].req != ownedOnly && !x.apps[a].alone {
			x.fill(s, p, a, true)
		}
	}
	for _, a := range x.order { // pass 3: preempt
		x.preempt(s, p, a)
	}
}

// collect lists every application's runnable jobs in ordinal order.
func (x *xschedule) collect(s *sim.State) {
	for a := range x.apps {
		x.apps[a].jobs = x.apps[a].jobs[:0]
	}
	for _, j := range s.RunnableJobs() {
		a := &x.apps[s.Job(j).User()]
		a.jobs = append(a.jobs, j)
	}
}

func (x *xschedule) newPass() { x.pass++ }

// listFree lists the free containers of each owner: idle, not an AM's,
// not held for a claimant.
func (x *xschedule) listFree(s *sim.State) {
	for o := range x.free {
		x.free[o] = x.free[o][:0]
	}
	for mi := range x.owner {
		m := sim.MachineID(mi)
		if x.held[mi] || x.owner[mi] < 0 {
			continue
		}
		if mv := s.Machine(m); mv.Running() == 0 && mv.ReservedFor() == sim.NoUser {
			x.free[x.owner[mi]] = append(x.free[x.owner[mi]], m)
		}
	}
}

// placeReserved gives every container held for a claimant (its victim was
// killed at the end of the grace period) to the claimant's next request
// that fits it, or releases it.
func (x *xschedule) placeReserved(s *sim.State, p *sim.Planner) {
	for _, m := range x.reserved {
		a := s.Machine(m).ReservedFor()
		if a == sim.NoUser || s.Machine(m).Running() > 0 {
			continue // taken or released already
		}
		x.newPass()
		placed := false
		for {
			t, ok := x.next(s, a)
			if !ok {
				break
			}
			if s.Fits(t, m) {
				placed = p.Place(t, m) == nil
				break
			}
			x.failed[groupOf(s, t)] = x.pass
		}
		if !placed {
			p.Unreserve(m)
		}
	}
	x.reserved = x.reserved[:0]
}

func groupOf(s *sim.State, t sim.TaskRef) sim.GroupRef {
	return sim.GroupRef{Job: t.Job, Stage: s.Job(t.Job).StageOf(t.Task)}
}

// next returns application a's next request in its scheduler's order: the
// head of the chosen job's first group not failed in this pass. fifo takes
// the earliest job, fair the job with the fewest running tasks, flex the
// job with the least remaining work (ties: arrival order).
func (x *xschedule) next(s *sim.State, a sim.UserID) (sim.TaskRef, bool) {
	app := &x.apps[a]
	best, bestG := sim.JobID(-1), int32(-1)
	var bestKey float64
	for _, j := range app.jobs {
		if !s.IsActive(j) {
			continue
		}
		jv := s.Job(j)
		g := int32(-1)
		for _, si := range jv.Groups() {
			if x.failed[sim.GroupRef{Job: j, Stage: si}] != x.pass {
				g = si
				break
			}
		}
		if g < 0 {
			continue
		}
		var key float64
		switch app.sched {
		case schedFIFO:
			key = 0
		case schedFair:
			key = float64(jv.Running())
		case schedFlex:
			key = jv.Work()
		}
		if best < 0 || key < bestKey {
			best, bestG, bestKey = j, g, key
		}
	}
	if best < 0 {
		return sim.TaskRef{}, false
	}
	return s.Group(sim.GroupRef{Job: best, Stage: bestG}).Head(), true
}

// fitScore returns NormSum(r)/NormSum(size) for task t in container m, or
// false when m cannot hold t or is more than fitness times too large.
func (x *xschedule) fitScore(s *sim.State, t sim.TaskRef, m sim.MachineID, free bool) (float64, bool) {
	tv := s.Task(t)
	if free {
		if !s.Fits(t, m) {
			return 0, false
		}
	} else if !tv.Eligible().Has(s.ClassOf(m)) || !s.Machine(m).Cap().Dominates(tv.Demand()) {
		return 0, false
	}
	r := tv.NormSum()
	if r <= 0 {
		return 0, true
	}
	size := x.chargF[m]
	if size > float64(x.p.Fitness*r) {
		return 0, false
	}
	return r / size, true
}

// fill places application a's requests on free containers: its own
// (borrow false) or other sharing applications' (borrow true, with the
// TTL bonus). A request that finds no container fails its group for the
// pass.
func (x *xschedule) fill(s *sim.State, p *sim.Planner, a sim.UserID, borrow bool) {
	for {
		t, ok := x.next(s, a)
		if !ok {
			return
		}
		m := x.bestFree(s, a, t, borrow)
		if m == sim.NoMachine || p.Place(t, m) != nil {
			x.failed[groupOf(s, t)] = x.pass
			continue
		}
		o := x.owner[m]
		x.free[o] = slices.DeleteFunc(x.free[o], func(c sim.MachineID) bool { return c == m })
		if borrow {
			x.stats["borrowed"]++
		}
	}
}

// bestFree returns the best free container for request t of a.
func (x *xschedule) bestFree(s *sim.State, a sim.UserID, t sim.TaskRef, borrow bool) sim.MachineID {
	best, bestScore := sim.NoMachine, 0.0
	consider := func(m sim.MachineID, bonus float64) {
		f, ok := x.fitScore(s, t, m, true)
		if !ok {
			return
		}
		if sc := f + bonus; best == sim.NoMachine || sc > bestScore || sc == bestScore && m < best {
			best, bestScore = m, sc
		}
	}
	if !borrow {
		for _, m := range x.free[a] {
			consider(m, 0)
		}
		return best
	}
	now := s.Now()
	for o := range x.apps {
		if sim.UserID(o) == a || x.apps[o].alone || len(x.free[o]) == 0 {
			continue
		}
		share := x.owes(a, sim.UserID(o), now)
		slope := x.slopeOwes(a, sim.UserID(o))
		room := new(big.Rat).Sub(x.bound(a, sim.UserID(o)), share)
		for _, m := range x.free[o] {
			consider(m, x.ttlBonus(room, slope, m))
		}
	}
	return best
}

// ttlBonus is min(TTL, cap)/cap with TTL = (Δ − share)/(slope + charge),
// in seconds: +∞ (the full bonus) when the denominator is ≤ 0, never
// below 0 [DERIVED: the seed only says the TTL "is then weighted and added
// into the score"].
func (x *xschedule) ttlBonus(room, slope *big.Rat, m sim.MachineID) float64 {
	den := new(big.Rat).Add(slope, x.charge[m])
	if den.Sign() <= 0 {
		return 1
	}
	if room.Sign() <= 0 {
		return 0
	}
	ttl, _ := new(big.Rat).Quo(room, den).Float64()
	ttl /= float64(x.tps)
	return math.Min(ttl, x.p.TTLCap) / x.p.TTLCap
}
