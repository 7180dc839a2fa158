package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls fn(i) for every i in [0, n) on up to workers goroutines
// (workers ≤ 0: runtime.GOMAXPROCS(0); never more goroutines than n). The
// goroutines take indices in increasing order from a shared counter. After
// a call fails no new index is started; since indices start in order,
// every index below the failed one has been started and has finished when
// For returns, so the error returned, that of the lowest failed index, does
// not depend on timing. fn must be safe for concurrent use on distinct
// indices; For returns only after every call has returned.
//
// Cost: n calls plus O(n) atomic operations.
func For(n, workers int, fn func(i int) error) error {
	if n <= 0 {
		return nil
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	errs := make([]error, n)
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(i); err != nil {
					errs[i] = err
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Share splits workers among jobs that run side by side: the goroutines
// each of jobs concurrent jobs may use so that together they stay within
// workers (at least 1).
func Share(jobs, workers int) int {
	return max(1, workers/max(1, jobs))
}
