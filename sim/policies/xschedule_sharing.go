package policies

import (
	"math"
	"math/big"

	"github.com/capplan/capplan/sim"
)

// xPair is the sharing context of applications a < b [SEED xflex §2.1]:
// share > 0 means a owes b; slope is the charge rate of b's containers
// used by a minus that of a's used by b; both in charge × ticks.
type xPair struct {
	share, slope *big.Rat
	last         sim.Tick
}

// setup reads the containers, owners and sharing bounds at the first
// Round.
func (x *xschedule) setup(s *sim.State) {
	x.ready = true
	x.tps = max(1, int64(math.Round(1/s.TickSeconds())))
	U, M := s.NumUsers(), s.NumMachines()
	x.apps = make([]xApp, U)
	schedDef, schedBy, _ := perApp(x.p.Sched, []string{"fifo", "fair", "flex"})
	reqDef, reqBy, _ := perApp(x.p.Request, []string{"ownedonly", "ownedfirst", "nonowned"})
	for u := range x.apps {
		uv := s.User(sim.UserID(u))
		a := &x.apps[u]
		sched, ok := schedBy[uv.Name()]
		if !ok {
			sched = schedDef
		}
		if sched == "" {
			sched = "fifo"
		}
		a.sched = map[string]xSched{"fifo": schedFIFO, "fair": schedFair, "flex": schedFlex}[sched]
		req, ok := reqBy[uv.Name()]
		if !ok {
			req = reqDef
		}
		if req == "" {
			req = "ownedfirst"
		}
		a.req = map[string]xRequest{"ownedonly": ownedOnly, "ownedfirst": ownedFirst, "nonowned": nonOwned}[req]
		sh := uv.Sharing()
		a.alone = sh.Alone
		b := x.p.Bound
		if sh.Set {
			b = sh.Bound
		}
		a.delta = x.ticksOf(b)
	}
	x.pairs = make([]xPair, U*U)
	x.deltaP = make([]*big.Rat, U*U)
	for a := 0; a < U; a++ {
		for b := a + 1; b < U; b++ {
			x.pairs[a*U+b] = xPair{share: new(big.Rat), slope: new(big.Rat)}
			d := x.apps[a].delta
			if x.apps[b].delta.Cmp(d) < 0 {
				d = x.apps[b].delta
			}
			x.deltaP[a*U+b] = d
		}
	}
	pairs, _ := parsePairs(x.p.Pairs)
	for _, pb := range pairs {
		a, b := userNamed(s, pb.a), userNamed(s, pb.b)
		if a > b {
			a, b = b, a
		}
		if a >= 0 && a != b {
			x.deltaP[int(a)*U+int(b)] = x.ticksOf(pb.bound)
		}
	}
	x.owner, x.user = make([]sim.UserID, M), make([]sim.UserID, M)
	x.charge, x.chargF, x.held = make([]*big.Rat, M), make([]float64, M), make([]bool, M)
	C := s.C()
	amLeft := make([]int, U)
	for u := range amLeft {
		amLeft[u] = x.p.AM
	}
	for mi := 0; mi < M; mi++ {
		mv := s.Machine(sim.MachineID(mi))
		x.owner[mi], x.user[mi] = mv.Owner(), sim.NoUser
		ch := new(big.Rat)
		for d, v := range mv.Cap() {
			if C[d] > 0 {
				ch.Add(ch, big.NewRat(v, C[d]))
			}
		}
		x.charge[mi] = ch
		x.chargF[mi], _ = ch.Float64()
	}
	// AM containers: those of shape "am" first, then the first in plan
	// order.
	for _, am := range []bool{true, false} {
		for mi := 0; mi < M; mi++ {
			mv := s.Machine(sim.MachineID(mi))
			if o := mv.Owner(); o >= 0 && amLeft[o] > 0 && !x.held[mi] && (mv.Labels()["shape"] == "am") == am {
				x.held[mi] = true
				amLeft[o]--
			}
		}
	}
	x.claims = map[sim.MachineID]sim.UserID{}
	x.claimed = make([]int, U)
	x.failed = map[sim.GroupRef]uint32{}
	x.free = make([][]sim.MachineID, U)
	x.stats = map[string]int64{"borrowed": 0, "preemptOwned": 0, "preemptOther": 0}
}

