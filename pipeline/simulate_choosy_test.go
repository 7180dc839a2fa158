package pipeline

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/flow"
	"github.com/capplan/capplan/sim"
	"github.com/capplan/capplan/sim/policies"
)

// staticGoogle builds a Google-like instance (datasets.GoogleLike: users
// with weights and selectors over machine types), its exact integral CMMF
// shares by the code path of `capplan fairshare --integral`
// (Coalesce → CMMFProblem → flow.Integral), and the same instance as a
// simulator cluster of one-slot machines with one job per user of far
// more Exp(1 s) unit tasks than it can run in `horizon` seconds: constant,
// saturated demand.
func staticGoogle(t *testing.T, users, types, machines int, seed int64, horizon float64) (*sim.Cluster, []sim.User, []sim.Job, []int64) {
	t.Helper()
	c, d := datasets.GoogleLike(datasets.GoogleParams{Users: users, Types: types, Machines: machines}, seed)
	inst, err := datasets.Coalesce(c, d)
	if err != nil {
		t.Fatal(err)
	}
	res, err := flow.Integral(CMMFProblem(inst, nil))
	if err != nil {
		t.Fatal(err)
	}
	want := make([]int64, users)
	for u := range want {
		want[u] = res.Amount[u].Num
	}
	cl := &sim.Cluster{Resources: []string{"slots"}, Quanta: []float64{1}}
	for _, n := range c.Nodes() {
		cl.Machines = append(cl.Machines, sim.Machine{Name: n.Name, Cap: sim.Vec{1}, Labels: n.Labels, Node: -1, Owner: sim.NoUser})
	}
	weights, err := datasets.IntegerWeights(d.Applications)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 5))
	var us []sim.User
	var jobs []sim.Job
	for u, a := range d.Applications {
		us = append(us, sim.User{Name: a.Name, Weight: weights[u], Constraint: sim.Constraint{Selector: a.Selector}})
		n := int(float64(machines) * horizon * 1.5)
		st := sim.Stage{Name: "s", Tasks: int32(n), Demand: sim.Vec{1}, Durations: make([]sim.Tick, n)}
		for i := range st.Durations {
			st.Durations[i] = sim.Tick(max(1, math.Round(rng.ExpFloat64()*100))) // 100 ticks = 1 s at 10 ms
		}
		jobs = append(jobs, sim.Job{Name: fmt.Sprintf("J%d", u), User: sim.UserID(u), Stages: []sim.Stage{st}})
	}
	return cl, us, jobs, want
}

// TestChoosyConvergesToCMMF is SIMULATE.md §7.3 (CMMF) and Theorem 4
// [SEED choosy §6.1]: under saturated constant demand, Choosy's
// time-averaged allocation, after a warm-up of 20 mean task lengths, is
// within 2n slots of the exact integral CMMF shares for every user, with a
// mean relative error ≤ 2%; and cmmf-restricted hands out an empty cluster
// exactly as the CMMF shares (its first Round).
func TestChoosyConvergesToCMMF(t *testing.T) {
	for _, seed := range []int64{1, 2, 3} {
		const users, horizon = 8, 60.0
		cl, us, jobs, want := staticGoogle(t, users, 6, 150, seed, horizon)
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			pol, _ := policies.New("choosy", nil)
			res, err := sim.Run(sim.Config{Cluster: cl, Users: us, Policy: pol, Check: true, TickSeconds: 0.01,
				Until: sim.Tick(horizon * 100), SeriesPoints: 600}, sim.NewSliceSource(jobs))
			if err != nil {
				t.Fatal(err)
			}
			se := res.Series
			var relSum float64
			for u := range us {
				var sum, n float64
				for i, x := range se.Shares[u] {
					if se.Start+sim.Tick(i)*se.Step >= 2000 { // after 20 s
						sum += x
						n++
					}
				}
				got := sum / n * float64(res.Total[0])
				if math.Abs(got-float64(want[u])) > 2*users {
					t.Errorf("user %s: time-averaged %.1f slots, CMMF %d (allowed ± %d)", us[u].Name, got, want[u], 2*users)
				}
				if want[u] > 0 {
					relSum += math.Abs(got-float64(want[u])) / float64(want[u])
				}
			}
			if rel := relSum / users; rel > 0.02 {
				t.Errorf("mean relative error %.3f, want ≤ 0.02", rel)
			}

			tr := &sim.Trace{}
			pol, _ = policies.New("cmmf-restricted", nil)
			if _, err := sim.Run(sim.Config{Cluster: cl, Users: us, Policy: pol, Check: true, TickSeconds: 0.01, Until: 1,
				Observers: []sim.Observer{tr}}, sim.NewSliceSource(jobs)); err != nil {
				t.Fatal(err)
			}
			got := make([]int64, users)
			for _, r := range tr.Runs {
				if r.Start == 0 {
					got[jobs[r.JobID].User]++
				}
			}
			for u := range want {
				if got[u] != want[u] {
					t.Errorf("cmmf-restricted first Round: user %s got %d slots, CMMF %d", us[u].Name, got[u], want[u])
				}
			}
		})
	}
}
