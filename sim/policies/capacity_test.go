package policies_test

import (
	"testing"

	"github.com/capplan/capplan/sim"
)

// TestCapacityPreemption: one machine of 4 cores, two queues of equal
// guarantee 1/2, ticks of 1 s. A's job (arrival 0) runs four 1-core tasks
// of 100 s and fills the machine; B's job (arrival 10) has two 1-core
// tasks of 10 s.
//   - Without preemption B waits for A: both its tasks run 100–110, JCT
//     100; A's JCT is 100.
//   - With preempt=true and wait=15: B is below its guarantee from 10, so
//     at 25 A's youngest task (all started at 0; ties to the highest task,
//     3) is killed and B's first task runs 25–35; B is still below its
//     guarantee (1/4 < 1/2) but at 35 its first task frees the core its
//     second takes (35–45; B's share is the lowest). JCT(B) = 45 − 10 = 35.
//     A's killed task restarts when B leaves at 45 and ends at 145: JCT(A)
//     = 145, with 25 s of work wasted.
func TestCapacityPreemption(t *testing.T) {
	jobs := []sim.Job{
		{Name: "A", User: 0, Stages: []sim.Stage{{Name: "s", Tasks: 4, Duration: 100, Demand: sim.Vec{1}}}},
		{Name: "B", User: 1, Arrival: 10, Stages: []sim.Stage{{Name: "s", Tasks: 2, Duration: 10, Demand: sim.Vec{1}}}},
	}
	for _, c := range []struct {
		args      map[string]string
		a, b      sim.Tick
		kills     int64
		wastedOfA sim.Tick
	}{
		{nil, 100, 100, 0, 0},
		{map[string]string{"preempt": "true", "wait": "15"}, 145, 35, 1, 25},
	} {
		res, err := sim.Run(sim.Config{Cluster: oneMachine(4), Users: users(2), Policy: mustPolicy(t, "capacity", c.args),
			TickSeconds: 1, Check: true}, sim.NewSliceSource(jobs))
		if err != nil {
			t.Fatal(err)
		}
		got := jctOf(res)
		if got["A"] != c.a || got["B"] != c.b || res.Stats.Kills != c.kills || res.Jobs[0].Wasted != c.wastedOfA {
			t.Errorf("%v: JCT A %d B %d, kills %d, wasted %d; want %d %d %d %d", c.args, got["A"], got["B"],
				res.Stats.Kills, res.Jobs[0].Wasted, c.a, c.b, c.kills, c.wastedOfA)
		}
	}
}
