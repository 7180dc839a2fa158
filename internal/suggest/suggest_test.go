package suggest

import "testing"

func TestClosest(t *testing.T) {
	known := []string{"cluster", "demand", "example", "gpu", "cpu"}
	cases := []struct {
		name, want string
		ok         bool
	}{
		{"exampel", "example", true}, // a transposition: distance 1
		{"demnad", "demand", true},
		{"clustr", "cluster", true},
		{"GPU", "gpu", true},    // case-insensitive: distance 0
		{"gpx", "", false},      // distance 1 to gpu, not under a third of 3
		{"workload", "", false}, // nothing near
		{"exmple", "example", true},
	}
	for _, tc := range cases {
		got, ok := Closest(tc.name, known)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Closest(%q) = %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	// "kitten" → "sitting": k→s, e→i, +g.
	if d := EditDistance("kitten", "sitting"); d != 3 {
		t.Errorf("EditDistance = %d, want 3", d)
	}
}
