package policies_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/capplan/capplan/sim"
	"github.com/capplan/capplan/sim/policies"
)

// randomCase builds a small random instance: two machine classes (zone a
// and b), three users (one restricted to zone b), and jobs with barrier
// and one-to-one links, explicit task edges, dummies and random arrivals.
func randomCase(seed uint64) (*sim.Cluster, []sim.User, []sim.Job) {
	rng := rand.New(rand.NewPCG(seed, 99))
	c := &sim.Cluster{Resources: []string{"cpu", "mem"}}
	for i := 0; i < 3+rng.IntN(3); i++ {
		c.Machines = append(c.Machines, sim.Machine{Name: fmt.Sprintf("a%d", i), Cap: sim.Vec{8, 32}, Node: -1, Owner: sim.NoUser,
			Labels: map[string]string{"zone": "a"}})
	}
	for i := 0; i < 1+rng.IntN(3); i++ {
		c.Machines = append(c.Machines, sim.Machine{Name: fmt.Sprintf("b%d", i), Cap: sim.Vec{16, 64}, Node: -1, Owner: sim.NoUser,
			Labels: map[string]string{"zone": "b"}})
	}
	zoneB, _ := labels.Parse("zone=b")
	us := []sim.User{{Name: "u0", Weight: 1}, {Name: "u1", Weight: 2}, {Name: "u2", Weight: 1, Constraint: sim.Constraint{Selector: zoneB}}}
	var jobs []sim.Job
	for j := 0; j < 4+rng.IntN(10); j++ {
		job := sim.Job{Name: fmt.Sprintf("j%d", j), User: sim.UserID(rng.IntN(3)), Arrival: sim.Tick(rng.IntN(60))}
		S := 1 + rng.IntN(4)
		first := []int32{0}
		for s := 0; s < S; s++ {
			n := int32(1 + rng.IntN(5))
			st := sim.Stage{Name: fmt.Sprintf("s%d", s), Tasks: n, Demand: sim.Vec{int64(1 + rng.IntN(4)), int64(1 + rng.IntN(16))}}
			if rng.IntN(6) == 0 {
				st.Duration = 0 // dummies
			} else if rng.IntN(2) == 0 {
				st.Duration = sim.Tick(1 + rng.IntN(20))
			} else {
				for i := int32(0); i < n; i++ {
					st.Durations = append(st.Durations, sim.Tick(1+rng.IntN(20)))
				}
			}
			if rng.IntN(4) == 0 {
				for i := int32(0); i < n; i++ {
					st.Demands = append(st.Demands, sim.Vec{int64(1 + rng.IntN(4)), int64(1 + rng.IntN(16))})
				}
			}
			for p := 0; p < s; p++ {
				if rng.IntN(3) != 0 {
					continue
				}
				kind := sim.Barrier
				if job.Stages[p].Tasks == n && rng.IntN(2) == 0 {
					kind = sim.OneToOne
				}
				job.Links = append(job.Links, sim.Link{From: int32(p), To: int32(s), Kind: kind})
			}
			job.Stages = append(job.Stages, st)
			first = append(first, first[len(first)-1]+n)
		}
		for e := 0; e < rng.IntN(4) && S > 1; e++ {
			a, b := rng.IntN(S-1), 0
			b = a + 1 + rng.IntN(S-1-a)
			job.Edges = append(job.Edges, sim.Edge{From: first[a] + int32(rng.IntN(int(first[a+1]-first[a]))),
				To: first[b] + int32(rng.IntN(int(first[b+1]-first[b])))})
		}
		jobs = append(jobs, job)
	}
	return c, us, jobs
}

