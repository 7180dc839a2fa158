package sim_test

import (
	"fmt"
	"testing"

	"github.com/capplan/capplan/sim"
)

// cluster returns n identical machines of capacity capv over resources.
func cluster(resources []string, n int, capv ...int64) *sim.Cluster {
	c := &sim.Cluster{Resources: resources}
	for i := 0; i < n; i++ {
		c.Machines = append(c.Machines, sim.Machine{Name: fmt.Sprintf("m%d", i), Cap: sim.Vec(capv), Node: -1, Owner: sim.NoUser})
	}
	return c
}

// stage is a stage of n tasks of duration dur and demand dem.
func stage(name string, n int32, dur sim.Tick, dem ...int64) sim.Stage {
	return sim.Stage{Name: name, Tasks: n, Duration: dur, Demand: sim.Vec(dem)}
}

// users returns n users of weight 1 named u0…
func users(n int) []sim.User {
	us := make([]sim.User, n)
	for i := range us {
		us[i] = sim.User{Name: fmt.Sprintf("u%d", i), Weight: 1}
	}
	return us
}

// run simulates jobs under policy with invariants checked.
func run(t *testing.T, c *sim.Cluster, us []sim.User, p sim.Policy, jobs []sim.Job) *sim.Result {
	t.Helper()
	res, err := sim.Run(sim.Config{Cluster: c, Users: us, Policy: p, Check: true, JainWindows: []sim.Tick{10}}, sim.NewSliceSource(jobs))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// jcts returns the JCT of each job by name.
func jcts(res *sim.Result) map[string]sim.Tick {
	out := map[string]sim.Tick{}
	for _, j := range res.Jobs {
		out[j.Name] = j.JCT()
	}
	return out
}
