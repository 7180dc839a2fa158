package policies

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/capplan/capplan/sim"
)

// randomContainers builds a container-mode instance: a base node where
// each of three users owns two ⟨2, 4⟩ containers (so every task can run
// on its owner's containers, whatever the request type and the AMs), and
// 1–3 nodes of ⟨8, 16⟩ cut into containers of ⟨1, 2⟩, ⟨2, 2⟩ or ⟨2, 4⟩
// owned by random users (δ 0, 5 or 30 normalised·s, or Garbo), and jobs
// of 1–3 stages of tasks of ⟨1, 2⟩ or ⟨2, 4⟩ arriving over a minute.
func randomContainers(seed uint64) (*sim.Cluster, []sim.User, []sim.Job) {
	rng := rand.New(rand.NewPCG(seed, 77))
	c := &sim.Cluster{Resources: []string{"cpu", "mem"}, Nodes: []sim.Node{{Name: "base", Cap: sim.Vec{12, 24}}}}
	for k := 0; k < 6; k++ {
		o := sim.UserID(k % 3)
		c.Machines = append(c.Machines, sim.Machine{Name: fmt.Sprintf("base/c%d", k), Cap: sim.Vec{2, 4}, Slots: 1, Node: 0, Owner: o,
			Labels: map[string]string{"owner": fmt.Sprint(o)}})
	}
	shapes := []sim.Vec{{1, 2}, {2, 2}, {2, 4}}
	for n := 1; n <= 1+rng.IntN(3); n++ {
		c.Nodes = append(c.Nodes, sim.Node{Name: fmt.Sprintf("n%d", n), Cap: sim.Vec{8, 16}})
		left := sim.Vec{8, 16}
		for k := 0; k < 6; k++ {
			sh := shapes[rng.IntN(len(shapes))]
			if !left.Dominates(sh) {
				continue
			}
			left[0], left[1] = left[0]-sh[0], left[1]-sh[1]
			o := sim.UserID(rng.IntN(3))
			c.Machines = append(c.Machines, sim.Machine{Name: fmt.Sprintf("n%d/c%d", n, k), Cap: sh, Slots: 1, Node: int32(n), Owner: o,
				Labels: map[string]string{"owner": fmt.Sprint(o)}})
		}
	}
	us := make([]sim.User, 3)
	for u := range us {
		us[u] = sim.User{Name: fmt.Sprintf("a%d", u), Weight: 1}
		switch rng.IntN(4) {
		case 0:
			us[u].Sharing = sim.Sharing{Alone: true}
		default:
			us[u].Sharing = sim.Sharing{Bound: []float64{0, 5, 30}[rng.IntN(3)], Set: true}
		}
	}
	var jobs []sim.Job
	for j := 0; j < 3+rng.IntN(8); j++ {
		job := sim.Job{Name: fmt.Sprintf("j%d", j), User: sim.UserID(rng.IntN(3)), Arrival: sim.Tick(rng.IntN(60_000))}
		for s := 0; s < 1+rng.IntN(3); s++ {
			dem := []sim.Vec{{1, 2}, {2, 4}}[rng.IntN(2)]
			job.Stages = append(job.Stages, sim.Stage{Name: fmt.Sprintf("s%d", s), Tasks: int32(1 + rng.IntN(6)),
				Duration: sim.Tick(1000 * (1 + rng.IntN(40))), Demand: dem})
			if s > 0 {
				job.Links = append(job.Links, sim.Link{From: int32(s - 1), To: int32(s), Kind: sim.Barrier})
			}
		}
		jobs = append(jobs, job)
	}
	return c, us, jobs
}

// debtLedger integrates, independently of the policy, every pair's
// sharing exactly from the task runs: share[u][a] is what u owes a, in
// charge × ticks (charge = Σ_d size_d/C_d of the container).
type debtLedger struct {
	sim.NopObserver
	c     *sim.Cluster
	total sim.Vec
	rate  [][]*big.Rat // rate[u][a]: charge of a's containers u runs on
	debt  [][]*big.Rat
	last  sim.Tick
}

func newDebtLedger(c *sim.Cluster, users int) *debtLedger {
	l := &debtLedger{c: c, total: make(sim.Vec, len(c.Resources))}
	for _, n := range c.Nodes {
		for d, v := range n.Cap {
			l.total[d] += v
		}
	}
	for u := 0; u < users; u++ {
		var r, d []*big.Rat
		for a := 0; a < users; a++ {
			r, d = append(r, new(big.Rat)), append(d, new(big.Rat))
		}
		l.rate, l.debt = append(l.rate, r), append(l.debt, d)
	}
	return l
}

func (l *debtLedger) advance(now sim.Tick) {
	dt := big.NewRat(int64(now-l.last), 1)
	for u := range l.rate {
		for a := range l.rate[u] {
			x := new(big.Rat).Mul(l.rate[u][a], dt)
			l.debt[u][a].Add(l.debt[u][a], x)
			l.debt[a][u].Sub(l.debt[a][u], x)
		}
	}
	l.last = now
}

