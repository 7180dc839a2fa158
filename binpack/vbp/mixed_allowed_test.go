package vbp

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestMixedAllowedGPU: GPU jobs may only run on the gpu type, although
// they fit the std type (same shape, a third of the price), so the
// cheapest mix buys gpu nodes that capacity alone would never need.
// Three GPU jobs of 6 cpu need two gpu nodes ({6, 6} and {6, 5, 5}), the
// other three jobs of 5 one std node: cost 2·3 + 1 = 7, where capacity
// alone gives three std nodes, cost 3. The bound sees it: two gpu nodes
// for the GPU jobs' volume, three nodes for all.
func TestMixedAllowedGPU(t *testing.T) {
	inst := &MixedInstance{
		Types: []NodeType{
			{Name: "std", Capacity: []int64{16, 64}, Cost: 1},
			{Name: "gpu", Capacity: []int64{16, 64}, Cost: 3},
		},
		Items:   []Item{{[]int64{6, 24}, 3}, {[]int64{5, 20}, 5}},
		Allowed: [][]int{{1}, {0, 1}},
	}
	free := &MixedInstance{Types: inst.Types, Items: inst.Items}
	for _, tc := range []struct {
		inst  *MixedInstance
		opt   float64
		count []int
	}{{free, 3, []int{3, 0}}, {inst, 7, []int{1, 2}}} {
		if opt, ok := bruteMixed(tc.inst); !ok || opt != tc.opt {
			t.Fatalf("brute force %v %v, want %v", opt, ok, tc.opt)
		}
		res, err := SolveMixed(tc.inst, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckMixed(tc.inst, res); err != nil {
			t.Fatal(err)
		}
		if res.Cost != tc.opt || !res.Optimal || !reflect.DeepEqual(res.Count, tc.count) {
			t.Errorf("Allowed %v: result %+v, want cost %v with counts %v, optimal", tc.inst.Allowed, res, tc.opt, tc.count)
		}
		for _, b := range res.Bins {
			for _, i := range b.Items {
				if i < 3 && b.Type != 1 && tc.inst.Allowed != nil {
					t.Errorf("GPU job %d on type %d", i, b.Type)
				}
			}
		}
	}
	// The packing without Allowed puts GPU jobs on std nodes: CheckMixed
	// rejects it for the constrained instance.
	res, err := SolveMixed(free, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var ce *CheckError
	if err := CheckMixed(inst, res); !errors.As(err, &ce) || ce.Item < 0 || ce.Item >= 3 || !strings.Contains(err.Error(), "not allowed") {
		t.Errorf("CheckMixed of the unconstrained packing = %v, want a GPU job not allowed", err)
	}
}

// TestMixedAllowedDominance: a type is dropped as dominated only when
// every item that may use it may use the dominating type, and a type no
// item may use is dropped; with one usable type left SolveMixed is Solve.
func TestMixedAllowedDominance(t *testing.T) {
	types := []NodeType{
		{Name: "small", Capacity: []int64{8}, Cost: 2},
		{Name: "big", Capacity: []int64{16}, Cost: 1},
	}
	for _, tc := range []struct {
		name    string
		allowed [][]int
		single  bool
		opt     float64
	}{
		// big dominates small: one usable type, 5+3 / 5+3 / 4 → 2 nodes.
		{"nil", nil, true, 2},
		{"both", [][]int{{0, 1}, {0, 1}, {0, 1}}, true, 2},
		// Only item type 0 (size 5) may use small; it may use big too.
		{"subset", [][]int{{0, 1}, {1}, {1}}, true, 2},
		// The 3s may use only small: {3, 3} on small, {5, 5, 4} on big;
		// small is not dominated.
		{"small only", [][]int{{1}, {0}, {1}}, false, 3},
		// No item may use big: it is unusable, small is the only type
		// ({5, 3}, {5, 3}, {4}).
		{"no big", [][]int{{0}, {0}, {0}}, true, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inst := &MixedInstance{Types: types, Items: []Item{{[]int64{5}, 2}, {[]int64{3}, 2}, {[]int64{4}, 1}}, Allowed: tc.allowed}
			if opt, ok := bruteMixed(inst); !ok || opt != tc.opt {
				t.Fatalf("brute force %v %v, want %v", opt, ok, tc.opt)
			}
			res, err := SolveMixed(inst, Options{Seed: 2})
			if err != nil {
				t.Fatal(err)
			}
			if err := CheckMixed(inst, res); err != nil {
				t.Fatal(err)
			}
			_, single := res.Bounds["single-type"]
			if res.Cost != tc.opt || !res.Optimal || single != tc.single || strings.HasPrefix(res.Method, "single-type(") != tc.single {
				t.Errorf("result %+v, want cost %v, optimal, single type %v", res, tc.opt, tc.single)
			}
		})
	}
}

func TestMixedAllowedErrors(t *testing.T) {
	types := []NodeType{
		{Name: "a", Capacity: []int64{8, 32}, Cost: 1},
		{Name: "b", Capacity: []int64{16, 64}, Cost: 2},
		{Name: "c", Capacity: []int64{4, 16}, Cost: 1},
	}
	items := []Item{{[]int64{1, 1}, 3}, {[]int64{6, 40}, 1}}
	for _, tc := range []struct {
		name    string
		allowed [][]int
	}{
		{"short", [][]int{{0}}},
		{"long", [][]int{{0}, {1}, {2}}},
		{"empty entry", [][]int{{0}, {}}},
		{"nil entry", [][]int{nil, {1}}},
		{"negative", [][]int{{-1, 0}, {1}}},
		{"out of range", [][]int{{0, 3}, {1}}},
		{"unsorted", [][]int{{1, 0}, {1}}},
		{"repeat", [][]int{{0, 0}, {1}}},
	} {
		inst := &MixedInstance{Types: types, Items: items, Allowed: tc.allowed}
		if _, err := SolveMixed(inst, Options{}); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: SolveMixed err = %v, want ErrInvalid", tc.name, err)
		}
		if _, _, err := MixedLowerBound(inst); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: MixedLowerBound err = %v, want ErrInvalid", tc.name, err)
		}
		r := &MixedResult{Bins: []MixedBin{{1, []int{0, 1, 2, 3}}}, Count: []int{0, 1, 0}, Cost: 2}
		var ce *CheckError
		if err := CheckMixed(inst, r); !errors.Is(err, ErrInvalid) || errors.As(err, &ce) {
			t.Errorf("%s: CheckMixed err = %v, want ErrInvalid", tc.name, err)
		}
	}
	// Item type 1 (6, 40) fits only b but is allowed on a and c: the
	// error names the largest allowed type, a, short by 8 in dimension 1.
	inst := &MixedInstance{Types: types, Items: items, Allowed: [][]int{{0, 1, 2}, {0, 2}}}
	_, err := SolveMixed(inst, Options{})
	var nf *ItemFitsNoTypeError
	if !errors.As(err, &nf) || nf.Item != 1 || nf.Type != 0 || nf.TypeName != "a" || nf.Dim != 1 || nf.Size != 40 || nf.Capacity != 32 || !nf.Restricted || !errors.Is(err, ErrInvalid) {
		t.Errorf("err = %#v, want *ItemFitsNoTypeError item 1, type 0, dim 1, restricted", err)
	} else if msg := err.Error(); !strings.Contains(msg, "allowed") || !strings.Contains(msg, `"a"`) || !strings.Contains(msg, "short by 8 in dimension 1") {
		t.Errorf("message %q", msg)
	}
	if _, _, err := MixedLowerBound(inst); !errors.As(err, &nf) || nf.Type != 0 {
		t.Errorf("MixedLowerBound err = %v, want *ItemFitsNoTypeError naming a", err)
	}
	// Allowed on every type: the unrestricted error (largest type b).
	inst.Items = []Item{{[]int64{1, 1}, 3}, {[]int64{6, 80}, 1}}
	inst.Allowed = [][]int{{0}, {0, 1, 2}}
	if _, err := SolveMixed(inst, Options{}); !errors.As(err, &nf) || nf.Type != 1 || nf.Restricted || strings.Contains(err.Error(), "allowed") {
		t.Errorf("err = %v, want *ItemFitsNoTypeError naming b, unrestricted", err)
	}
	// A restriction on an item of count 0 is validated but need not fit.
	inst.Items = []Item{{[]int64{1, 1}, 3}, {[]int64{6, 80}, 0}}
	inst.Allowed = [][]int{{0}, {2}}
	if res, err := SolveMixed(inst, Options{}); err != nil || CheckMixed(inst, res) != nil || res.Cost != 1 {
		t.Errorf("count 0: %+v, %v", res, err)
	}
	// Max limits: the items that may use only a need 2 nodes of a, Max 1.
	lim := &MixedInstance{
		Types:   []NodeType{{Name: "a", Capacity: []int64{10}, Cost: 1, Max: 1}, {Name: "b", Capacity: []int64{100}, Cost: 1}},
		Items:   []Item{{[]int64{6}, 2}},
		Allowed: [][]int{{0}},
	}
	var nl *NodeLimitError
	if _, err := SolveMixed(lim, Options{}); !errors.As(err, &nl) || !nl.Proven || !strings.Contains(err.Error(), "{a}") {
		t.Errorf("SolveMixed err = %v, want proven *NodeLimitError naming {a}", err)
	}
}

