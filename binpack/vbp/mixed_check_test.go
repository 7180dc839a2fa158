package vbp

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestMixedErrors(t *testing.T) {
	types := []NodeType{
		{Name: "a", Capacity: []int64{8, 32}, Cost: 1},
		{Name: "b", Capacity: []int64{16, 64}, Cost: 2},
	}
	// Item type 1 needs 80 of dimension 1; the largest type b has 64.
	_, err := SolveMixed(&MixedInstance{Types: types, Items: []Item{{[]int64{1, 1}, 3}, {[]int64{4, 80}, 1}}}, Options{})
	var nf *ItemFitsNoTypeError
	if !errors.As(err, &nf) || nf.Item != 1 || nf.Type != 1 || nf.Dim != 1 || nf.Size != 80 || nf.Capacity != 64 || !errors.Is(err, ErrInvalid) {
		t.Errorf("err = %#v, want *ItemFitsNoTypeError item 1, type 1, dim 1", err)
	} else if msg := err.Error(); !strings.Contains(msg, "short by 16 in dimension 1") || !strings.Contains(msg, `"b"`) {
		t.Errorf("message %q lacks the shortfall", msg)
	}
	if _, _, err := MixedLowerBound(&MixedInstance{Types: types, Items: []Item{{[]int64{20, 1}, 1}}}); !errors.As(err, &nf) || nf.Dim != 0 {
		t.Errorf("MixedLowerBound err = %v, want *ItemFitsNoTypeError in dim 0", err)
	}
	for _, tc := range []struct {
		name string
		inst *MixedInstance
	}{
		{"nil", nil},
		{"no types", &MixedInstance{}},
		{"no dims", &MixedInstance{Types: []NodeType{{Cost: 1}}}},
		{"type dims", &MixedInstance{Types: []NodeType{types[0], {Capacity: []int64{1}, Cost: 1}}}},
		{"item dims", &MixedInstance{Types: types, Items: []Item{{[]int64{1}, 1}}}},
		{"zero cost", &MixedInstance{Types: []NodeType{{Capacity: []int64{1}, Cost: 0}}}},
		{"NaN cost", &MixedInstance{Types: []NodeType{{Capacity: []int64{1}, Cost: math.NaN()}}}},
		{"Inf cost", &MixedInstance{Types: []NodeType{{Capacity: []int64{1}, Cost: math.Inf(1)}}}},
		{"negative capacity", &MixedInstance{Types: []NodeType{{Capacity: []int64{-1}, Cost: 1}}}},
		{"negative Max", &MixedInstance{Types: []NodeType{{Capacity: []int64{1}, Cost: 1, Max: -1}}}},
		{"negative size", &MixedInstance{Types: types, Items: []Item{{[]int64{-1, 1}, 1}}}},
		{"negative count", &MixedInstance{Types: types, Items: []Item{{[]int64{1, 1}, -1}}}},
		{"overflow", &MixedInstance{Types: []NodeType{{Capacity: []int64{math.MaxInt64}, Cost: 1}}, Items: []Item{{[]int64{math.MaxInt64 / 2}, 3}}}},
	} {
		if _, err := SolveMixed(tc.inst, Options{}); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: SolveMixed err = %v, want ErrInvalid", tc.name, err)
		}
		if _, _, err := MixedLowerBound(tc.inst); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: MixedLowerBound err = %v, want ErrInvalid", tc.name, err)
		}
	}
	// Max too small, provably: 5 items of 6 need 3 nodes of capacity 10
	// (one item each... two never share), but a allows 2 and b (the only
	// other) 1 with room for one item.
	lim := &MixedInstance{
		Types: []NodeType{{Name: "a", Capacity: []int64{10}, Cost: 1, Max: 2}, {Name: "b", Capacity: []int64{6}, Cost: 1, Max: 1}},
		Items: []Item{{[]int64{6}, 4}},
	}
	var nl *NodeLimitError
	if _, err := SolveMixed(lim, Options{}); !errors.As(err, &nl) || !nl.Proven || !errors.Is(err, ErrNodeLimit) {
		t.Errorf("SolveMixed err = %v, want proven *NodeLimitError", err)
	}
	if _, _, err := MixedLowerBound(lim); !errors.As(err, &nl) || !nl.Proven {
		t.Errorf("MixedLowerBound err = %v, want proven *NodeLimitError", err)
	}
	// Enough volume but not enough nodes of the only type an item fits.
	lim2 := &MixedInstance{
		Types: []NodeType{{Name: "a", Capacity: []int64{10, 1}, Cost: 1, Max: 1}, {Name: "b", Capacity: []int64{100, 0}, Cost: 1}},
		Items: []Item{{[]int64{6, 1}, 2}},
	}
	if _, err := SolveMixed(lim2, Options{}); !errors.As(err, &nl) || !nl.Proven || !strings.Contains(err.Error(), "{a}") {
		t.Errorf("SolveMixed err = %v, want proven *NodeLimitError naming {a}", err)
	}
	// Empty instance: zero cost, optimal.
	res, err := SolveMixed(&MixedInstance{Types: types}, Options{})
	if err != nil || res.Cost != 0 || len(res.Bins) != 0 || !res.Optimal || CheckMixed(&MixedInstance{Types: types}, res) != nil {
		t.Errorf("empty: %+v, %v", res, err)
	}
}

