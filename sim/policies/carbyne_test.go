package policies_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/capplan/capplan/datasets/workloads"
	"github.com/capplan/capplan/sim"
	"github.com/capplan/capplan/sim/policies"
)

// afterRound wraps a policy, keeping its traits and observer calls, and
// calls hook after each of its Rounds.
type afterRound struct {
	sim.Policy
	sim.Observer
	hook func(s *sim.State)
}

func wrap(p sim.Policy, hook func(s *sim.State)) *afterRound {
	a := &afterRound{Policy: p, hook: hook, Observer: sim.NopObserver{}}
	if o, ok := p.(sim.Observer); ok {
		a.Observer = o
	}
	return a
}

func (a *afterRound) Round(s *sim.State, p *sim.Planner) {
	a.Policy.Round(s, p)
	a.hook(s)
}

func (a *afterRound) Traits() sim.Traits { return a.Policy.(sim.TraitsPolicy).Traits() }

func (a *afterRound) JobRank(s *sim.State, j *sim.Job) []int32 {
	if r, ok := a.Policy.(sim.RankPolicy); ok {
		return r.JobRank(s, j)
	}
	return nil
}

// TestCarbyneFig2 is SIMULATE.md §7.2 example 1 [SEED carbyne §2.1, §3.3,
// Figure 2] on W-FIG2 (one resource of 100 = the paper's 1.0; a tick is
// 0.1 time unit). First Round:
//
//   - Shares: J1 asks S0 2×4 + S1 3×21 = 71, J2 2×29 = 58; the common
//     dominant share rises to 0.5 where the machine saturates (50 + 50),
//     below both caps (0.71, 0.58): A = (50, 50).
//   - J1 on a pool of 50: forward, S1 first (alignment .42 > .08) two at a
//     time (42) with S0's two (8) over [0, 10), S1's third over [10, 20),
//     S2 over [20, 21): H = 21. Reverse: S2 over [0, 1), then S1 ×2 and S0
//     ×2 over [1, 11), S1's third over [11, 21): R = 21, anchor 21. LS =
//     21 − ρ − 10: one S1 task has LS 0, the rest (S1, S0) LS 10, and S2
//     LS 20. Must: one S1 task (21), so L₁ = 50 − 21 = 29 (the paper's
//     0.29 = 0.08 for S0 + 0.21 for S1).
//   - J2 on 50: one task at a time, H = R = 20; LS 0 and 10: one must
//     task (29), L₂ = 50 − 29 = 21.
//   - DEFAULT (DRF over must tasks): J1's S1 task, J2's task. Leftover
//     L = 29 + 21 = 50: SRTF takes J2 first (work 2·10·0.29 = 5.8 < J1's
//     (2·10·4 + 3·10·21 + 10)/100 = 7.2), which places its second task
//     (21 remain), then J1, whose best-aligned head is S1 (21/100 ·
//     21/100 > 4/100 · 21/100): the paper's "packing adds one S1 task".
//
// J2 runs [0, 10), J1's S1 ×2 [0, 10), then S1's third and S0 ×2
// [10, 20) and S2 [20, 21): JCTs 21 and 10 (paper 2.1 and 1.0, avg 1.55).
func TestCarbyneFig2(t *testing.T) {
	cl, us, jobs := fig2()
	var plans [2]policies.CarbynePlan
	first := true
	pol := mustPolicy(t, "carbyne", nil)
	probe := wrap(pol, func(s *sim.State) {
		if first {
			first = false
			for j := range plans {
				plans[j], _ = policies.CarbynePlanOf(pol, sim.JobID(j))
			}
		}
	})
	tr := &sim.Trace{}
	res, err := sim.Run(sim.Config{Cluster: cl, Users: us, Policy: probe, Check: true, Observers: []sim.Observer{tr}}, sim.NewSliceSource(jobs))
	if err != nil {
		t.Fatal(err)
	}
	got := jctOf(res)
	if got["J1"] != 21 || got["J2"] != 10 {
		t.Errorf("JCT (J1, J2) = (%d, %d), want (21, 10)", got["J1"], got["J2"])
	}
	want := [2]policies.CarbynePlan{
		{Pool: sim.Vec{50}, H: 21, R: 21, Anchor: 21, Due: []int64{0, 1, 0}},
		{Pool: sim.Vec{50}, H: 20, R: 20, Anchor: 20, Due: []int64{1}},
	}
	for j := range want {
		if !reflect.DeepEqual(plans[j], want[j]) {
			t.Errorf("job %d first plan %+v, want %+v", j, plans[j], want[j])
		}
	}
	// leftovers: L₁ = 50 − 21, L₂ = 50 − 29
	if l1, l2 := 50-21*plans[0].Due[1]-4*plans[0].Due[0], 50-29*plans[1].Due[0]; l1 != 29 || l2 != 21 {
		t.Errorf("leftovers (%d, %d), want (29, 21)", l1, l2)
	}
	var atZero []string
	for _, r := range tr.Runs {
		if r.Start == 0 {
			atZero = append(atZero, fmt.Sprintf("%s/%d", r.Job, r.Stage))
		}
	}
	// DEFAULT: J1's S1, J2; leftover: J2 (SRTF), J1's S1 (packing)
	if w := []string{"J1/1", "J2/0", "J2/0", "J1/1"}; !reflect.DeepEqual(atZero, w) {
		t.Errorf("starts at 0: %v, want %v", atZero, w)
	}
}

