package dag

import "testing"

// TestDefaultBudget: DAGs up to searchScale tasks get DefaultSearchWork,
// larger ones up to searchLimit in proportion to their tasks, and larger
// ones DefaultMaxWork or minPasses passes; an explicit MaxWork wins.
func TestDefaultBudget(t *testing.T) {
	for _, c := range []struct {
		n        int
		passWork int64
		maxWork  int64
		want     int64
	}{
		{30, 100, 0, DefaultSearchWork},
		{60, 200, 0, DefaultSearchWork},
		{90, 300, 0, 75_000_000},
		{120, 400, 0, 100_000_000},
		{121, 400, 0, DefaultMaxWork},
		{10_000, 1_000_000, 0, minPasses * 1_000_000},
		{120, 400, 7, 7},
	} {
		if got := newBudget(Options{MaxWork: c.maxWork}, c.n, c.passWork).max; got != c.want {
			t.Errorf("%d tasks, MaxWork %d: default budget %d, want %d", c.n, c.maxWork, got, c.want)
		}
	}
}
