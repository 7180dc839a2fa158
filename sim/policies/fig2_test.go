package policies_test

import (
	"testing"

	"github.com/capplan/capplan/sim"
)

// fig2 is W-FIG2 (SIMULATE.md §2.3): Carbyne's Figure 2 rebuilt, on one
// machine with one resource of capacity 100, a tick being 0.1 time unit.
// J1 (user q1): S0 = 2 × (4, 10), S1 = 3 × (21, 10), S2 = 1 × (10, 1) with
// barriers S0 → S2 and S1 → S2. J2 (user q2): 2 × (29, 10). Both arrive
// at 0.
func fig2() (*sim.Cluster, []sim.User, []sim.Job) {
	c := &sim.Cluster{Resources: []string{"r"}, Machines: []sim.Machine{{Name: "m", Cap: sim.Vec{100}, Node: -1, Owner: sim.NoUser}}}
	us := []sim.User{{Name: "q1", Weight: 1}, {Name: "q2", Weight: 1}}
	jobs := []sim.Job{
		{Name: "J1", User: 0, Stages: []sim.Stage{
			{Name: "S0", Tasks: 2, Duration: 10, Demand: sim.Vec{4}},
			{Name: "S1", Tasks: 3, Duration: 10, Demand: sim.Vec{21}},
			{Name: "S2", Tasks: 1, Duration: 1, Demand: sim.Vec{10}},
		}, Links: []sim.Link{{From: 0, To: 2}, {From: 1, To: 2}}},
		{Name: "J2", User: 1, Stages: []sim.Stage{{Name: "S", Tasks: 2, Duration: 10, Demand: sim.Vec{29}}}},
	}
	return c, us, jobs
}

// TestFig2 checks the JCTs of SIMULATE.md §7.2 example 1 that baseline
// policies can reproduce, in ticks of 0.1.
func TestFig2(t *testing.T) {
	cases := []struct {
		name   string
		policy string
		args   map[string]string
		j1, j2 sim.Tick
	}{
		// capacity, guaranteed = max = 0.5: at 0, q1 takes S0 ×2 and S1 ×2
		// (50), q2 one J2 task (29); q1's third S1 task would exceed 50 and
		// q2's second 58 > 50. At 10 both queues run their last tasks (21,
		// 29), ending at 20; S2 runs 20–21. J1 = 21, J2 = 20 (paper 2.05).
		{"capacity-strict", "capacity", map[string]string{"max": "0.5"}, 21, 20},
		// drf (work-conserving): at 0 q1 places S0 ×2, S1 ×3 (71 in all)
		// and q2 one task (29), its second blocked. At 10 S2 (10) and J2's
		// second task (29) start: J1 = 11, J2 = 20.
		{"drf", "drf", nil, 11, 20},
		// tetris (f = 0): J2's heads score best (alignment .29 − ε·5.8 >
		// .21 − ε·7.2), so both J2 tasks start at 0 with S1 ×2; at 10 S1[2]
		// and S0 ×2 run to 20, S2 to 21. J1 = 21, J2 = 10 (paper fn. 2).
		{"tetris", "tetris", nil, 21, 10},
		// cp: blevel(S0) = blevel(S1) = 11 > J2's 10 > S2's 1, so J1's five
		// tasks and one J2 task start at 0; at 10, J2's second task (10)
		// before S2 (1): J1 = 11, J2 = 20.
		{"cp", "cp", nil, 11, 20},
		// fifo: J1 first (71), J2 backfills one task (29): as cp.
		{"fifo", "fifo", nil, 11, 20},
		// sjf: cpl(J2) = 10 < cpl(J1) = 11, so both J2 tasks start at 0
		// (58), then S0 ×2 and S1[0] (29 more); S1[1] waits. At 10 S1 ×2
		// run to 20 and S2 to 21: J1 = 21, J2 = 10.
		{"sjf", "sjf", nil, 21, 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cl, us, jobs := fig2()
			res := simulate(t, cl, us, mustPolicy(t, c.policy, c.args), jobs)
			got := jctOf(res)
			if got["J1"] != c.j1 || got["J2"] != c.j2 {
				t.Errorf("JCT (J1, J2) = (%d, %d), want (%d, %d)", got["J1"], got["J2"], c.j1, c.j2)
			}
		})
	}
}

// TestDRFExample is SIMULATE.md §7.2 example 2 [Ghodsi et al., NSDI'11]:
// one machine ⟨9 CPU, 18 GB⟩, user A's tasks ⟨1, 4⟩ and user B's ⟨3, 1⟩.
// Progressive filling gives A 3 tasks and B 2, both at dominant share 2/3,
// and agrees with water-filling of divisible tasks (x_A·2/9 = x_B·1/3,
// CPU saturating: x_A + 3x_B = 9 gives x_A = 3, x_B = 2).
func TestDRFExample(t *testing.T) {
	for _, scale := range []int64{1, 100} {
		// scale 100: a machine 100 times larger and the same tasks, so the
		// integral filling must match water-filling at 300 and 200.
		cl := oneMachine(9*scale, 18*scale)
		us := []sim.User{{Name: "A", Weight: 1}, {Name: "B", Weight: 1}}
		n := int32(10 * scale)
		jobs := []sim.Job{
			{Name: "A", User: 0, Stages: []sim.Stage{{Name: "a", Tasks: n, Duration: 100, Demand: sim.Vec{1, 4}}}},
			{Name: "B", User: 1, Stages: []sim.Stage{{Name: "b", Tasks: n, Duration: 100, Demand: sim.Vec{3, 1}}}},
		}
		tr := &sim.Trace{}
		_, err := sim.Run(sim.Config{Cluster: cl, Users: us, Policy: mustPolicy(t, "drf", nil), Check: true,
			Observers: []sim.Observer{tr}}, sim.NewSliceSource(jobs))
		if err != nil {
			t.Fatal(err)
		}
		atZero := map[string]int64{}
		for _, r := range tr.Runs {
			if r.Start == 0 {
				atZero[r.Job]++
			}
		}
		xa, xb := waterFill(9*scale, 18*scale)
		if atZero["A"] != xa || atZero["B"] != xb || xa != 3*scale || xb != 2*scale {
			t.Errorf("scale %d: tasks at 0 A=%d B=%d, water-filling A=%d B=%d, want %d and %d",
				scale, atZero["A"], atZero["B"], xa, xb, 3*scale, 2*scale)
		}
	}
}

// waterFill is the divisible DRF allocation of two users with demands
// ⟨1, 4⟩ and ⟨3, 1⟩ on ⟨cpu, mem⟩, by raising the common dominant share
// level τ until a resource saturates: x_A = τ/s_A, x_B = τ/s_B with
// s_A = max(1/cpu, 4/mem), s_B = max(3/cpu, 1/mem); returned rounded down.
func waterFill(cpu, mem int64) (int64, int64) {
	sA := max(1/float64(cpu), 4/float64(mem))
	sB := max(3/float64(cpu), 1/float64(mem))
	// cpu: τ/sA + 3τ/sB ≤ cpu; mem: 4τ/sA + τ/sB ≤ mem
	tau := min(float64(cpu)/(1/sA+3/sB), float64(mem)/(4/sA+1/sB))
	const tol = 1e-9
	return int64(tau/sA + tol), int64(tau/sB + tol)
}
