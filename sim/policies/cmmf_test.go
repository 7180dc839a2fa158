package policies_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/capplan/capplan/sim"
)

// slotSampler is an Observer that records every user's running tasks at
// given times: the counts after all events at a time, as the cluster
// stands until the next event.
type slotSampler struct {
	sim.NopObserver
	at      []sim.Tick // sample times, increasing
	next    int
	running []int64
	samples [][]int64 // per sample time, per user
}

func newSlotSampler(users int, at ...sim.Tick) *slotSampler {
	return &slotSampler{at: at, running: make([]int64, users)}
}

func (o *slotSampler) flush(now sim.Tick) {
	for o.next < len(o.at) && o.at[o.next] < now {
		o.samples = append(o.samples, append([]int64(nil), o.running...))
		o.next++
	}
}

func (o *slotSampler) TaskStarted(s *sim.State, t sim.TaskRef, _ sim.MachineID) {
	o.flush(s.Now())
	o.running[s.Job(t.Job).User()]++
}

// TaskEnded counts every end; a migration's TaskStarted follows.
func (o *slotSampler) TaskEnded(s *sim.State, t sim.TaskRef, _ sim.MachineID, _ sim.EndKind) {
	o.flush(s.Now())
	o.running[s.Job(t.Job).User()]--
}

// mesosCase is SIMULATE.md §7.2 case 4 [SEED choosy §7.3]: four machine
// types of 40 slots (5 machines of 8 slots each: std, highmem, 10G, GPU);
// hadoop may use every type, spark highmem, cuda GPU, mpi 10G and GPU.
// hadoop arrives at 0 and spark at 30 s, both with more work than they can
// finish by 400 s; cuda arrives at 65 s and mpi at 100 s with enough work
// for about 120 s and 100 s at their fair shares; a second mpi arrives at
// 305 s. Tasks last Exp(1 s) [DERIVED], drawn from seed 1; ticks are 1 ms.
func mesosCase() (*sim.Cluster, []sim.User, []sim.Job) {
	c := &sim.Cluster{Resources: []string{"slots"}}
	for _, typ := range []string{"std", "highmem", "10g", "gpu"} {
		for i := 0; i < 5; i++ {
			c.Machines = append(c.Machines, sim.Machine{Name: fmt.Sprintf("%s-%d", typ, i), Cap: sim.Vec{8},
				Labels: map[string]string{"type": typ}, Node: -1, Owner: sim.NoUser})
		}
	}
	sel := func(s string) sim.Constraint {
		x, err := labels.Parse(s)
		if err != nil {
			panic(err)
		}
		return sim.Constraint{Selector: x}
	}
	us := []sim.User{{Name: "hadoop", Weight: 1}, {Name: "spark", Weight: 1, Constraint: sel("type=highmem")},
		{Name: "cuda", Weight: 1, Constraint: sel("type=gpu")}, {Name: "mpi", Weight: 1, Constraint: sel("type in (10g,gpu)")}}
	rng := rand.New(rand.NewPCG(1, 2))
	job := func(name string, u sim.UserID, arrival float64, tasks int) sim.Job {
		st := sim.Stage{Name: "tasks", Tasks: int32(tasks), Demand: sim.Vec{1}, Durations: make([]sim.Tick, tasks)}
		for i := range st.Durations {
			st.Durations[i] = sim.Tick(max(1, math.Round(rng.ExpFloat64()*1000)))
		}
		return sim.Job{Name: name, User: u, Arrival: sim.Tick(arrival * 1000), Stages: []sim.Stage{st}}
	}
	// Work in slot-seconds: hadoop 160·400, spark 40·400 (never done);
	// cuda 40·120, mpi 40·100, mpi2 60·60 at their CMMF shares.
	jobs := []sim.Job{job("hadoop", 0, 0, 160*400), job("spark", 1, 30, 40*400), job("cuda", 2, 65, 40*120),
		job("mpi", 3, 100, 40*100), job("mpi2", 3, 305, 60*60)}
	return c, us, jobs
}

