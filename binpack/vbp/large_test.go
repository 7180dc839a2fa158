package vbp

import (
	"errors"
	"testing"
)

// TestSolveLargeClass: one class of 10^6 items solves within budgets, not
// in the hours an unbudgeted O(n²) pass takes. On main, the eject chain
// of the improvement scanned every bin pair before checking its budget,
// and the constructive heuristics were quadratic.
//
// Two items of (30, 40) fit a (100, 100) bin, three do not (120 > 100):
// 500,000 bins, which first fit finds.
func TestSolveLargeClass(t *testing.T) {
	if testing.Short() {
		t.Skip("packs a million items")
	}
	inst := &Instance{Capacity: []int64{100, 100}, Items: []Item{{Size: []int64{30, 40}, Count: 1_000_000}}}
	r, err := Solve(inst, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Bins != 500_000 {
		t.Errorf("%d bins, want 500,000", r.Bins)
	}
	// L1 = ⌈10^6·40/100⌉ = 400,000 in the second dimension.
	if r.LowerBound.L1 != 400_000 || r.LowerBound.Best > r.Bins {
		t.Errorf("bounds %+v", r.LowerBound)
	}
	if err := Check(inst, r.Packing); err != nil {
		t.Fatal(err)
	}
}

// TestSolveMixedItemLimit: a mixed sizing beyond MaxMixedItems is
// refused up front with a *TooManyItemsError (wrapping ErrInvalid).
func TestSolveMixedItemLimit(t *testing.T) {
	inst := &MixedInstance{Types: []NodeType{{Capacity: []int64{10}, Cost: 1}, {Capacity: []int64{20}, Cost: 1.5}},
		Items: []Item{{Size: []int64{3}, Count: 7}, {Size: []int64{4}, Count: 5}}}
	var many *TooManyItemsError
	if _, err := SolveMixed(inst, Options{MaxMixedItems: 11}); !errors.As(err, &many) || many.Items != 12 || !errors.Is(err, ErrInvalid) {
		t.Fatalf("12 items with a limit of 11: %v", err)
	}
	if _, err := SolveMixed(inst, Options{MaxMixedItems: 12}); err != nil {
		t.Fatalf("12 items with a limit of 12: %v", err)
	}
	if _, err := SolveMixed(inst, Options{MaxMixedItems: -1}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a negative limit: %v", err)
	}
}
