package work

import (
	"fmt"
	"time"
)

// ClockEvery is how many units pass between two readings of the clock
// when a deadline is set.
const ClockEvery = 1 << 14

// Counter is the work of one run: units used so far against the cap, and
// the deadline when the run has a time limit. The zero value is not
// usable; use New.
type Counter struct {
	used, limit int64
	deadline    time.Time // zero: no time limit
	checkAt     int64     // used at which the clock is read next
	timeHit     bool      // the deadline passed: every phase stops
}

// New starts a counter with cap limit and, when timeLimit > 0, a deadline
// timeLimit from now.
func New(limit int64, timeLimit time.Duration) *Counter {
	c := &Counter{limit: limit}
	if timeLimit > 0 {
		c.deadline = time.Now().Add(timeLimit)
	}
	return c
}

// Add counts n more units.
func (c *Counter) Add(n int) { c.used += int64(n) }

// Used returns the units counted so far.
func (c *Counter) Used() int64 { return c.used }

// Limit returns the cap.
func (c *Counter) Limit() int64 { return c.limit }

// Left returns the units left under the cap (0 when it is reached).
func (c *Counter) Left() int64 { return max(0, c.limit-c.used) }

// UpTo returns the stop of a phase that may spend at most n more units,
// never beyond the cap.
func (c *Counter) UpTo(n int64) int64 {
	if n >= c.limit-c.used {
		return c.limit
	}
	return c.used + n
}

// Over reports whether a phase with the given stop must end: its stop or
// the cap is reached, or the deadline has passed (the clock is read at
// most once every ClockEvery units).
func (c *Counter) Over(stop int64) bool {
	if c.used >= stop || c.used >= c.limit || c.timeHit {
		return true
	}
	if !c.deadline.IsZero() && c.used >= c.checkAt {
		c.checkAt = c.used + ClockEvery
		c.timeHit = time.Now().After(c.deadline)
	}
	return c.timeHit
}

// Done reports whether the whole run must end: Over(Limit()).
func (c *Counter) Done() bool { return c.Over(c.limit) }

// TimeLimitHit reports whether the deadline stopped the run.
func (c *Counter) TimeLimitHit() bool { return c.timeHit }

// Resolve returns the cap of a run: maxWork, or def when it is 0. A
// negative maxWork or timeLimit is an error (the caller wraps it in its
// package's invalid-input error).
func Resolve(maxWork int64, timeLimit time.Duration, def int64) (int64, error) {
	switch {
	case maxWork < 0:
		return 0, fmt.Errorf("MaxWork %d < 0", maxWork)
	case timeLimit < 0:
		return 0, fmt.Errorf("TimeLimit %v < 0", timeLimit)
	case maxWork == 0:
		return def, nil
	}
	return maxWork, nil
}
