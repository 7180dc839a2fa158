package workloads

import (
	"strings"
	"testing"

	"github.com/capplan/capplan/sim"
)

// TestXFlexOrder: every application gets 25 small, 5 medium and one
// large job; by default the large job arrives first (at 0) and the rest
// follow in an order that depends on the seed; Shuffled may put it
// anywhere.
func TestXFlexOrder(t *testing.T) {
	apps := []sim.User{{Name: "flex", Weight: 1}, {Name: "fair", Weight: 1}, {Name: "fifo", Weight: 1}}
	order := func(p XFlexParams) string { // the sizes of the first application's jobs
		jobs, err := XFlex(p, apps, sim.Vec{1}, 0.001)
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) != 93 {
			t.Fatalf("%d jobs, want 93", len(jobs))
		}
		var b strings.Builder
		count := map[byte]int{}
		for i, j := range jobs {
			if j.User != sim.UserID(i%3) || j.Arrival != jobs[i-i%3].Arrival {
				t.Fatalf("job %d (%s): the applications' k-th jobs must arrive together, in application order", i, j.Name)
			}
			size := XFlexSizeBin(int(j.Stages[0].Tasks))
			if i%3 == 0 {
				b.WriteByte(size[0])
				count[size[0]]++
			}
		}
		if count['s'] != 25 || count['m'] != 5 || count['l'] != 1 {
			t.Fatalf("sizes %v, want 25 small, 5 medium, 1 large", count)
		}
		return b.String()
	}
	seen, firstElsewhere := map[string]bool{}, false
	for seed := uint64(1); seed <= 5; seed++ {
		o := order(XFlexParams{Seed: seed})
		if o[0] != 'l' {
			t.Errorf("seed %d: first job %q, want the large one", seed, o[0])
		}
		seen[o] = true
		firstElsewhere = firstElsewhere || order(XFlexParams{Seed: seed, Shuffled: true})[0] != 'l'
	}
	if len(seen) < 5 {
		t.Errorf("seeds 1–5 give only %d orders", len(seen))
	}
	if !firstElsewhere {
		t.Error("Shuffled never moves the large job from the head on seeds 1–5")
	}
}
