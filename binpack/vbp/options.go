package vbp

import (
	"fmt"
	"math"
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
	// MaxMixedItems bounds the items (Σ Count) SolveMixed accepts; 0
	// means DefaultMaxMixedItems, negative values are invalid.
	MaxMixedItems int
}

// DefaultMaxMixedItems is SolveMixed's default item limit. Its
// constructions cost O(B·T·n·d) each and are not counted as work, so
// this bounds its time instead: about ten seconds of one core at the
// limit. Solve (one node type) has no such limit: its constructions run
// within fit-test budgets.
const DefaultMaxMixedItems = 10_000

// TooManyItemsError is SolveMixed's error for an instance of more items
// than Options.MaxMixedItems. It wraps ErrInvalid.
type TooManyItemsError struct {
	Items, Max int
}

func (e *TooManyItemsError) Error() string {
	return fmt.Sprintf("vbp: %d items, more than the %d a mixed sizing takes", e.Items, e.Max)
}

func (e *TooManyItemsError) Unwrap() error { return ErrInvalid }

// checkMixedItems returns a *TooManyItemsError when inst has more items
// than opt allows.
func (opt Options) checkMixedItems(inst *MixedInstance) error {
	limit := opt.MaxMixedItems
	switch {
	case limit < 0:
		return fmt.Errorf("%w: MaxMixedItems %d < 0", ErrInvalid, limit)
	case limit == 0:
		limit = DefaultMaxMixedItems
	}
	n := 0
	for _, it := range inst.Items {
		if it.Count > 0 {
			n = min(n, math.MaxInt-it.Count) + it.Count // saturating
		}
	}
	if n > limit {
		return &TooManyItemsError{Items: n, Max: limit}
	}
	return nil
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
