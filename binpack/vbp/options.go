package vbp

import (
	"fmt"
	"time"

	"github.com/capplan/capplan/binpack/internal/work"
)

// Options configures Solve and SolveMixed. The zero value is usable.
type Options struct {
	// Seed drives the randomised orders and weightings; equal seeds give
	// equal results.
	Seed uint64
	// MaxWork caps the run's work, in the work units Solve and SolveMixed
	// define; 0 means DefaultMaxWork (Solve) or DefaultMixedMaxWork
	// (SolveMixed). Negative values are invalid.
	MaxWork int64
	// TimeLimit, when positive, is an opt-in wall-clock bound: a run still
	// searching after it stops at its next check (the clock is read every
	// work.ClockEvery units) and reports TimeLimitHit, and its result then
	// depends on the machine's speed. 0 means none: the result depends
	// only on the instance and the options, on any machine and any
	// GOMAXPROCS.
	TimeLimit time.Duration
}

// maxWork returns opt.MaxWork, or def when it is 0; a negative MaxWork or
// TimeLimit is an error wrapping ErrInvalid.
func (opt Options) maxWork(def int64) (int64, error) {
	m, err := work.Resolve(opt.MaxWork, opt.TimeLimit, def)
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	return m, nil
}
