package policies

import (
	"github.com/capplan/capplan/sim"
)

// preempt is pass 3 for application a: its requests still open, beyond
// those already covered by pending claims, each claim a victim container
// (victim) and preempt its task with a grace period; at its end the
// container is held for a.
func (x *xschedule) preempt(s *sim.State, p *sim.Planner, a sim.UserID) {
	app := &x.apps[a]
	if app.alone { // a Garbo application lends nothing and borrows nothing
		return
	}
	grace := s.Ticks(x.p.Grace)
	for _, t := range x.openRequests(s, a) {
		m := x.victim(s, a, t)
		if m == sim.NoMachine {
			continue
		}
		v := s.RunningOn(m)[0]
		x.claims[m] = a // before Preempt: with grace 0 the kill, and its TaskEnded, happen at once
		x.claimed[a]++
		if p.Preempt(v, sim.Kill, grace, a) != nil {
			delete(x.claims, m)
			x.claimed[a]--
			continue
		}
		if x.owner[m] == a {
			x.stats["preemptOwned"]++
		} else {
			x.stats["preemptOther"]++
		}
	}
}

// openRequests lists a's runnable tasks in its scheduler's order, less the
// first claimed[a] (which pending claims already serve), at most as many
// as there are containers.
func (x *xschedule) openRequests(s *sim.State, a sim.UserID) []sim.TaskRef {
	skip := x.claimed[a]
	var out []sim.TaskRef
	x.newPass()
	for len(out) < len(x.owner) {
		t, ok := x.next(s, a)
		if !ok {
			break
		}
		g := groupOf(s, t)
		x.failed[g] = x.pass // visit every task of the group once
		for _, k := range s.Group(g).Tasks() {
			if skip > 0 {
				skip--
				continue
			}
			if len(out) == len(x.owner) {
				break
			}
			out = append(out, sim.TaskRef{Job: t.Job, Task: k})
		}
	}
	return out
}

// victim returns the container whose task request t of a may preempt, or
// NoMachine: type 1 (OwnedOnly, OwnedFirst) a's own container lent to u;
// type 2 (OwnedFirst, NonOwned) a container of a third sharing owner o
// that u ≠ a borrows; either only when share_{u→a}(now) ≥ Δ_au, and never
// an AM's container or one already claimed. Type 2 also needs u to be in
// debt to a at all (a positive share, or a loan from a running) [DERIVED:
// the seed's "if application A is in debt to B by Δ_AB or more" presumes a
// debt; with Δ = 0 the bound alone would let anyone preempt an application
// that never borrowed from them]. A victim is never on a container of its
// own [DERIVED]: ownership is what an application may count on ("it can
// perform mission critical work in its share of the cluster", X-Flex §3),
// and preempting owners on their own containers let two applications of
// bound 0 take turns killing each other's tasks. Type 1 goes first; then the best fit,
// the youngest victim (least work lost) and the lowest id.
func (x *xschedule) victim(s *sim.State, a sim.UserID, t sim.TaskRef) sim.MachineID {
	req := x.apps[a].req
	now := s.Now()
	best, bestType, bestScore, bestStart := sim.NoMachine, 0, 0.0, sim.Tick(0)
	for mi, u := range x.user {
		m := sim.MachineID(mi)
		if u == sim.NoUser || u == a || x.held[mi] {
			continue
		}
		if _, claimed := x.claims[m]; claimed {
			continue
		}
		o := x.owner[mi]
		typ := 2
		switch {
		case o == a && req != nonOwned:
			typ = 1
		case o != a && o != u && req != ownedOnly && !x.apps[o].alone:
		default:
			continue
		}
		owes := x.owes(u, a, now)
		if owes.Cmp(x.bound(u, a)) < 0 {
			continue
		}
		if typ == 2 && owes.Sign() <= 0 && x.slopeOwes(u, a).Sign() <= 0 {
			continue
		}
		score, ok := x.fitScore(s, t, m, false)
		if !ok {
			continue
		}
		start := s.Task(s.RunningOn(m)[0]).Start()
		better := best == sim.NoMachine || typ < bestType ||
			typ == bestType && (score > bestScore || score == bestScore && (start > bestStart || start == bestStart && m < best))
		if better {
			best, bestType, bestScore, bestStart = m, typ, score, start
		}
	}
	return best
}
