package policies

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/capplan/capplan/sim"
)

// oneNode is SIMULATE.md §7.2 case 5's cluster: one node ⟨4, 4⟩ cut into
// containers c0–c3 of ⟨1, 1⟩ (each charging 1/4 + 1/4 = 0.5 per second),
// owned as owners[i] says.
func oneNode(owners ...sim.UserID) *sim.Cluster {
	c := &sim.Cluster{Resources: []string{"cpu", "mem"}, Nodes: []sim.Node{{Name: "n0", Cap: sim.Vec{4, 4}}}}
	for i, o := range owners {
		c.Machines = append(c.Machines, sim.Machine{Name: fmt.Sprintf("c%d", i), Cap: sim.Vec{1, 1}, Slots: 1, Node: 0, Owner: o,
			Labels: map[string]string{"owner": fmt.Sprint(o)}})
	}
	return c
}

func bounded(name string, delta float64) sim.User {
	return sim.User{Name: name, Weight: 1, Sharing: sim.Sharing{Bound: delta, Set: true}}
}

// task is a one-stage job of n unit tasks of d seconds (1 s = 1000 ticks).
func unitJob(name string, u sim.UserID, arrival float64, n int32, d float64) sim.Job {
	return sim.Job{Name: name, User: u, Arrival: sim.Tick(arrival * 1000),
		Stages: []sim.Stage{{Name: "s", Tasks: n, Duration: sim.Tick(d * 1000), Demand: sim.Vec{1, 1}}}}
}

// shareProbe wraps xschedule and records share_{B→A} in seconds at the
// start of every Round.
type shareProbe struct {
	*xschedule
	a, b  sim.UserID
	share map[sim.Tick]float64
}

func (p *shareProbe) Round(s *sim.State, pl *sim.Planner) {
	if p.ready {
		v, _ := new(big.Rat).Quo(p.owes(p.b, p.a, s.Now()), big.NewRat(p.tps, 1)).Float64()
		p.share[s.Now()] = v
	}
	p.xschedule.Round(s, pl)
}

// TestXScheduleCase5 is SIMULATE.md §7.2 case 5 [DERIVED from SEED xflex
// §2.1]: A owns c0–c1 with δ 0, B owns c2–c3 with δ 10, so Δ = 0. B's
// four 100 s tasks arrive at 0: two on its own c2, c3, two borrowed on
// c0, c1 (slope 2 × 0.5 = 1.0 per second). At 20 s A asks for one
// container: its own are lent, nothing is free, and B owes A 20 ≥ 0, so
// type 1 claims c0 (tied with c1 on fit and start: lower id). With G = 5 s
// the task on c0 dies at 25 s, wasting 25 s, and A starts there. The debt
// is 20 at 20 s, 25 at 25 s (1.0 × 25), then grows at 0.5 per second to
// 25 + 0.5 × 75 = 62.5 at 100 s, when B's other tasks end; B's killed task
// reruns on its own c2 from 100 s to 200 s (A's 100 s task holds c0 until
// 125 s).
func TestXScheduleCase5(t *testing.T) {
	const A, B = 0, 1
	c := oneNode(A, A, B, B)
	us := []sim.User{bounded("A", 0), bounded("B", 10)}
	jobs := []sim.Job{unitJob("JB", B, 0, 4, 100), unitJob("JA", A, 20, 1, 100)}
	pol, err := New("xschedule", map[string]string{"grace": "5"})
	if err != nil {
		t.Fatal(err)
	}
	probe := &shareProbe{xschedule: pol.(*xschedule), a: A, b: B, share: map[sim.Tick]float64{}}
	tr := &sim.Trace{}
	res, err := sim.Run(sim.Config{Cluster: c, Users: us, Policy: probe, Check: true, TickSeconds: 0.001, Observers: []sim.Observer{tr}},
		sim.NewSliceSource(jobs))
	if err != nil {
		t.Fatal(err)
	}
	type run struct {
		job        string
		machine    string
		start, end sim.Tick
		kind       sim.EndKind
	}
	var got []run
	for _, r := range tr.Runs {
		got = append(got, run{r.Job, c.Machines[r.Machine].Name, r.Start / 1000, r.End / 1000, r.Kind})
	}
	want := []run{
		{"JB", "c2", 0, 100, sim.EndFinished}, {"JB", "c3", 0, 100, sim.EndFinished},
		{"JB", "c0", 0, 25, sim.EndKilled}, {"JB", "c1", 0, 100, sim.EndFinished},
		{"JA", "c0", 25, 125, sim.EndFinished}, {"JB", "c2", 100, 200, sim.EndFinished},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("runs\n got %v\nwant %v", got, want)
	}
	for at, w := range map[sim.Tick]float64{20000: 20, 25000: 25, 100000: 62.5} {
		if probe.share[at] != w {
			t.Errorf("S_{B→A} at %d s = %v, want %v", at/1000, probe.share[at], w)
		}
	}
	for _, j := range res.Jobs {
		if j.Name == "JB" && (j.Kills != 1 || j.Wasted != 25000) {
			t.Errorf("JB: %d kills wasting %d ticks, want 1 kill wasting 25000", j.Kills, j.Wasted)
		}
	}
}

// durJob is a one-stage job of unit tasks with the given durations (s).
func durJob(name string, u sim.UserID, arrival float64, durs ...float64) sim.Job {
	st := sim.Stage{Name: "s", Tasks: int32(len(durs)), Demand: sim.Vec{1, 1}}
	for _, d := range durs {
		st.Durations = append(st.Durations, sim.Tick(d*1000))
	}
	return sim.Job{Name: name, User: u, Arrival: sim.Tick(arrival * 1000), Stages: []sim.Stage{st}}
}

