package memguard

import (
	"fmt"
	"math"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// DefaultLimit is the default --max-memory: 1.5 GiB, so that a run stays
// under 2 GB of resident memory with the runtime's own overhead.
const DefaultLimit = 3 << 29

// interval is how often the watchdog reads the memory in use. It only
// decides when a run that is over the limit stops, never a result.
const interval = 20 * time.Millisecond

// ErrLimit is the error of a run stopped by the guard.
type ErrLimit struct {
	// Limit is the limit in bytes; Used the memory in use when the guard
	// stopped the run.
	Limit, Used uint64
}

func (e *ErrLimit) Error() string {
	return fmt.Sprintf("stopped: the memory in use (%s) passed the limit of %s (--max-memory); raise --max-memory, or make the input smaller (for DAG inputs, --max-tasks and --max-edges)",
		Bytes(e.Used), Bytes(e.Limit))
}

// Guard is a running watchdog.
type Guard struct {
	stop     chan struct{}
	done     sync.WaitGroup
	previous int64
}

// Start sets the runtime's soft memory limit to limit bytes
// (debug.SetMemoryLimit: the collector works harder as the heap nears it)
// and starts a watchdog. Whenever the memory the runtime holds from the
// system (runtime/metrics: total less released) exceeds limit, the
// watchdog collects garbage and returns free memory to the system; if the
// memory in use is still above the limit, it calls exceeded once, from
// its own goroutine, and stops watching. exceeded is expected to end the
// process. A limit of 0 starts nothing. Stop the guard when the run ends.
func Start(limit uint64, exceeded func(*ErrLimit)) *Guard {
	g := &Guard{stop: make(chan struct{}), previous: -1}
	if limit == 0 {
		return g
	}
	g.previous = debug.SetMemoryLimit(int64(min(limit, math.MaxInt64)))
	g.done.Add(1)
	go func() {
		defer g.done.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-g.stop:
				return
			case <-t.C:
			}
			if InUse() <= limit {
				continue
			}
			debug.FreeOSMemory()
			if used := InUse(); used > limit {
				exceeded(&ErrLimit{Limit: limit, Used: used})
				return
			}
		}
	}()
	return g
}

// Stop ends the watchdog and restores the previous memory limit.
func (g *Guard) Stop() {
	select {
	case <-g.stop:
		return
	default:
	}
	close(g.stop)
	g.done.Wait()
	if g.previous >= 0 {
		debug.SetMemoryLimit(g.previous)
	}
}

// InUse returns the memory the Go runtime holds from the system, in
// bytes: every class of runtime memory less the heap returned to it.
func InUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}

// Bytes formats a byte count with a binary unit ("1.5 GiB").
func Bytes(n uint64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	x, u := float64(n), 0
	for x >= 1024 && u+1 < len(units) {
		x /= 1024
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.4g %s", x, units[u])
}
