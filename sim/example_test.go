package sim_test

import (
	"fmt"

	"github.com/capplan/capplan/sim"
	"github.com/capplan/capplan/sim/policies"
)

// Two jobs on one machine of 4 cores under drf: J1's two 2-core tasks and
// J2's 4-core task cannot all run at once; both users start at share 0,
// u0 wins the tie and fills the machine, so J2 waits for J1.
func ExampleRun() {
	cluster := &sim.Cluster{Resources: []string{"cpu"},
		Machines: []sim.Machine{{Name: "m0", Cap: sim.Vec{4}, Node: -1, Owner: sim.NoUser}}}
	users := []sim.User{{Name: "u0", Weight: 1}, {Name: "u1", Weight: 1}}
	jobs := []sim.Job{
		{Name: "J1", User: 0, Stages: []sim.Stage{{Name: "map", Tasks: 2, Duration: 10, Demand: sim.Vec{2}}}},
		{Name: "J2", User: 1, Stages: []sim.Stage{{Name: "map", Tasks: 1, Duration: 5, Demand: sim.Vec{4}}}},
	}
	drf, _ := policies.New("drf", nil)
	res, err := sim.Run(sim.Config{Cluster: cluster, Users: users, Policy: drf, Check: true}, sim.NewSliceSource(jobs))
	if err != nil {
		panic(err)
	}
	for _, j := range res.Jobs {
		fmt.Printf("%s: start %d, JCT %d\n", j.Name, j.Start, j.JCT())
	}
	fmt.Println("makespan", res.Makespan)
	// Output:
	// J1: start 0, JCT 10
	// J2: start 10, JCT 15
	// makespan 15
}
