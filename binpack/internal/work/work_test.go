package work

import (
	"testing"
	"time"
)

func TestCounter(t *testing.T) {
	c := New(100, 0)
	stop := c.UpTo(30) // a phase of 30 units
	if stop != 30 || c.Over(stop) {
		t.Fatalf("UpTo(30) = %d, Over = %v", stop, c.Over(stop))
	}
	c.Add(29)
	if c.Over(stop) {
		t.Error("29 < 30 units: not over")
	}
	c.Add(1)
	if !c.Over(stop) || c.Done() {
		t.Error("30 units: the phase is over, the run is not")
	}
	// A phase asking for more than is left ends at the cap.
	if s := c.UpTo(1000); s != 100 {
		t.Errorf("UpTo(1000) = %d, want the cap 100", s)
	}
	if s := c.UpTo(1 << 62); s != 100 {
		t.Errorf("UpTo(huge) = %d, want the cap 100 (no overflow)", s)
	}
	c.Add(75) // may overshoot: the unit that crossed the cap is counted
	if !c.Done() || c.Used() != 105 || c.Left() != 0 || c.TimeLimitHit() {
		t.Errorf("after 105 units: done %v used %d left %d time %v", c.Done(), c.Used(), c.Left(), c.TimeLimitHit())
	}
}

func TestCounterDeadline(t *testing.T) {
	c := New(1<<40, time.Nanosecond)
	time.Sleep(time.Millisecond)
	// The clock is read on the first check (checkAt starts at 0).
	if !c.Over(1<<40) || !c.TimeLimitHit() {
		t.Fatal("a passed deadline must stop the run")
	}
	// Without a deadline the clock is never read.
	d := New(10, 0)
	if d.Over(10) || d.TimeLimitHit() {
		t.Fatal("no deadline, no work: not over")
	}
}

func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		max  int64
		tl   time.Duration
		want int64
		ok   bool
	}{
		{0, 0, 7, true}, // 0: the default
		{5, 0, 5, true}, // given
		{5, time.Second, 5, true},
		{-1, 0, 0, false},
		{5, -time.Second, 0, false},
	} {
		got, err := Resolve(tc.max, tc.tl, 7)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("Resolve(%d, %v, 7) = %d, %v", tc.max, tc.tl, got, err)
		}
	}
}
