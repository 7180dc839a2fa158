package policies_test

import (
	"fmt"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/capplan/capplan/sim"
)

// constrainedSlots builds one machine of one slot per entry of who (named
// m1, m2, …), labelled u<i>=yes for every user i that may use it, and the
// users u1…uN, each restricted by its selector to the machines labelled
// for it.
func constrainedSlots(users int, who [][]int) (*sim.Cluster, []sim.User) {
	c := &sim.Cluster{Resources: []string{"slots"}}
	for i, us := range who {
		l := map[string]string{}
		for _, u := range us {
			l[fmt.Sprintf("u%d", u)] = "yes"
		}
		c.Machines = append(c.Machines, sim.Machine{Name: fmt.Sprintf("m%d", i+1), Cap: sim.Vec{1}, Labels: l, Node: -1, Owner: sim.NoUser})
	}
	us := make([]sim.User, users)
	for i := range us {
		sel, err := labels.Parse(fmt.Sprintf("u%d=yes", i+1))
		if err != nil {
			panic(err)
		}
		us[i] = sim.User{Name: fmt.Sprintf("u%d", i+1), Weight: 1, Constraint: sim.Constraint{Selector: sel}}
	}
	return c, us
}

// greedyJobs gives every user one job of n unit tasks of duration d
// arriving at 0: more work than the cluster holds (infinite demand).
func greedyJobs(users int, n int32, d sim.Tick) []sim.Job {
	var jobs []sim.Job
	for u := 0; u < users; u++ {
		jobs = append(jobs, sim.Job{Name: fmt.Sprintf("J%d", u+1), User: sim.UserID(u),
			Stages: []sim.Stage{{Name: "s", Tasks: n, Duration: d, Demand: sim.Vec{1}}}})
	}
	return jobs
}

// firstRound returns, per user, the machines its tasks started on at 0.
func firstRound(t *testing.T, policy string, c *sim.Cluster, us []sim.User, jobs []sim.Job) [][]string {
	t.Helper()
	tr := &sim.Trace{}
	if _, err := sim.Run(sim.Config{Cluster: c, Users: us, Policy: mustPolicy(t, policy, nil), Check: true, Observers: []sim.Observer{tr}},
		sim.NewSliceSource(jobs)); err != nil {
		t.Fatal(err)
	}
	out := make([][]string, len(us))
	for _, r := range tr.Runs {
		if r.Start == 0 {
			u := jobs[r.JobID].User
			out[u] = append(out[u], c.Machines[r.Machine].Name)
		}
	}
	for _, ms := range out {
		slices.Sort(ms)
	}
	return out
}

// TestChoosyPaperExamples is SIMULATE.md §7.2 case 3 [SEED choosy §4.2,
// Figs. 1, 3, 4]: every user has more tasks than machines, all arrive on
// an empty cluster, so the first Round hands out every machine.
func TestChoosyPaperExamples(t *testing.T) {
	cases := []struct {
		name  string
		users int
		who   [][]int // per machine, the users it admits
		want  [][]string
	}{
		{
			// Fig. 3: u1 may use m1–m3, u2 m3–m10. Most constrained first:
			// m1, m2 (u1 only) → u1; m4…m10 (u2 only) → u2; then m3 (both)
			// goes to the lower share, u1 (2 < 7): (3, 7).
			name: "fig3", users: 2,
			who:  [][]int{{1}, {1}, {1, 2}, {2}, {2}, {2}, {2}, {2}, {2}, {2}},
			want: [][]string{{"m1", "m2", "m3"}, {"m10", "m4", "m5", "m6", "m7", "m8", "m9"}},
		},
		{
			// Fig. 1: c1 = {m1, m4}, c2 = {m3, m4}, c3 = {m2, m3, m4, m6,
			// m7}, c4 = {m5, …, m10}. Contention 1: m1 → u1, m2 → u3, m5,
			// m8, m9, m10 → u4 (4); contention 2: m3 → u2 (0 < 1), m6, m7
			// → u3 (1, then 2 < 4); m4 (three users) → u1 (1, tied with u2,
			// lower id). Levels (2, 1, 3, 4): Fig. 4, the CMMF allocation.
			name: "fig1", users: 4,
			who:  [][]int{{1}, {3}, {2, 3}, {1, 2, 3}, {4}, {3, 4}, {3, 4}, {4}, {4}, {4}},
			want: [][]string{{"m1", "m4"}, {"m3"}, {"m2", "m6", "m7"}, {"m10", "m5", "m8", "m9"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, us := constrainedSlots(tc.users, tc.who)
			got := firstRound(t, "choosy", c, us, greedyJobs(tc.users, 20, 100))
			for u := range tc.want {
				if !slices.Equal(got[u], tc.want[u]) {
					t.Errorf("u%d got %v, want %v", u+1, got[u], tc.want[u])
				}
			}
		})
	}
}
