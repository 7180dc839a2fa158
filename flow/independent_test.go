package flow

import (
	"math"
	"testing"
)

// TestIndependentFigure2 checks the paper's Figure 2 shares for Figure 1:
// a1 = m1 + m4/3, a2 = m3/2 + m4/3, a3 = m2 + m3/2 + m4/3 + m6/2 + m7/2,
// a4 = m5 + m6/2 + m7/2 + m8 + m9 + m10.
func TestIndependentFigure2(t *testing.T) {
	got := Independent(&paperCases[0].p)
	want := []float64{1 + 1.0/3, 0.5 + 1.0/3, 1 + 0.5 + 1.0/3 + 0.5 + 0.5, 1 + 0.5 + 0.5 + 3}
	for u := range want {
		if math.Abs(got[u]-want[u]) > 1e-12 {
			t.Errorf("user %d: %v, want %v", u+1, got[u], want[u])
		}
	}
}

// TestIndependentViolatesSharingIncentive reproduces the proof of Theorem
// 1: two users contribute one machine each; user 1 may use both, user 2
// only the second. Independent allocation gives user 2 half a machine,
// CMMF gives it its whole machine.
func TestIndependentViolatesSharingIncentive(t *testing.T) {
	p := &Problem{Types: []int64{1, 1}, Users: unweighted([]int{0, 1}, []int{1})}
	if got := Independent(p)[1]; got != 0.5 {
		t.Fatalf("independent: user 2 gets %v, want 0.5", got)
	}
	r, err := Divisible(p)
	if err != nil {
		t.Fatal(err)
	}
	if r.Amount[1] != Int(1) {
		t.Fatalf("CMMF: user 2 gets %s, want 1", r.Amount[1])
	}
}
