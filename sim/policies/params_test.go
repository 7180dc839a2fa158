package policies_test

import (
	"testing"

	"github.com/capplan/capplan/sim"
	"github.com/capplan/capplan/sim/policies"
)

// TestParamsDoNotLeak: a parameter given to one construction leaves the
// defaults of the next alone (capacity's max is a *big.Rat shared with
// the registered defaults unless bind clones it).
func TestParamsDoNotLeak(t *testing.T) {
	spec, _ := policies.Lookup("capacity")
	if _, err := policies.New("capacity", map[string]string{"max": "0.5"}); err != nil {
		t.Fatal(err)
	}
	// max < 1 makes capacity not work-conserving; the default (1) is.
	p, err := policies.New("capacity", nil)
	if err != nil {
		t.Fatal(err)
	}
	if tp, ok := p.(interface{ Traits() sim.Traits }); !ok || !tp.Traits().WorkConserving {
		t.Errorf("capacity with default max after a max=0.5 construction is not work-conserving (max leaked)")
	}
	for _, d := range spec.Params {
		if d.Name == "max" && d.Default != "1.000" {
			t.Errorf("documented default max = %s, want 1.000", d.Default)
		}
	}
	if d := mustSpecDefault(t, "capacity", "max"); d != "1.000" {
		t.Errorf("registered default max = %s after constructions", d)
	}
}

func mustSpecDefault(t *testing.T, name, param string) string {
	t.Helper()
	spec, ok := policies.Lookup(name)
	if !ok {
		t.Fatalf("no policy %s", name)
	}
	for _, d := range spec.Params {
		if d.Name == param {
			return d.Default
		}
	}
	t.Fatalf("%s has no parameter %s", name, param)
	return ""
}
