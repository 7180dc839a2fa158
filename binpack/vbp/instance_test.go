package vbp

import "testing"

func TestInstanceExpansion(t *testing.T) {
	// Two item types: (3,4)×2 and (10,0)×1 expand to items 0, 1 (type 0)
	// and 2 (type 1).
	inst := &Instance{Capacity: []int64{10, 20}, Items: []Item{{[]int64{3, 4}, 2}, {[]int64{10, 0}, 1}}}
	if n := inst.NumItems(); n != 3 {
		t.Errorf("NumItems = %d, want 3", n)
	}
	if s := inst.Sizes(); len(s) != 3 || s[1][1] != 4 || s[2][0] != 10 {
		t.Errorf("Sizes = %v", s)
	}
}
