package datasets

import (
	"bytes"
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/labels"
)

func TestGoogleLikeDeterministic(t *testing.T) {
	p := GoogleParams{Users: 50, Types: 12, Machines: 400}
	marshal := func(seed int64) []byte {
		c, d := GoogleLike(p, seed)
		cb, err := MarshalYAML(c)
		if err != nil {
			t.Fatal(err)
		}
		db, err := MarshalYAML(d)
		if err != nil {
			t.Fatal(err)
		}
		return append(cb, db...)
	}
	a, b := marshal(7), marshal(7)
	if !bytes.Equal(a, b) {
		t.Errorf("seed 7 gave different bytes on two runs")
	}
	if bytes.Equal(a, marshal(8)) {
		t.Errorf("seeds 7 and 8 gave the same instance")
	}
}

func TestGoogleLikeShape(t *testing.T) {
	cases := []GoogleParams{
		{Users: 1, Types: 1, Machines: 1},
		{Users: 40, Types: 5, Machines: 5}, // one node per type
		{Users: 200, Types: 30, Machines: 1000},
		{Users: 500, Types: 100, Machines: 10000},
	}
	for _, p := range cases {
		for _, seed := range []int64{1, 2, 3} {
			c, d := GoogleLike(p, seed)
			if len(c.Groups) != p.Types || c.NumNodes() != p.Machines || len(d.Applications) != p.Users {
				t.Fatalf("%+v seed %d: %d groups, %d nodes, %d users", p, seed, len(c.Groups), c.NumNodes(), len(d.Applications))
			}
			// Types are really distinct: no two groups share their labels.
			seen := map[string]string{}
			for _, g := range c.Groups {
				key := labels.Set(g.Labels).String()
				if other, dup := seen[key]; dup {
					t.Errorf("%+v seed %d: groups %s and %s have the same labels", p, seed, other, g.Name)
				}
				seen[key] = g.Name
			}
			// The generated pair passes the checks a loaded pair gets.
			if err := CheckDemand(c, d); err != nil {
				t.Fatalf("%+v seed %d: CheckDemand: %v", p, seed, err)
			}
			inst, err := Coalesce(c, d)
			if err != nil {
				t.Fatal(err)
			}
			if len(inst.Types) > p.Types {
				t.Errorf("%d machine types from %d groups", len(inst.Types), p.Types)
			}
			// Every user may run on between minEligibleFraction and all of
			// the machines.
			for _, a := range inst.Applications {
				f := float64(a.Machines) / float64(p.Machines)
				if f < minEligibleFraction || f > 1 {
					t.Errorf("%+v seed %d: user %s eligible on %.3f of the machines", p, seed, a.Name, f)
				}
				if a.Weight < 1 || a.Weight > 4 || a.MaxMachines > a.Machines {
					t.Errorf("user %s: weight %d, maxMachines %d of %d", a.Name, a.Weight, a.MaxMachines, a.Machines)
				}
			}
			if p.Types >= 30 {
				checkInstance(t, c, d, inst)
			}
		}
	}
}

// TestGoogleLikeConstraintMix checks the constraint model on a large
// sample: most users have zero or one constraint, some are constrained to
// a small share of the machines, and attribute frequencies span from all
// machines to about a tenth.
func TestGoogleLikeConstraintMix(t *testing.T) {
	c, d := GoogleLike(GoogleParams{Users: 2000, Types: 100, Machines: 20000}, 42)
	counts := map[int]int{}
	for _, a := range d.Applications {
		n := 0
		if a.SelectorText != "" {
			reqs, _ := a.Selector.Requirements()
			n = len(reqs)
		}
		counts[n]++
	}
	// 35% none and 30% one are drawn; retries only ever remove
	// constraints, so about 65% have at most one (1200 leaves room for
	// sampling noise: the standard deviation is about 21 users).
	if low := counts[0] + counts[1]; low < 1200 {
		t.Errorf("only %d of 2000 users have at most one constraint (%v)", low, counts)
	}
	if counts[3] == 0 || counts[2] == 0 {
		t.Errorf("no user with 2 or 3 constraints: %v", counts)
	}
	inst, err := Coalesce(c, d)
	if err != nil {
		t.Fatal(err)
	}
	narrow := 0
	for _, a := range inst.Applications {
		if a.Machines*4 < 20000 {
			narrow++
		}
	}
	if narrow == 0 {
		t.Errorf("no user is limited to under a quarter of the machines")
	}
	// attr-0 is on every machine; the rarest attribute's feature on few.
	feature := func(attr string) int {
		n := 0
		for _, g := range c.Groups {
			if g.Labels[attr] == "a" {
				n += g.Count
			}
		}
		return n
	}
	if all := feature("attr-0"); all != 20000 {
		t.Errorf("attr-0=a on %d machines, want all", all)
	}
	if rare := feature("attr-20"); rare > 20000/3 {
		t.Errorf("attr-20=a on %d of 20000 machines, want a small share", rare)
	}
}

func TestGoogleLikePanicsOnBadParams(t *testing.T) {
	for _, p := range []GoogleParams{{0, 1, 1}, {1, 0, 1}, {1, 5, 4}, {1, 1, MaxNodes + 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("GoogleLike(%+v) did not panic", p)
				}
			}()
			GoogleLike(p, 1)
		}()
	}
}

func BenchmarkGoogleLikeCoalesce(b *testing.B) {
	// The scale of the Choosy paper's solver evaluation (§7.4).
	for _, p := range []GoogleParams{{Users: 500, Types: 20, Machines: 10000}, {Users: 5000, Types: 100, Machines: 100000}} {
		c, d := GoogleLike(p, 1)
		b.Run(fmt.Sprintf("users=%d-types=%d-machines=%d", p.Users, p.Types, p.Machines), func(b *testing.B) {
			for b.Loop() {
				if _, err := Coalesce(c, d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
