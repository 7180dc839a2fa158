package sim_test

import (
	"math"
	"testing"

	"github.com/capplan/capplan/sim"
)

// estimateProbe records, at the first Round, the estimates a policy sees
// through TaskView.Est and JobView.Spec, then places greedily.
type estimateProbe struct {
	greedy
	est, spec []sim.Tick
}

func (e *estimateProbe) Round(s *sim.State, p *sim.Planner) {
	if e.est == nil {
		jv := s.Job(0)
		for i := 0; i < jv.NumTasks(); i++ {
			e.est = append(e.est, jv.Task(int32(i)).Est())
		}
		st := &jv.Spec().Stages[0]
		for i := 0; i < int(st.Tasks); i++ {
			e.spec = append(e.spec, st.TaskDuration(i))
		}
	}
	e.greedy.Round(s, p)
}

// TestMisestimate: one job of 4 tasks of true duration 100 on a machine
// holding all of them. Policies see 100·(1+X); the job still ends at the
// truth, 100, since tasks run with the truth.
func TestMisestimate(t *testing.T) {
	cases := []struct {
		name string
		m    sim.Misestimate
		// check the estimates seen
		check func(est []sim.Tick) bool
	}{
		// X = 0.5 exactly: every estimate 150.
		{"fixed", sim.Misestimate{Lo: 0.5, Hi: 0.5}, func(e []sim.Tick) bool {
			return e[0] == 150 && e[1] == 150 && e[2] == 150 && e[3] == 150
		}},
		// X ~ U[−0.5, 0.5] per task: estimates in [50, 150], not all equal.
		{"per task", sim.Misestimate{Lo: -0.5, Hi: 0.5}, func(e []sim.Tick) bool {
			for _, x := range e {
				if x < 50 || x > 150 {
					return false
				}
			}
			return e[0] != e[1] || e[1] != e[2] || e[2] != e[3]
		}},
		// one factor per stage: all four equal, within [50, 150].
		{"per stage", sim.Misestimate{Lo: -0.5, Hi: 0.5, PerStage: true}, func(e []sim.Tick) bool {
			return e[0] >= 50 && e[0] <= 150 && e[0] == e[1] && e[1] == e[2] && e[2] == e[3]
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			probe := &estimateProbe{}
			jobs := []sim.Job{{Name: "j", Stages: []sim.Stage{stage("s", 4, 100, 1)}}}
			res, err := sim.Run(sim.Config{Cluster: cluster([]string{"cpu"}, 1, 4), Users: users(1), Policy: probe,
				Check: true, Seed: 3, Misestimate: c.m}, sim.NewSliceSource(jobs))
			if err != nil {
				t.Fatal(err)
			}
			if !c.check(probe.est) {
				t.Errorf("estimates seen %v", probe.est)
			}
			for i := range probe.est {
				if probe.spec[i] != probe.est[i] {
					t.Errorf("Spec shows %v, Est %v: both must be the estimates", probe.spec, probe.est)
					break
				}
			}
			if got := res.Jobs[0].JCT(); got != 100 {
				t.Errorf("JCT %d, want the truth 100", got)
			}
			if jobs[0].Stages[0].Durations != nil {
				t.Error("the caller's job was modified")
			}
		})
	}
}

// TestMisestimateInvalid: a factor 1+X must stay positive.
func TestMisestimateInvalid(t *testing.T) {
	for _, m := range []sim.Misestimate{{Lo: -1, Hi: 0}, {Lo: 0.5, Hi: 0.2}, {Lo: 0, Hi: math.Inf(1)}} {
		_, err := sim.Run(sim.Config{Cluster: cluster([]string{"cpu"}, 1, 4), Users: users(1), Policy: &greedy{}, Misestimate: m},
			sim.NewSliceSource(nil))
		if err == nil {
			t.Errorf("%+v accepted", m)
		}
	}
}