// TestCarbyneIsDRFAtZero: with altruism 0 every Round is a drf entity=job
// Round (SIMULATE.md §3.3 step 5, §7.3; Carbyne §3.4.2), so every job's
// record (start, finish, attempts…) and the run's makespan, utilisation
// and fairness are identical, for both placement rules, with and without
// noise, on random instances, W-FIG2, a W-FB sample and a W-ALI sample.
func TestCarbyneIsDRFAtZero(t *testing.T) {
	type inst struct {
		name  string
		c     *sim.Cluster
		us    []sim.User
		jobs  []sim.Job
		noise float64
		tick  float64
	}
	var cases []inst
	for seed := uint64(1); seed <= 40; seed++ {
		c, us, jobs := randomCase(seed)
		cases = append(cases, inst{fmt.Sprintf("random-%d", seed), c, us, jobs, float64(seed%2) * 0.3, 1})
	}
	c, us, jobs := fig2()
	cases = append(cases, inst{"fig2", c, us, jobs, 0, 1})
	g, err := workloads.NewFB(workloads.FBParams{Jobs: 300, Seed: 3}, 0.001)
	if err != nil {
		t.Fatal(err)
	}
	var fb []sim.Job
	for j, ok := g.Next(); ok; j, ok = g.Next() {
		fb = append(fb, j)
	}
	cases = append(cases, inst{"fb-300", g.Cluster(), g.Users(), fb, 0.2, 0.001})
	if !testing.Short() {
		c, us, jobs := wali(t, 0.8, 150)
		cases = append(cases, inst{"ali-150", c, us, jobs, 0, 1})
	}
	for _, place := range []string{"first", "align"} {
		for _, in := range cases {
			run := func(name string, args map[string]string) *sim.Result {
				res, err := sim.Run(sim.Config{Cluster: in.c, Users: in.us, Policy: mustPolicy(t, name, args), Seed: 5,
					Noise: in.noise, TickSeconds: in.tick, Check: true, JainWindows: []sim.Tick{60}}, sim.NewSliceSource(in.jobs))
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			drf := run("drf", map[string]string{"entity": "job", "place": place})
			cb := run("carbyne", map[string]string{"altruism": "0", "place": place})
			if !reflect.DeepEqual(drf.Jobs, cb.Jobs) || drf.Makespan != cb.Makespan ||
				!reflect.DeepEqual(drf.Utilization, cb.Utilization) || !reflect.DeepEqual(drf.Jain, cb.Jain) {
				t.Errorf("%s place=%s: carbyne altruism=0 differs from drf entity=job", in.name, place)
			}
		}
	}
}

// TestCarbyneKeepsDeadline: on hand cases where every job arrives at 0
// (Carbyne's offline setting, Theorem 3.1), altruism never makes a job
// finish after the completion time T_k = H its first pack estimated on its
// DRF share: the must-start set keeps the job's own schedule.
func TestCarbyneKeepsDeadline(t *testing.T) {
	st := func(name string, n int32, dur sim.Tick, dem ...int64) sim.Stage {
		return sim.Stage{Name: name, Tasks: n, Duration: dur, Demand: sim.Vec(dem)}
	}
	cases := []struct {
		name string
		cap  []int64
		jobs []sim.Job
		// hand-computed first-pack spans H, per job
		H []sim.Tick
	}{
		// W-FIG2: H = 21 and 20 (TestCarbyneFig2).
		{"fig2", []int64{100}, func() []sim.Job { _, _, j := fig2(); return j }(), []sim.Tick{21, 20}},
		// One machine of 12. J1: long L 2×(20, 3) ∥ short S 4×(5, 3),
		// both into a join 1×(1, 1); J2: 6×(10, 2). Shares: J1 asks
		// 6·3 = 18, J2 6·2 = 12; level 6/12: A = (6, 6). J1 on 6: L ×2
		// [0, 20) (alignment ties: L is stage 0), S ×4 in two waves
		// after, [20, 30); join [30, 31): H = 31. J2 on 6: three at a
		// time, two waves: H = 20.
		{"branches", []int64{12}, []sim.Job{
			{Name: "J1", User: 0, Stages: []sim.Stage{st("L", 2, 20, 3), st("S", 4, 5, 3), st("join", 1, 1, 1)},
				Links: []sim.Link{{From: 0, To: 2}, {From: 1, To: 2}}},
			{Name: "J2", User: 1, Stages: []sim.Stage{st("m", 6, 10, 2)}},
		}, []sim.Tick{31, 20}},
		// One machine of 10. J1: map 6×(10, 2) → reduce 2×(5, 2); J2:
		// 3×(8, 4); J3: chain 2×(6, 3) → 2×(6, 3). They ask 12, 12 and 6
		// of 10 (dominant shares 1.2, 1.2, 0.6): no cap is reached before
		// the machine saturates at the common level 1/3, so each gets
		// ⌊3.33⌋ = 3. J1 on 3: one map at a time (2 + 2 > 3), six waves,
		// then one reduce at a time: H = 60 + 10 = 70. J2 on 3: a task (4)
		// exceeds the pool and runs alone: H = 3·8 = 24. J3 on 3: one task
		// at a time: H = 4·6 = 24.
		{"three", []int64{10}, []sim.Job{
			{Name: "J1", User: 0, Stages: []sim.Stage{st("map", 6, 10, 2), st("red", 2, 5, 2)}, Links: []sim.Link{{From: 0, To: 1}}},
			{Name: "J2", User: 1, Stages: []sim.Stage{st("m", 3, 8, 4)}},
			{Name: "J3", User: 2, Stages: []sim.Stage{st("a", 2, 6, 3), st("b", 2, 6, 3)}, Links: []sim.Link{{From: 0, To: 1}}},
		}, []sim.Tick{70, 24, 24}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pol := mustPolicy(t, "carbyne", nil)
			H := map[sim.JobID]sim.Tick{}
			probe := wrap(pol, func(s *sim.State) {
				for _, j := range s.ActiveJobs() {
					if _, done := H[j]; !done {
						if pl, ok := policies.CarbynePlanOf(pol, j); ok {
							H[j] = pl.H
						}
					}
				}
			})
			cl := oneMachine(c.cap...)
			res := simulate(t, cl, users(len(c.jobs)), probe, c.jobs)
			for i, j := range res.Jobs {
				if H[j.ID] != c.H[i] {
					t.Errorf("%s: first pack H = %d, want %d", j.Name, H[j.ID], c.H[i])
				}
				if j.JCT() > H[j.ID] {
					t.Errorf("%s: JCT %d after its T_k %d", j.Name, j.JCT(), H[j.ID])
				}
			}
		})
	}
}
