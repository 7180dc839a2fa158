package policies_test

import (
	"fmt"
	"testing"

	"github.com/capplan/capplan/sim"
	"github.com/capplan/capplan/sim/policies"
)

func oneMachine(capv ...int64) *sim.Cluster {
	res := []string{"cpu", "mem"}[:len(capv)]
	return &sim.Cluster{Resources: res, Machines: []sim.Machine{{Name: "m0", Cap: sim.Vec(capv), Node: -1, Owner: sim.NoUser}}}
}

func users(n int) []sim.User {
	us := make([]sim.User, n)
	for i := range us {
		us[i] = sim.User{Name: fmt.Sprintf("u%d", i), Weight: 1}
	}
	return us
}

func mustPolicy(t testing.TB, name string, args map[string]string) sim.Policy {
	t.Helper()
	p, err := policies.New(name, args)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func simulate(t *testing.T, c *sim.Cluster, us []sim.User, p sim.Policy, jobs []sim.Job) *sim.Result {
	t.Helper()
	res, err := sim.Run(sim.Config{Cluster: c, Users: us, Policy: p, Check: true, JainWindows: []sim.Tick{10}}, sim.NewSliceSource(jobs))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func jctOf(res *sim.Result) map[string]sim.Tick {
	out := map[string]sim.Tick{}
	for _, j := range res.Jobs {
		out[j.Name] = j.JCT()
	}
	return out
}

// TestTwoJobsOneMachine: one machine of 4 cpu. J1 (user 0) has two tasks
// of 2 cpu × 10 ticks; J2 (user 1) one task of 4 cpu × 5 ticks; both
// arrive at 0 (J1 first in input order).
func TestTwoJobsOneMachine(t *testing.T) {
	jobs := func() []sim.Job {
		return []sim.Job{
			{Name: "J1", User: 0, Stages: []sim.Stage{{Name: "s", Tasks: 2, Duration: 10, Demand: sim.Vec{2}}}},
			{Name: "J2", User: 1, Stages: []sim.Stage{{Name: "s", Tasks: 1, Duration: 5, Demand: sim.Vec{4}}}},
		}
	}
	cases := []struct {
		policy string
		want   map[string]sim.Tick
	}{
		// fifo: J1 takes the machine at 0 (2+2 = 4 cpu) and ends at 10;
		// J2 starts at 10 and ends at 15.
		{"fifo", map[string]sim.Tick{"J1": 10, "J2": 15}},
		// sjf: cpl(J2) = 5 < cpl(J1) = 10, so J2 runs 0–5, then J1 5–15.
		{"sjf", map[string]sim.Tick{"J1": 15, "J2": 5}},
		// srtf: work(J2) = 5·4/4 = 5 < work(J1) = 2·10·2/4 = 10: as sjf.
		{"srtf", map[string]sim.Tick{"J1": 15, "J2": 5}},
		// drf: both users at share 0; u0 (lower id) places a 2-cpu task
		// (share 1/2); u1's 4-cpu task no longer fits (blocked); u0 places
		// its second task. J1 ends at 10, then J2 runs 10–15.
		{"drf", map[string]sim.Tick{"J1": 10, "J2": 15}},
	}
	for _, c := range cases {
		t.Run(c.policy, func(t *testing.T) {
			res := simulate(t, oneMachine(4), users(2), mustPolicy(t, c.policy, nil), jobs())
			got := jctOf(res)
			for name, w := range c.want {
				if got[name] != w {
					t.Errorf("JCT(%s) = %d, want %d", name, got[name], w)
				}
			}
		})
	}
}
