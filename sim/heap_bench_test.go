package sim

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type heapLike interface {
	push(event)
	pop() event
}

func benchHeap(b *testing.B, h heapLike) {
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range 10000 {
		h.push(mkEvent(Tick(rng.IntN(100000)), evFinish, int32(i%1000), int32(i), 0))
	}
	b.ResetTimer()
	c0 := cpuNow()
	for i := 0; i < b.N; i++ {
		e := h.pop()
		h.push(mkEvent(e.at+1+Tick(rng.IntN(100000)), evFinish, int32(i%1000), int32(i), 1))
	}
	b.ReportMetric(float64(cpuNow()-c0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkEventHeap pops the least event and pushes a later one, on a
// heap of 10,000 events (about the mean size under BenchmarkSim's W-FB):
// one op is one pop and one push. cpu-ns/op is CPU time, steadier than
// wall time on a shared machine.
func BenchmarkEventHeap(b *testing.B) { benchHeap(b, &eventHeap{}) }

// BenchmarkEventQueue is BenchmarkEventHeap on the engine's radix queue,
// driven as the engine drives it (next, then pop).
func BenchmarkEventQueue(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	var q eventQueue
	for i := range 10000 {
		q.push(mkEvent(Tick(rng.IntN(100000)), evFinish, int32(i%1000), int32(i), 0))
	}
	b.ResetTimer()
	c0 := cpuNow()
	for i := 0; i < b.N; i++ {
		q.next()
		e := q.pop()
		q.push(mkEvent(e.at+1+Tick(rng.IntN(100000)), evFinish, int32(i%1000), int32(i), 1))
	}
	b.ReportMetric(float64(cpuNow()-c0)/float64(b.N), "cpu-ns/op")
}