func (l *debtLedger) change(s *sim.State, t sim.TaskRef, m sim.MachineID, sign int64) {
	l.advance(s.Now())
	u, o := s.Job(t.Job).User(), l.c.Machines[m].Owner
	if u == o {
		return
	}
	ch := new(big.Rat)
	for d, v := range l.c.Machines[m].Cap {
		ch.Add(ch, big.NewRat(sign*v, l.total[d]))
	}
	l.rate[u][o].Add(l.rate[u][o], ch)
}

func (l *debtLedger) TaskStarted(s *sim.State, t sim.TaskRef, m sim.MachineID) { l.change(s, t, m, 1) }
func (l *debtLedger) TaskEnded(s *sim.State, t sim.TaskRef, m sim.MachineID, _ sim.EndKind) {
	l.change(s, t, m, -1)
}

// boundCheck wraps xschedule and asserts after every Round (SIMULATE.md
// §7.1 invariants 6 and 8): the policy's pair shares equal the ledger's
// integrals of the charges; and an application never waits longer than G
// for its own container while the borrower is at or beyond their bound —
// from the Round its open request (one that fits a container it owns) met
// such a loan, it gets a container of its own within G, or the condition
// ends (the loan ends, or the request is served or gone).
type boundCheck struct {
	*xschedule
	t      *testing.T
	ledger *debtLedger
	since  []sim.Tick
}

func (b *boundCheck) Round(s *sim.State, p *sim.Planner) {
	b.xschedule.Round(s, p)
	now := s.Now()
	b.ledger.advance(now)
	U := s.NumUsers()
	for u := 0; u < U; u++ {
		for a := 0; a < U; a++ {
			if u != a && b.owes(sim.UserID(u), sim.UserID(a), now).Cmp(b.ledger.debt[u][a]) != 0 {
				b.t.Fatalf("at %d: policy share %s→%s = %s, integral of charges %s", now, s.User(sim.UserID(u)).Name(),
					s.User(sim.UserID(a)).Name(), b.owes(sim.UserID(u), sim.UserID(a), now).RatString(), b.ledger.debt[u][a].RatString())
			}
		}
	}
	grace := s.Ticks(b.p.Grace)
	for a := 0; a < U; a++ {
		if b.waiting(s, sim.UserID(a)) {
			if b.since[a] < 0 {
				b.since[a] = now
			} else if now-b.since[a] > grace {
				b.t.Fatalf("at %d: %s has waited since %d (> G = %d) for its own container lent beyond the bound",
					now, s.User(sim.UserID(a)).Name(), b.since[a], grace)
			}
		} else {
			b.since[a] = -1
		}
	}
}

// waiting reports whether application a has a runnable task that fits a
// container it owns which a borrower at or beyond its bound runs on, and
// that no pending claim of a serves.
func (b *boundCheck) waiting(s *sim.State, a sim.UserID) bool {
	if b.apps[a].alone || b.apps[a].req == nonOwned {
		return false
	}
	now := s.Now()
	lent := 0
	for mi, u := range b.user {
		m := sim.MachineID(mi)
		if b.owner[mi] != a || u == sim.NoUser || u == a || b.held[mi] {
			continue
		}
		if b.ledger.debt[u][a].Cmp(b.bound(u, a)) < 0 {
			continue
		}
		for _, j := range s.RunnableJobs() {
			jv := s.Job(j)
			if jv.User() != a {
				continue
			}
			for _, si := range jv.Groups() {
				if tv := s.Task(s.Group(sim.GroupRef{Job: j, Stage: si}).Head()); tv.Eligible().Has(s.ClassOf(m)) && s.Machine(m).Cap().Dominates(tv.Demand()) {
					lent++
				}
			}
		}
	}
	_ = now
	return lent > b.claimed[a]
}

// TestXScheduleRandom runs xschedule with every scheduler and request type
// on random container instances, the simulator's invariants and
// boundCheck's after every Round, and checks that two runs are identical.
func TestXScheduleRandom(t *testing.T) {
	params := []map[string]string{
		{"sched": "fifo", "request": "ownedfirst"},
		{"sched": "a0=flex,a1=fair,a2=fifo", "request": "a0=ownedonly,a1=nonowned", "grace": "3"},
		{"sched": "flex", "request": "nonowned", "grace": "0"},
		{"sched": "fair", "request": "ownedonly", "am": "1", "fitness": "4"},
	}
	for k, args := range params {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			for seed := uint64(1); seed <= 80; seed++ {
				c, us, jobs := randomContainers(seed)
				run := func() *sim.Result {
					pol, err := New("xschedule", args)
					if err != nil {
						t.Fatal(err)
					}
					x := pol.(*xschedule)
					if err := x.CheckCluster(c, us); err != nil {
						return nil
					}
					chk := &boundCheck{xschedule: x, t: t, ledger: newDebtLedger(c, len(us)), since: []sim.Tick{-1, -1, -1}}
					res, err := sim.Run(sim.Config{Cluster: c, Users: us, Policy: chk, Seed: seed, Noise: 0.3, Check: true, TickSeconds: 0.001,
						Observers: []sim.Observer{chk.ledger}}, sim.NewSliceSource(jobs))
					if err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					return res
				}
				a, b := run(), run()
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("seed %d: two runs differ", seed)
				}
			}
		})
	}
}
