package vbp

import (
	"testing"
)

func TestLowerBoundHand(t *testing.T) {
	for _, tc := range []struct {
		name string
		inst *Instance
		want Bounds
	}{
		{
			// Σ = (12, 3) over capacity (10, 10): L1 = ⌈12/10⌉ = 2.
			// (6,1) and (6,1) conflict in dim 0: clique 2. L2 on dim 0:
			// K=0: J2 = {6,6}, J3 = {} → 2.
			name: "two halves",
			inst: &Instance{Capacity: []int64{10, 10}, Items: []Item{{[]int64{6, 1}, 2}, {[]int64{0, 1}, 1}}},
			want: Bounds{L1: 2, Clique: 2, L2: 2, Best: 2},
		},
		{
			// Volume bound only: 5 items of (4,4), Σ = 20 → L1 = 2; no two
			// items conflict (8 ≤ 10) → clique 1; L2 (K=0): J3 sum 20 → 2.
			name: "small items",
			inst: &Instance{Capacity: []int64{10, 10}, Items: []Item{{[]int64{4, 4}, 5}}},
			want: Bounds{L1: 2, Clique: 1, L2: 2, Best: 2},
		},
		{
			// Cross conflicts in three dimensions: a = (6,6,0), b = (5,0,6),
			// c = (0,5,5); a+b = (11,6,6), a+c = (6,11,5), b+c = (5,5,11) all
			// exceed 10 somewhere → clique 3. L1 = ⌈11/10⌉ = 2. L2 per
			// dimension (sizes 6,5,0): K=0: J2 = {6} room 4, J3 = 5 → 1+⌈1/10⌉
			// = 2; K=5: J1 = {6}, J3 = {5} → 1+⌈5/10⌉ = 2.
			name: "clique beats volume",
			inst: &Instance{Capacity: []int64{10, 10, 10}, Items: []Item{
				{[]int64{6, 6, 0}, 1}, {[]int64{5, 0, 6}, 1}, {[]int64{0, 5, 5}, 1}}},
			want: Bounds{L1: 2, Clique: 3, L2: 2, Best: 3},
		},
		{
			// Capacity 10, sizes 7×3, 4×3. L1 = ⌈33/10⌉ = 4. Clique: the
			// three 7s plus one 4 (7+4 > 10, but 4+4 ≤ 10) = 4. L2 with K=4:
			// J1 = {s > 6} = {7,7,7} (room 3 < 4 each), J2 = {}, J3 = 12 →
			// 3 + ⌈12/10⌉ = 5, which is the optimum (4,4 | 4).
			name: "martello toth",
			inst: &Instance{Capacity: []int64{10}, Items: []Item{{[]int64{7}, 3}, {[]int64{4}, 3}}},
			want: Bounds{L1: 4, Clique: 4, L2: 5, Best: 5},
		},
		{
			// Capacity 10, sizes 9×3, 2×3. L1 = ⌈33/10⌉ = 4. Clique: three
			// 9s and one 2 = 4. L2 with K=2: J1 = {s > 8} = 3, J3 = 6 → 3 +
			// ⌈6/10⌉ = 4.
			name: "martello toth J1",
			inst: &Instance{Capacity: []int64{10}, Items: []Item{{[]int64{9}, 3}, {[]int64{2}, 3}}},
			want: Bounds{L1: 4, Clique: 4, L2: 4, Best: 4},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := LowerBound(tc.inst)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("LowerBound = %+v, want %+v", got, tc.want)
			}
		})
	}
}
