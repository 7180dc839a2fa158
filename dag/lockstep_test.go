package dag

import (
	"fmt"
	"slices"
	"testing"
)

// TestLockstepAddPaceChild runs a lockstep of two workers, worker 0 paced
// at 3 epochs per barrier and spending through a child budget (as step 2
// of Best does), worker 1 spending directly; at the second barrier the
// verdict adds worker 2, and stops everything at the sixth. The verdict
// logs, at every barrier, the work each worker has spent (worker 0's in
// its child included). Whatever the number of slots, the log must be the
// same, and must show each worker at its pace: worker 0 3 epochs a
// barrier, worker 1 one, worker 2 one from its start, none before it; and
// worker 2 must see what the verdict wrote after adding it. It fails if a
// child ignores its parent's barriers or if pace is ignored (both seen);
// a worker started before the verdict returns fails it only when its
// goroutine reads first, which a run seldom shows (Best's searches read
// what the verdict writes after adding them; the race detector caught
// that in TestBestPSPLIB).
func TestLockstepAddPaceChild(t *testing.T) {
	const epoch = 10
	run := func(limit int) []string {
		parent := &budget{max: 1_000}
		var ls *lockstep
		var log []string
		var child0 int64 // worker 0's child budget's work, published before each check
		barrier, note, saw := 0, 0, -1
		verdict := func() bool {
			barrier++
			line := fmt.Sprintf("barrier %d:", barrier)
			for i, w := range ls.workers {
				used := w.used
				if i == 0 {
					used += child0
				}
				line += fmt.Sprintf(" w%d=%d", i, used)
			}
			log = append(log, line)
			if barrier == 2 {
				ls.add(100)
				note = barrier // written after add: worker 2 must see it
			}
			return barrier == 6
		}
		ls = newLockstep(parent, []int64{300, 300}, epoch, limit, verdict)
		ls.pace(0, 3)
		ls.run(parent, func(i int, b *budget) {
			if i == 0 {
				c := b.child(b.left())
				for !c.done() {
					c.spend(1)
					child0 = c.used
				}
				b.merge(c)
				return
			}
			if i == 2 {
				saw = note
			}
			for !b.done() {
				b.spend(1)
			}
		})
		return append(log, fmt.Sprintf("worker 2 saw %d", saw))
	}
	want := []string{
		"barrier 1: w0=30 w1=10",
		"barrier 2: w0=60 w1=20",
		"barrier 3: w0=90 w1=30 w2=10",
		"barrier 4: w0=120 w1=40 w2=20",
		"barrier 5: w0=150 w1=50 w2=30",
		"barrier 6: w0=180 w1=60 w2=40",
		"worker 2 saw 2",
	}
	for _, limit := range []int{1, 2, 3} {
		if got := run(limit); !slices.Equal(got, want) {
			t.Errorf("limit %d: log\n%q\nwant\n%q", limit, got, want)
		}
	}
}
