package policies

import (
	"math/big"

	"github.com/capplan/capplan/sim"
)

// CapacityParams are the parameters of capacity.
type CapacityParams struct {
	// Max is every queue's maximum share m_q of the cluster (default 1).
	Max   *big.Rat
	Intra sim.Intra
	Place Placement
	// Preempt lets a queue below its guarantee that has waited Wait
	// seconds kill the youngest tasks of queues above theirs.
	Preempt bool
	Wait    float64
}

func (p *CapacityParams) bind(b *binder) {
	p.Max = new(big.Rat).Set(p.Max) // a copy of the defaults shares their Rat: never set that one
	b.fraction("max", p.Max, 0, 1, "each queue's maximum dominant share of the cluster")
	b.intra(&p.Intra)
	b.placement(&p.Place)
	b.boolean("preempt", &p.Preempt, "a queue starved below its guarantee for wait seconds kills the youngest tasks of queues above theirs")
	b.number("wait", &p.Wait, 0, 1e9, "seconds a queue below its guarantee waits before it preempts")
}

// capacity is a YARN-like Capacity Scheduler [RECALLED: Hadoop Capacity
// Scheduler] (SIMULATE.md §3.1). Queues are users; queue q's guarantee is
// its normalised weight g_q = w_q/Σw and its maximum m_q. Each step takes,
// among queues whose next task keeps Dom(U_q + r̂) ≤ m_q, the one of least
// Dom(U_q)/g_q (ties: id), then its earliest job's next task in intra
// order, placed first-fit; a task that fits nowhere blocks its group. The
// ordering is that of weighted DRF over users, since Σw is common to all
// queues. With max = 1 it is work-conserving; below 1 it is not.
type capacity struct {
	intra    sim.Intra
	num, den int64
	fill     fairFill
	sum      sim.Vec
	preempt  preemption
}

func init() {
	register(typed("capacity", "YARN-like capacity queues: guarantees by weight, a maximum share, FIFO within a queue",
		CapacityParams{Max: big.NewRat(1, 1), Place: Placement{Rule: PlaceFirst, K: DefaultK}, Wait: 15}, (*CapacityParams).bind,
		func(p CapacityParams) sim.Policy {
			c := &capacity{intra: p.Intra, num: p.Max.Num().Int64(), den: p.Max.Denom().Int64()}
			c.fill = fairFill{place: p.Place}
			c.preempt = preemption{on: p.Preempt, wait: p.Wait}
			if c.num < c.den {
				c.fill.capOK = c.underMax
			}
			return c
		}))
}

func (c *capacity) Name() string { return "capacity" }

func (c *capacity) Traits() sim.Traits {
	return sim.Traits{Intra: c.intra, WorkConserving: c.num >= c.den}
}

func (c *capacity) Round(s *sim.State, p *sim.Planner) {
	c.fill.round(s, p)
	if c.preempt.on && c.preempt.reclaim(s, p) {
		c.fill.round(s, p) // the starved queue, lowest in share, goes first
	}
}

// underMax reports whether Dom(U_q + r) ≤ m_q, exactly.
func (c *capacity) underMax(s *sim.State, q int32, r sim.Vec) bool {
	u := s.User(sim.UserID(q)).Usage()
	c.sum = append(c.sum[:0], u...)
	for d, x := range r {
		c.sum[d] += x
	}
	return sim.ShareAtMost(c.sum, s.C(), c.num, c.den)
}