// TestMesosShares checks the shares 5 s after each arrival: 1/4 of the
// 160 slots for each active user once all four are present (and spark's
// and cuda's 40 slots as they arrive), and (spark, hadoop, mpi) = (1/4,
// 3/8, 3/8) = (40, 60, 60) slots after the second mpi at 305 s, when cuda
// and the first mpi have finished. A user may be off by 2 slots: a task
// of Exp(1 s) still runs 5 s later with probability e⁻⁵ ≈ 0.7%.
func TestMesosShares(t *testing.T) {
	c, us, jobs := mesosCase()
	at := []sim.Tick{35000, 70000, 105000, 310000}
	want := [][]int64{
		{120, 40, 0, 0}, // hadoop the rest, spark its 40 highmem slots
		{80, 40, 40, 0},
		{40, 40, 40, 40},
		{60, 40, 0, 60},
	}
	for _, pol := range []string{"choosy", "cmmf-restricted", "cmmf-migrate", "cmmf-preempt"} {
		t.Run(pol, func(t *testing.T) {
			o := newSlotSampler(len(us), at...)
			res, err := sim.Run(sim.Config{Cluster: c, Users: us, Policy: mustPolicy(t, pol, nil), Check: true, TickSeconds: 0.001,
				Until: 320000, Observers: []sim.Observer{o}}, sim.NewSliceSource(jobs))
			if err != nil {
				t.Fatal(err)
			}
			o.flush(res.End + 1)
			for k, w := range want {
				for u := range w {
					if d := o.samples[k][u] - w[u]; d < -2 || d > 2 {
						t.Errorf("at %d s: %s runs %d slots, want %d ± 2 (all: %v)", at[k]/1000, us[u].Name, o.samples[k][u], w[u], o.samples[k])
					}
				}
			}
		})
	}
}

// randomSlotCase builds a random slot-mode instance: machines of 1–4
// slots in zones a, b and c, users restricted to zone sets, and jobs of
// unit tasks in barrier-linked stages arriving over a minute.
func randomSlotCase(seed uint64) (*sim.Cluster, []sim.User, []sim.Job) {
	rng := rand.New(rand.NewPCG(seed, 1234))
	c := &sim.Cluster{Resources: []string{"slots"}}
	zones := []string{"a", "b", "c"}
	for i := 0; i < 3+rng.IntN(6); i++ {
		z := zones[rng.IntN(3)]
		c.Machines = append(c.Machines, sim.Machine{Name: fmt.Sprintf("m%d", i), Cap: sim.Vec{int64(1 + rng.IntN(4))},
			Labels: map[string]string{"zone": z}, Node: -1, Owner: sim.NoUser})
	}
	sels := []string{"", "zone=a", "zone in (b,c)", "zone!=c"}
	var us []sim.User
	for u := 0; u < 4; u++ {
		usr := sim.User{Name: fmt.Sprintf("u%d", u), Weight: int64(1 + rng.IntN(3))}
		if s := sels[rng.IntN(len(sels))]; s != "" {
			x, _ := labels.Parse(s)
			usr.Constraint = sim.Constraint{Selector: x}
		}
		us = append(us, usr)
	}
	var jobs []sim.Job
	for j := 0; j < 3+rng.IntN(8); j++ {
		job := sim.Job{Name: fmt.Sprintf("j%d", j), User: sim.UserID(rng.IntN(4)), Arrival: sim.Tick(rng.IntN(60))}
		for s := 0; s < 1+rng.IntN(3); s++ {
			job.Stages = append(job.Stages, sim.Stage{Name: fmt.Sprintf("s%d", s), Tasks: int32(1 + rng.IntN(8)),
				Duration: sim.Tick(1 + rng.IntN(30)), Demand: sim.Vec{1}})
			if s > 0 {
				job.Links = append(job.Links, sim.Link{From: int32(s - 1), To: int32(s), Kind: sim.Barrier})
			}
		}
		jobs = append(jobs, job)
	}
	return c, us, jobs
}

// TestSlotPoliciesRandom runs choosy and the three CMMF comparators on
// random slot-mode instances, with noise on every third, the simulator's
// invariants (work conservation included) after every Round, and checks
// that two runs are identical.
func TestSlotPoliciesRandom(t *testing.T) {
	for _, pol := range []string{"choosy", "cmmf-restricted", "cmmf-migrate", "cmmf-preempt"} {
		t.Run(pol, func(t *testing.T) {
			for seed := uint64(1); seed <= 60; seed++ {
				c, us, jobs := randomSlotCase(seed)
				noise := 0.0
				if seed%3 == 0 {
					noise = 0.4
				}
				run := func() *sim.Result {
					res, err := sim.Run(sim.Config{Cluster: c, Users: us, Policy: mustPolicy(t, pol, nil), Seed: seed, Noise: noise, Check: true},
						sim.NewSliceSource(jobs))
					if err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					return res
				}
				a, b := run(), run()
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("seed %d: two runs differ", seed)
				}
				for _, j := range a.Jobs {
					if j.Finish < 0 || j.JCT() < j.LB {
						t.Fatalf("seed %d: job %s finish %d lb %d", seed, j.Name, j.Finish, j.LB)
					}
				}
			}
		})
	}
}