// TestMixedCheckAllowed: CheckMixed rejects an item on a type it is not
// allowed on, and accepts it on an allowed one.
func TestMixedCheckAllowed(t *testing.T) {
	inst := &MixedInstance{
		Types:   []NodeType{{Name: "a", Capacity: []int64{10}, Cost: 1}, {Name: "b", Capacity: []int64{10}, Cost: 1}},
		Items:   []Item{{[]int64{3}, 2}, {[]int64{4}, 1}},
		Allowed: [][]int{{0, 1}, {1}},
	}
	ok := &MixedResult{Bins: []MixedBin{{0, []int{0, 1}}, {1, []int{2}}}, Count: []int{1, 1}, Cost: 2}
	if err := CheckMixed(inst, ok); err != nil {
		t.Errorf("valid: %v", err)
	}
	bad := &MixedResult{Bins: []MixedBin{{0, []int{0, 2}}, {1, []int{1}}}, Count: []int{1, 1}, Cost: 2}
	var ce *CheckError
	if err := CheckMixed(inst, bad); !errors.As(err, &ce) || ce.Bin != 0 || ce.Item != 2 || !strings.Contains(err.Error(), "not allowed") {
		t.Errorf("item 2 on type a: CheckMixed = %v, want *CheckError bin 0 item 2", err)
	}
}
