package par

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
)

func TestForVisitsEveryIndexOnce(t *testing.T) {
	for _, tc := range []struct{ n, workers int }{
		{0, 4}, {1, 4}, {7, 1}, {7, 3}, {100, 8}, {5, 0}, {3, -1},
	} {
		t.Run(fmt.Sprintf("n=%d,workers=%d", tc.n, tc.workers), func(t *testing.T) {
			counts := make([]atomic.Int32, tc.n)
			if err := For(tc.n, tc.workers, func(i int) error {
				counts[i].Add(1)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Errorf("index %d ran %d times", i, c)
				}
			}
		})
	}
}

// With failures at 3 and 5, the error of index 3 wins whatever the
// interleaving: indices start in order, so 3 has always run when 5 has.
func TestForLowestErrorWins(t *testing.T) {
	for workers := 1; workers <= 8; workers++ {
		for rep := 0; rep < 20; rep++ {
			err := For(10, workers, func(i int) error {
				if i == 3 || i == 5 {
					return fmt.Errorf("index %d", i)
				}
				return nil
			})
			if err == nil || err.Error() != "index 3" {
				t.Fatalf("workers %d: %v, want index 3", workers, err)
			}
		}
	}
}

// After a failure no new index starts: with one worker nothing runs after
// the failing index.
func TestForStopsAfterFailure(t *testing.T) {
	var ran atomic.Int32
	boom := errors.New("boom")
	err := For(100, 1, func(i int) error {
		ran.Add(1)
		if i == 9 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || ran.Load() != 10 {
		t.Errorf("err %v after %d calls, want boom after 10", err, ran.Load())
	}
}

func TestShare(t *testing.T) {
	for _, tc := range []struct{ jobs, workers, want int }{
		{1, 8, 8}, // one job gets every worker
		{4, 8, 2}, // 8/4
		{3, 8, 2}, // ⌊8/3⌋
		{16, 8, 1},
		{0, 8, 8}, // no jobs: as for one
		{5, 0, 1}, // never below 1
	} {
		if got := Share(tc.jobs, tc.workers); got != tc.want {
			t.Errorf("Share(%d, %d) = %d, want %d", tc.jobs, tc.workers, got, tc.want)
		}
	}
}
