package policies_test

import (
	"testing"
)

// TestCarbyneFig2 is SIMULATE.md §7.2 example 1 (Carbyne §2.1, Figure 2):
// JCTs in ticks of 0.1.
func TestCarbyneFig2(t *testing.T) {
	cl, us, jobs := fig2()
	res := simulate(t, cl, us, mustPolicy(t, "carbyne", nil), jobs)
	got := jctOf(res)
	if got["J1"] != 21 || got["J2"] != 10 {
		t.Errorf("JCT (J1, J2) = (%d, %d), want (21, 10)", got["J1"], got["J2"])
	}
	t.Log(res.PolicyStats)
}