// TestXScheduleRequestTypes checks who runs where, who is preempted,
// when and after what grace, for each request type, both preemption types
// and Garbo mode, on one node of four ⟨1, 1⟩ containers (charge 0.5/s
// each), G = 5 s. Runs are listed in start order as (job, container,
// start, end, how it ended), times in seconds.
func TestXScheduleRequestTypes(t *testing.T) {
	const A, B, C = 0, 1, 2
	cases := []struct {
		name   string
		owners []sim.UserID
		users  []sim.User
		args   map[string]string
		jobs   []sim.Job
		want   string
	}{
		{
			// B's four tasks take its own c2, c3 and borrow A's c0, c1; the
			// one on c2 ends at 5 s. At 20 s A's OwnedOnly request may not
			// borrow the free c2: B owes A 20 ≥ Δ = 0, so type 1 claims c0
			// (c0/c1 tie: lower id), killed at 25 s, where A starts; B's
			// killed task reruns at once on its own free c2.
			name: "ownedonly", owners: []sim.UserID{A, A, B, B}, users: []sim.User{bounded("A", 0), bounded("B", 10)},
			args: map[string]string{"grace": "5", "request": "A=ownedonly"},
			jobs: []sim.Job{durJob("JB", B, 0, 5, 100, 100, 100), durJob("JA", A, 20, 30)},
			want: "[{JB c2 0 5 finished} {JB c3 0 100 finished} {JB c0 0 25 killed} {JB c1 0 100 finished} {JA c0 25 55 finished} {JB c2 25 125 finished}]",
		},
		{
			// The same with OwnedFirst: A borrows the free c2 at 20 s and
			// nothing is preempted.
			name: "ownedfirst", owners: []sim.UserID{A, A, B, B}, users: []sim.User{bounded("A", 0), bounded("B", 10)},
			args: map[string]string{"grace": "5"},
			jobs: []sim.Job{durJob("JB", B, 0, 5, 100, 100, 100), durJob("JA", A, 20, 30)},
			want: "[{JB c2 0 5 finished} {JB c3 0 100 finished} {JB c0 0 100 finished} {JB c1 0 100 finished} {JA c2 20 50 finished}]",
		},
		{
			// A's NonOwned request never takes its own free c0, c1; B, on its
			// own c2, c3, owes A nothing, so type 2 finds no victim: A waits
			// and borrows c2 when B's tasks end at 100 s.
			name: "nonowned-waits", owners: []sim.UserID{A, A, B, B}, users: []sim.User{bounded("A", 0), bounded("B", 0)},
			args: map[string]string{"grace": "5", "request": "A=nonowned"},
			jobs: []sim.Job{durJob("JB", B, 0, 100, 100), durJob("JA", A, 20, 30)},
			want: "[{JB c2 0 100 finished} {JB c3 0 100 finished} {JA c2 100 130 finished}]",
		},
		{
			// Type 2: B's 10 s task borrows A's c0 (0–10 s: B owes A 5);
			// C takes its own c2 at 1 s; A takes c0 at 10 s; B's second job
			// borrows C's c3 at 12 s. At 20 s A's OwnedFirst request finds
			// nothing free and none of its containers lent; B (in debt to
			// A, 5 ≥ 0) runs on its own c1 (never a victim) and borrows C's
			// c3 since 12 s: c3 is claimed, killed at 25 s, and A starts
			// there; B's task waits for c3 again (55 s).
			name: "type2", owners: []sim.UserID{A, B, C, C}, users: []sim.User{bounded("A", 0), bounded("B", 0), bounded("C", 0)},
			args: map[string]string{"grace": "5"},
			jobs: []sim.Job{durJob("JB1", B, 0, 100, 10), durJob("JC", C, 1, 100), durJob("JA1", A, 10, 100),
				durJob("JB2", B, 12, 100), durJob("JA2", A, 20, 30)},
			want: "[{JB1 c1 0 100 finished} {JB1 c0 0 10 finished} {JC c2 1 101 finished} {JA1 c0 10 110 finished} {JB2 c3 12 25 killed} {JA2 c3 25 55 finished} {JB2 c3 55 155 finished}]",
		},
		{
			// Garbo: A is alone. B's four tasks use only its own c2, c3 (two
			// wait, although A's c0, c1 are free), and A's three tasks only
			// c0, c1.
			name: "garbo", owners: []sim.UserID{A, A, B, B}, users: []sim.User{{Name: "A", Weight: 1, Sharing: sim.Sharing{Alone: true}}, bounded("B", 0)},
			args: map[string]string{"grace": "5"},
			jobs: []sim.Job{durJob("JB", B, 0, 10, 10, 10, 10), durJob("JA", A, 1, 10, 10, 10)},
			want: "[{JB c2 0 10 finished} {JB c3 0 10 finished} {JA c0 1 11 finished} {JA c1 1 11 finished} {JB c2 10 20 finished} {JB c3 10 20 finished} {JA c0 11 21 finished}]",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := oneNode(tc.owners...)
			pol, err := New("xschedule", tc.args)
			if err != nil {
				t.Fatal(err)
			}
			tr := &sim.Trace{}
			if _, err := sim.Run(sim.Config{Cluster: c, Users: tc.users, Policy: pol, Check: true, TickSeconds: 0.001,
				Observers: []sim.Observer{tr}}, sim.NewSliceSource(tc.jobs)); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range tr.Runs {
				got = append(got, fmt.Sprintf("{%s %s %g %g %s}", r.Job, c.Machines[r.Machine].Name, float64(r.Start)/1000, float64(r.End)/1000, r.Kind))
			}
			if s := "[" + strings.Join(got, " ") + "]"; s != tc.want {
				t.Errorf("runs\n got %s\nwant %s", s, tc.want)
			}
		})
	}
}
