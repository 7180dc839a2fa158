package binpack

import "testing"

func TestDominates(t *testing.T) {
	tests := []struct {
		name string
		a, b []float64
		want bool
	}{
		{"equal", []float64{2, 4}, []float64{2, 4}, true},
		{"larger", []float64{3, 5}, []float64{2, 4}, true},
		{"one coordinate short", []float64{3, 3}, []float64{2, 4}, false},
		{"zero request", []float64{0, 0}, []float64{0, 0}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Dominates(tc.a, tc.b); got != tc.want {
				t.Errorf("Dominates(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

func TestFirstFit(t *testing.T) {
	bins := [][]float64{{1, 8}, {8, 1}, {8, 8}}
	if got := FirstFit([]float64{2, 2}, bins); got != 2 {
		t.Errorf("FirstFit = %d, want 2", got)
	}
	if got := FirstFit([]float64{9, 1}, bins); got != -1 {
		t.Errorf("FirstFit = %d, want -1", got)
	}
}

func TestShortfalls(t *testing.T) {
	got := Shortfalls([]float64{4, 8, 1}, []float64{6, 8, 2})
	want := []Shortfall{{Dim: 0, Need: 6, Have: 4}, {Dim: 2, Need: 2, Have: 1}}
	if len(got) != len(want) {
		t.Fatalf("Shortfalls = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Shortfalls[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	if s := Shortfalls([]float64{4, 8}, []float64{4, 8}); s != nil {
		t.Errorf("exact fit has shortfalls %v", s)
	}
	// Agrees with Dominates on random vectors.
	for i := range 200 {
		a := []float64{float64(i % 5), float64(i / 5 % 7), float64(i / 35 % 3)}
		b := []float64{float64(i / 3 % 5), float64(i / 2 % 7), float64(i % 3)}
		if (Shortfalls(a, b) == nil) != Dominates(a, b) {
			t.Fatalf("Shortfalls(%v, %v) disagrees with Dominates", a, b)
		}
	}
}

func TestClosest(t *testing.T) {
	caps := [][]float64{{1, 100}, {9, 9}, {10, 1}}
	// need (10, 10): cap 0 misses 90% of cpu, cap 1 misses 10% + 10%, cap 2 misses 90% of memory.
	i, short := Closest(caps, []float64{10, 10})
	if i != 1 || len(short) != 2 {
		t.Errorf("Closest = %d %v, want 1 with two shortfalls", i, short)
	}
	if i, short := Closest(caps, []float64{1, 50}); i != 0 || short != nil {
		t.Errorf("Closest = %d %v, want 0 (fits)", i, short)
	}
	if i, _ := Closest(nil, []float64{1}); i != -1 {
		t.Errorf("Closest(nil) = %d, want -1", i)
	}
}
