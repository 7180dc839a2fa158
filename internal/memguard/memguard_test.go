package memguard

import (
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// TestGuardStops: with a 64 MiB limit and 256 MiB held live, the watchdog
// reports once, naming the flag; Stop restores the previous limit.
func TestGuardStops(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	got := make(chan *ErrLimit, 4)
	g := Start(64<<20, func(e *ErrLimit) { got <- e })
	hold := make([][]byte, 0, 256)
	for i := 0; i < 256; i++ {
		b := make([]byte, 1<<20)
		for j := range b {
			b[j] = byte(i)
		}
		hold = append(hold, b)
	}
	var e *ErrLimit
	select {
	case e = <-got:
	case <-time.After(30 * time.Second):
		t.Fatal("the guard did not stop a run holding 256 MiB under a 64 MiB limit")
	}
	g.Stop()
	if e.Limit != 64<<20 || e.Used <= e.Limit {
		t.Errorf("ErrLimit %+v: want Used above Limit 64 MiB", e)
	}
	if msg := e.Error(); !strings.Contains(msg, "--max-memory") || !strings.Contains(msg, "64 MiB") {
		t.Errorf("message %q does not name the flag and the limit", msg)
	}
	if now := debug.SetMemoryLimit(-1); now != before {
		t.Errorf("memory limit after Stop = %d, want the previous %d", now, before)
	}
	if len(hold) != 256 {
		t.Fatal("unreachable: keeps hold live")
	}
}

// TestGuardQuiet: under the limit the guard never reports, and a zero
// limit starts nothing.
func TestGuardQuiet(t *testing.T) {
	g := Start(1<<40, func(e *ErrLimit) { t.Errorf("reported %v under a 1 TiB limit", e) })
	time.Sleep(5 * interval)
	g.Stop()
	g.Stop() // idempotent
	Start(0, func(*ErrLimit) { t.Error("a zero limit reported") }).Stop()
}

func TestBytes(t *testing.T) {
	for n, want := range map[uint64]string{0: "0 B", 1023: "1023 B", 1536 << 20: "1.5 GiB", 64 << 20: "64 MiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}
