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
