package vbp

import (
	"errors"
	"math"
	"testing"
)

// TestCheckOverflow: the checkers sum loads exactly. On main, two items of
// size 2^63−1 in one bin of capacity 2^63−1 summed to −2 in int64 and
// passed Check and CheckMixed.
func TestCheckOverflow(t *testing.T) {
	const maxI = math.MaxInt64
	inst := &Instance{Capacity: []int64{maxI}, Items: []Item{{Size: []int64{maxI}, Count: 2}}}
	var ce *CheckError
	if err := Check(inst, Packing{{0, 1}}); !errors.As(err, &ce) || ce.Dim != 0 {
		t.Errorf("Check of two full items in one bin = %v, want a capacity violation", err)
	}
	if err := Check(inst, Packing{{0}, {1}}); err != nil {
		t.Errorf("Check of one item per bin: %v", err)
	}
	mixed := &MixedInstance{Types: []NodeType{{Capacity: []int64{maxI}, Cost: 1}}, Items: inst.Items}
	r := &MixedResult{Bins: []MixedBin{{Type: 0, Items: []int{0, 1}}}, Cost: 1, Count: []int{1}}
	if err := CheckMixed(mixed, r); !errors.As(err, &ce) || ce.Dim != 0 {
		t.Errorf("CheckMixed of two full items on one node = %v, want a capacity violation", err)
	}
}

// TestSolveRange: instances beyond MaxTotal are refused up front, as
// ErrInvalid, before any solver arithmetic; at MaxTotal they solve. On
// main the first case was packed into 1 bin (two full items on one node)
// and exited 0 through `capplan pack --min-nodes`.
func TestSolveRange(t *testing.T) {
	cases := []struct {
		name string
		inst *Instance
		ok   bool
		bins int
	}{
		{"full items at the int64 limit", &Instance{Capacity: []int64{math.MaxInt64}, Items: []Item{{Size: []int64{math.MaxInt64}, Count: 2}}}, false, 0},
		// 2 × 2^59 = 2^60 = MaxTotal: allowed, and each item fills half a bin.
		{"total at MaxTotal", &Instance{Capacity: []int64{MaxTotal}, Items: []Item{{Size: []int64{MaxTotal / 2}, Count: 2}}}, true, 1},
		{"capacity above MaxTotal", &Instance{Capacity: []int64{MaxTotal + 1}, Items: []Item{{Size: []int64{1}, Count: 1}}}, false, 0},
		// 3 × 2^59 > 2^60 even though each item fits a bin.
		{"total above MaxTotal", &Instance{Capacity: []int64{MaxTotal}, Items: []Item{{Size: []int64{MaxTotal / 2}, Count: 3}}}, false, 0},
		{"negative sizes count by magnitude", &Instance{Capacity: []int64{10}, Items: []Item{{Size: []int64{-MaxTotal}, Count: 2}}}, false, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Solve(tc.inst, Options{})
			if !tc.ok {
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("Solve = %v, %v; want ErrInvalid", r, err)
				}
				mixed := &MixedInstance{Types: []NodeType{{Capacity: tc.inst.Capacity, Cost: 1}}, Items: tc.inst.Items}
				if tc.inst.Items[0].Size[0] >= 0 {
					if _, err := SolveMixed(mixed, Options{}); !errors.Is(err, ErrInvalid) {
						t.Fatalf("SolveMixed: %v, want ErrInvalid", err)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Bins != tc.bins {
				t.Fatalf("%d bins, want %d", r.Bins, tc.bins)
			}
			if err := Check(tc.inst, r.Packing); err != nil {
				t.Fatal(err)
			}
		})
	}
}