func TestMixedCheck(t *testing.T) {
	inst := &MixedInstance{
		Types: []NodeType{
			{Name: "a", Capacity: []int64{10, 10}, Cost: 1, Max: 2},
			{Name: "b", Capacity: []int64{20, 20}, Cost: 1.5},
		},
		Items: []Item{{[]int64{6, 2}, 2}, {[]int64{4, 8}, 1}},
	}
	ok := func() *MixedResult {
		return &MixedResult{Bins: []MixedBin{{0, []int{0, 2}}, {0, []int{1}}}, Count: []int{2, 0}, Cost: 2, LowerBound: 1.5}
	}
	for _, tc := range []struct {
		name string
		edit func(r *MixedResult)
		ok   bool
	}{
		{"valid", func(r *MixedResult) {}, true},
		{"valid b", func(r *MixedResult) {
			r.Bins = []MixedBin{{1, []int{0, 1, 2}}}
			r.Count, r.Cost = []int{0, 1}, 1.5
		}, true},
		{"overfull", func(r *MixedResult) { r.Bins = []MixedBin{{0, []int{0, 1}}, {0, []int{2}}} }, false},
		{"missing", func(r *MixedResult) { r.Bins = r.Bins[:1]; r.Count = []int{1, 0}; r.Cost = 1 }, false},
		{"twice", func(r *MixedResult) { r.Bins[1].Items = []int{1, 0} }, false},
		{"out of range", func(r *MixedResult) { r.Bins[1].Items = []int{1, 3} }, false},
		{"empty bin", func(r *MixedResult) {
			r.Bins = append(r.Bins, MixedBin{1, nil})
			r.Count, r.Cost = []int{2, 1}, 3.5
		}, false},
		{"bad type", func(r *MixedResult) { r.Bins[1].Type = 2 }, false},
		{"Max exceeded", func(r *MixedResult) {
			r.Bins = []MixedBin{{0, []int{0}}, {0, []int{1}}, {0, []int{2}}}
			r.Count, r.Cost = []int{3, 0}, 3
		}, false},
		{"wrong cost", func(r *MixedResult) { r.Cost = 1.9 }, false},
		{"wrong count", func(r *MixedResult) { r.Count = []int{1, 1} }, false},
		{"short count", func(r *MixedResult) { r.Count = []int{2} }, false},
		{"bound above cost", func(r *MixedResult) { r.LowerBound = 2.5 }, false},
		{"false optimal", func(r *MixedResult) { r.Optimal = true }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ok()
			tc.edit(r)
			err := CheckMixed(inst, r)
			var ce *CheckError
			if tc.ok != (err == nil) || (err != nil && !errors.As(err, &ce)) {
				t.Errorf("CheckMixed = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}
