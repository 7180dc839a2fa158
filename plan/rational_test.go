package plan

import (
	"math/rand/v2"
	"testing"
)

func TestRatFromFloat(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want string
	}{
		{2592.0 / 35, "2592/35"},
		{1.0 / 3, "1/3"},
		{0.1, "1/10"},
		{60.114285714285714, "2104/35"},
		{137438953472, "137438953472"},
		{0, "0"},
		{-2.5, "-5/2"},
	} {
		if got := RatFromFloat(tc.x).RatString(); got != tc.want {
			t.Errorf("RatFromFloat(%v) = %s, want %s", tc.x, got, tc.want)
		}
	}
	// Any float comes back as a rational that rounds to it.
	rng := rand.New(rand.NewPCG(3, 4))
	for range 1000 {
		x := rng.NormFloat64() * 1e6
		if f, _ := RatFromFloat(x).Float64(); f != x {
			t.Fatalf("RatFromFloat(%v) rounds to %v", x, f)
		}
	}
}