// TestInvariantsRandom runs every policy on random instances with the
// invariants checked after every Round, and checks every JCT against the
// job's lower bound.
func TestInvariantsRandom(t *testing.T) {
	type variant struct {
		name string
		args map[string]string
	}
	var variants []variant
	for _, name := range policies.Names() {
		if runsOnPlainMachines(t, name) {
			variants = append(variants, variant{name, nil})
		}
	}
	variants = append(variants,
		variant{"capacity", map[string]string{"preempt": "true", "wait": "0.000001", "max": "0.75"}},
		variant{"capacity", map[string]string{"preempt": "true", "wait": "5", "intra": "cp"}},
		variant{"drf", map[string]string{"entity": "job", "place": "align", "k": "all"}},
		variant{"fifo", map[string]string{"place": "best", "k": "3"}},
		variant{"tetris", map[string]string{"f": "0.5", "intra": "cp"}},
	)
	for _, v := range variants {
		name := v.name
		label := name
		for _, k := range []string{"preempt", "wait", "max", "entity", "place", "k", "f", "intra"} {
			if x, ok := v.args[k]; ok {
				label += "/" + k + "=" + x
			}
		}
		t.Run(label, func(t *testing.T) {
			for seed := uint64(1); seed <= 60; seed++ {
				c, us, jobs := randomCase(seed)
				noise := 0.0
				if seed%3 == 0 {
					noise = 0.4
				}
				res, err := sim.Run(sim.Config{Cluster: c, Users: us, Policy: mustPolicy(t, name, v.args), Seed: seed, Noise: noise,
					Check: true, JainWindows: []sim.Tick{10, 60}}, sim.NewSliceSource(jobs))
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if len(res.Jobs)+len(res.Rejected) != len(jobs) {
					t.Fatalf("seed %d: %d jobs and %d rejections for %d inputs", seed, len(res.Jobs), len(res.Rejected), len(jobs))
				}
				for _, j := range res.Jobs {
					if j.Finish < 0 || j.JCT() < j.LB || (j.Start >= 0 && j.Start < j.Arrival) {
						t.Fatalf("seed %d: job %s arrival %d start %d finish %d lb %d", seed, j.Name, j.Arrival, j.Start, j.Finish, j.LB)
					}
				}
			}
		})
	}
}

// TestDeterministic: the same cell twice gives identical results.
func TestDeterministic(t *testing.T) {
	for _, name := range policies.Names() {
		if !runsOnPlainMachines(t, name) {
			continue
		}
		run := func() *sim.Result {
			c, us, jobs := randomCase(7)
			res, err := sim.Run(sim.Config{Cluster: c, Users: us, Policy: mustPolicy(t, name, nil), Seed: 7, Noise: 0.3,
				JainWindows: []sim.Tick{10}}, sim.NewSliceSource(jobs))
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		if a, b := run(), run(); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two runs differ", name)
		}
	}
}

// TestMetamorphicDoubling: doubling every duration and arrival doubles
// every JCT (SIMULATE.md §7.3), for the policies whose decisions depend on
// time only through ratios.
func TestMetamorphicDoubling(t *testing.T) {
	for _, name := range []string{"fifo", "drf", "sjf", "srtf", "cp", "tetris", "capacity"} {
		for seed := uint64(1); seed <= 30; seed++ {
			c, us, jobs := randomCase(seed)
			base := simulate(t, c, us, mustPolicy(t, name, nil), jobs)
			c, us, jobs = randomCase(seed)
			for i := range jobs {
				jobs[i].Arrival *= 2
				for s := range jobs[i].Stages {
					st := &jobs[i].Stages[s]
					st.Duration *= 2
					for k := range st.Durations {
						st.Durations[k] *= 2
					}
				}
			}
			twice := simulate(t, c, us, mustPolicy(t, name, nil), jobs)
			for i := range base.Jobs {
				if b, d := base.Jobs[i].JCT(), twice.Jobs[i].JCT(); d != 2*b {
					t.Fatalf("%s seed %d job %s: JCT %d, doubled %d", name, seed, base.Jobs[i].Name, b, d)
				}
			}
		}
	}
}

// runsOnPlainMachines reports whether a policy runs on randomCase's
// clusters: policies that check their cluster (xschedule needs container
// mode) are tested on their own instances.
func runsOnPlainMachines(t testing.TB, name string) bool {
	c, us, _ := randomCase(1)
	cc, ok := mustPolicy(t, name, nil).(interface {
		CheckCluster(*sim.Cluster, []sim.User) error
	})
	return !ok || cc.CheckCluster(c, us) == nil
}
