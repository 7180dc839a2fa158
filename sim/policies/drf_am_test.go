package policies_test

import (
	"testing"

	"github.com/capplan/capplan/sim"
)

// TestDRFAMOrder: four containers, AMs on at most half of them. J1 (u0,
// six tasks of 10) arrives at 0, takes m0 for its AM and runs three tasks;
// J2 (u1, one task) arrives at 1 and finds every container busy. At 10
// J2's AM takes a freed container, leaving two. order=drf: both jobs hold
// nothing (J1's tasks ended), J1 (lower id) places one, then J2, whose
// share is lower: J2 ends at 20, J1's last two run 20–30. order=fifo: J1
// arrived first and places on both; J2 runs 20–30.
func TestDRFAMOrder(t *testing.T) {
	c := &sim.Cluster{Resources: []string{"slots"}}
	for _, n := range []string{"m0", "m1", "m2", "m3"} {
		c.Machines = append(c.Machines, sim.Machine{Name: n, Cap: sim.Vec{1}, Node: -1, Owner: sim.NoUser})
	}
	jobs := func() []sim.Job {
		return []sim.Job{
			{Name: "J1", User: 0, Stages: []sim.Stage{{Name: "s", Tasks: 6, Duration: 10, Demand: sim.Vec{1}}}},
			{Name: "J2", User: 1, Arrival: 1, Stages: []sim.Stage{{Name: "s", Tasks: 1, Duration: 10, Demand: sim.Vec{1}}}},
		}
	}
	for _, c0 := range []struct {
		order  string
		j1, j2 sim.Tick
	}{{"drf", 30, 19}, {"fifo", 30, 29}} {
		res := simulate(t, c, users(2), mustPolicy(t, "drf-am", map[string]string{"order": c0.order}), jobs())
		got := jctOf(res)
		if got["J1"] != c0.j1 || got["J2"] != c0.j2 {
			t.Errorf("order=%s: JCT J1 %d, J2 %d; want %d, %d", c0.order, got["J1"], got["J2"], c0.j1, c0.j2)
		}
	}
}