// ticksOf converts a bound in charge × seconds to charge × ticks.
func (x *xschedule) ticksOf(seconds float64) *big.Rat {
	r := new(big.Rat).SetFloat64(seconds)
	return r.Mul(r, big.NewRat(x.tps, 1))
}

func userNamed(s *sim.State, name string) sim.UserID {
	for u := 0; u < s.NumUsers(); u++ {
		if s.User(sim.UserID(u)).Name() == name {
			return sim.UserID(u)
		}
	}
	return sim.NoUser
}

// owes returns share_{u→a}(now): how much u owes a, in charge × ticks.
func (x *xschedule) owes(u, a sim.UserID, now sim.Tick) *big.Rat {
	U := len(x.apps)
	lo, hi := u, a
	if lo > hi {
		lo, hi = hi, lo
	}
	p := &x.pairs[int(lo)*U+int(hi)]
	v := new(big.Rat).Mul(p.slope, big.NewRat(int64(now-p.last), 1))
	v.Add(v, p.share)
	if u > a {
		v.Neg(v)
	}
	return v
}

// slopeOwes returns the rate at which u's debt to a grows, per tick.
func (x *xschedule) slopeOwes(u, a sim.UserID) *big.Rat {
	U := len(x.apps)
	lo, hi := u, a
	if lo > hi {
		lo, hi = hi, lo
	}
	v := new(big.Rat).Set(x.pairs[int(lo)*U+int(hi)].slope)
	if u > a {
		v.Neg(v)
	}
	return v
}

// bound returns Δ_ua.
func (x *xschedule) bound(u, a sim.UserID) *big.Rat {
	if u > a {
		u, a = a, u
	}
	return x.deltaP[int(u)*len(x.apps)+int(a)]
}

// rebase re-bases the pair of user u and owner o when u starts (sign +1)
// or stops (−1) using o's container m: lastShare = share(now),
// lastCalcTime = now, lastSlope ± charge(m) (u owes o at that rate).
func (x *xschedule) rebase(u, o sim.UserID, m sim.MachineID, now sim.Tick, sign int) {
	U := len(x.apps)
	lo, hi := u, o
	if lo > hi {
		lo, hi = hi, lo
	}
	p := &x.pairs[int(lo)*U+int(hi)]
	dt := new(big.Rat).Mul(p.slope, big.NewRat(int64(now-p.last), 1))
	p.share.Add(p.share, dt)
	p.last = now
	if (u == lo) == (sign > 0) {
		p.slope.Add(p.slope, x.charge[m])
	} else {
		p.slope.Sub(p.slope, x.charge[m])
	}
}

// netDebt returns Σ_b share_{a→b}(now) as a float (for ordering only;
// ties fall to ids).
func (x *xschedule) netDebt(a sim.UserID, now sim.Tick) *big.Rat {
	sum := new(big.Rat)
	for b := range x.apps {
		if sim.UserID(b) != a {
			sum.Add(sum, x.owes(a, sim.UserID(b), now))
		}
	}
	return sum
}

// JobArrived implements sim.Observer.
func (x *xschedule) JobArrived(*sim.State, sim.JobID) {}

// JobFinished implements sim.Observer.
func (x *xschedule) JobFinished(*sim.State, sim.JobID) {}

// TaskStarted implements sim.Observer: a container taken from another
// owner re-bases their pair.
func (x *xschedule) TaskStarted(s *sim.State, t sim.TaskRef, m sim.MachineID) {
	if !x.ready {
		x.setup(s)
	}
	u := s.Job(t.Job).User()
	x.user[m] = u
	if o := x.owner[m]; o != u && o >= 0 {
		x.rebase(u, o, m, s.Now(), +1)
	}
}

// TaskEnded implements sim.Observer: a container released by a borrower
// re-bases the pair; a claimed container killed at the end of its grace
// period is now held for its claimant.
func (x *xschedule) TaskEnded(s *sim.State, t sim.TaskRef, m sim.MachineID, k sim.EndKind) {
	u := s.Job(t.Job).User()
	x.user[m] = sim.NoUser
	if o := x.owner[m]; o != u && o >= 0 {
		x.rebase(u, o, m, s.Now(), -1)
	}
	if a, ok := x.claims[m]; ok {
		delete(x.claims, m)
		x.claimed[a]--
		if k == sim.EndKilled && s.Machine(m).ReservedFor() == a {
			x.reserved = append(x.reserved, m)
		}
	}
}
