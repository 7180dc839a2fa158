package main

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
)

// dagProgressThrottle bounds how often the progress bar redraws.
const dagProgressThrottle = 100 * time.Millisecond

// runDAGJobs calls fn for jobs 0 … n−1 on up to workers goroutines, taking
// jobs in index order, and returns the error of the lowest-numbered job
// that failed (nil if none). After a failure no new job starts; since jobs
// start in index order, every job before the failed one has run, so the
// error returned does not depend on timing. On a terminal stderr a
// progress bar counts finished jobs.
func runDAGJobs(streams *ioStreams, what string, n, workers int, fn func(i int) error) error {
	var bar *progressbar.ProgressBar
	if streams.ErrOutTerminal && n > 1 {
		bar = progressbar.NewOptions(n,
			progressbar.OptionSetWriter(streams.ErrOut),
			progressbar.OptionSetDescription(what),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(dagProgressThrottle),
			progressbar.OptionClearOnFinish(),
		)
	}
	errs := make([]error, n)
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < max(1, min(workers, n)); w++ {
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
				if bar != nil {
					_ = bar.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if bar != nil {
		_ = bar.Finish()
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// dagInnerWorkers is the parallelism left for one job when jobs run
// workers at a time.
func dagInnerWorkers(jobs, workers int) int {
	return max(1, workers/max(1, jobs))
}
