package xselect

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/capplan/capplan/binpack/internal/work"
)

// checkIncremental verifies an incremental result independently of the
// solver: CheckIncremental, the required set, every node outside
// plan.Mutable identical to From (same order), Changed ⊆ Mutable,
// |Mutable| ≤ limit, Forced ⊆ Mutable, and Frozen/Surplus recounted.
func checkIncremental(t *testing.T, p *Problem, from [][]Container, phi float64, plan *Plan) {
	t.Helper()
	checkRequired(t, p, plan)
	if err := CheckIncremental(p, from, plan, phi); err != nil {
		t.Fatal(err)
	}
	limit := MutableNodes(len(p.Nodes), phi)
	if plan.MutableLimit != limit || len(plan.Mutable) > limit || len(plan.Changed) > limit {
		t.Fatalf("limit %d: MutableLimit %d, |Mutable| %d, |Changed| %d", limit, plan.MutableLimit, len(plan.Mutable), len(plan.Changed))
	}
	inM := map[int]bool{}
	for _, n := range plan.Mutable {
		inM[n] = true
	}
	for _, n := range plan.Changed {
		if !inM[n] {
			t.Fatalf("node %d changed but not mutable", n)
		}
	}
	for _, n := range plan.Forced {
		if !inM[n] {
			t.Fatalf("forced node %d not mutable", n)
		}
	}
	frozen := make([][]int, len(p.Apps))
	for a := range frozen {
		frozen[a] = make([]int, len(p.Shapes))
	}
	for n := range p.Nodes {
		if inM[n] {
			continue
		}
		if !reflect.DeepEqual(plan.Nodes[n], from[n]) && !(len(plan.Nodes[n]) == 0 && len(from[n]) == 0) {
			t.Fatalf("frozen node %d: %v, From %v", n, plan.Nodes[n], from[n])
		}
		for _, c := range from[n] {
			frozen[c.Owner][c.Shape]++
		}
	}
	for a, app := range p.Apps {
		f, sur := 0, 0
		for k, m := range app.Mix {
			f += frozen[a][k]
			sur += max(0, frozen[a][k]-Count(plan.Lambda, m))
		}
		if plan.Apps[a].Frozen != f || plan.Apps[a].Surplus != sur {
			t.Fatalf("app %d: Frozen %d Surplus %d, want %d %d", a, plan.Apps[a].Frozen, plan.Apps[a].Surplus, f, sur)
		}
	}
}

// randomFrom returns a previous plan for p: with probability ½ the plan
// Solve finds for a perturbed copy of p (other mixes), otherwise random
// containers on random nodes, which may break any rule.
func randomFrom(rng *rand.Rand, p *Problem) [][]Container {
	from := make([][]Container, len(p.Nodes))
	if rng.IntN(2) == 0 {
		q := *p
		q.Apps = slices.Clone(p.Apps)
		for a := range q.Apps {
			q.Apps[a].Mix = slices.Clone(q.Apps[a].Mix)
			for k := range q.Apps[a].Mix {
				q.Apps[a].Mix[k] *= 0.5 + rng.Float64()
			}
		}
		plan, err := Solve(&q, Options{Seed: rng.Uint64()})
		if err != nil {
			panic(err)
		}
		return plan.Nodes
	}
	for n := range from {
		from[n] = []Container{}
		for range rng.IntN(4) {
			from[n] = append(from[n], Container{Shape: rng.IntN(len(p.Shapes)), Owner: rng.IntN(len(p.Apps))})
		}
	}
	return from
}

// TestIncrementalRandom runs incremental mode on 300 random constrained
// instances with random previous plans (valid or not) and random φ
// (seed 3). Each run either returns a *TooManyInvalidError whose node
// list is exactly the nodes Check's rules reject, with more of them than
// the limit, or a plan that passes checkIncremental.
func TestIncrementalRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 0))
	tooMany := 0
	for i := range 300 {
		p := randomConstrained(rng)
		from := randomFrom(rng, p)
		phi := []float64{0, 0.1, 0.25, 0.5, 1, rng.Float64()}[rng.IntN(6)]
		plan, err := Solve(p, Options{From: from, Mutable: phi, Seed: uint64(i)})
		chk := newChecker(p)
		var invalid []int
		for n, cs := range from {
			if chk.node(n, cs) != nil {
				invalid = append(invalid, n)
			}
		}
		var tm *TooManyInvalidError
		if errors.As(err, &tm) {
			tooMany++
			if !errors.Is(err, ErrTooManyInvalid) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("trial %d: %v does not match the sentinels", i, err)
			}
			if !slices.Equal(tm.Nodes, invalid) || tm.Limit != MutableNodes(len(p.Nodes), phi) || len(invalid) <= tm.Limit {
				t.Fatalf("trial %d: %+v, invalid nodes %v", i, tm, invalid)
			}
			continue
		}
		if err != nil {
			t.Fatalf("trial %d: %v", i, err)
		}
		if !slices.Equal(plan.Forced, invalid) && !(len(plan.Forced) == 0 && len(invalid) == 0) {
			t.Fatalf("trial %d: Forced %v, invalid %v", i, plan.Forced, invalid)
		}
		checkIncremental(t, p, from, phi, plan)
		if first := firstPhaseLambda(t, p, Options{From: from, Mutable: phi, Seed: uint64(i)}); plan.Lambda < first {
			t.Fatalf("trial %d: λ %v below the first phase's %v", i, plan.Lambda, first)
		}
	}
	t.Logf("%d/300 runs had too many invalid nodes", tooMany)
}

// TestIncrementalFrozen: with Mutable = 0 the plan is From itself, node
// by node and in From's order, whenever From is valid; Lambda is then
// the largest λ whose required set From holds.
func TestIncrementalFrozen(t *testing.T) {
	p := generate(5, 60, 600)
	prev, err := Solve(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// A new mix: app 0 wants twice as much, so From alone falls short of
	// the old λ for it.
	q := *p
	q.Apps = slices.Clone(p.Apps)
	q.Apps[0].Mix = slices.Clone(p.Apps[0].Mix)
	for k := range q.Apps[0].Mix {
		q.Apps[0].Mix[k] *= 2
	}
	plan, err := Solve(&q, Options{From: prev.Nodes, Mutable: 0})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(plan.Nodes, prev.Nodes) || len(plan.Changed) != 0 || plan.Changed == nil {
		t.Fatalf("Mutable = 0 changed the plan: changed %v", plan.Changed)
	}
	checkIncremental(t, &q, prev.Nodes, 0, plan)
	s := testSearcher(&q)
	s.opt.From = prev.Nodes
	if want := s.fromLambda(); plan.Lambda != want {
		t.Errorf("λ = %v, want the λ From covers, %v", plan.Lambda, want)
	}
	if plan.Lambda >= prev.Lambda {
		t.Errorf("λ = %v did not drop below %v although app 0 doubled", plan.Lambda, prev.Lambda)
	}
}

// TestIncrementalKeepsLambda: rerunning on the unchanged problem from its
// own plan (no colocation, so keepFrom can always keep what is needed)
// never loses λ, and with φ = 1 from an empty plan it matches an initial
// run.
func TestIncrementalKeepsLambda(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 0))
	for i := range 100 {
		p := randomConstrained(rng)
		p.Colocate = nil
		prev, err := Solve(p, Options{Seed: uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		phi := rng.Float64()
		plan, err := Solve(p, Options{From: prev.Nodes, Mutable: phi, Seed: uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		checkIncremental(t, p, prev.Nodes, phi, plan)
		if plan.Lambda < prev.Lambda {
			t.Fatalf("trial %d: λ %v < previous %v", i, plan.Lambda, prev.Lambda)
		}
	}
	p := generate(6, 100, 1000)
	initial, _ := Solve(p, Options{})
	empty := make([][]Container, len(p.Nodes))
	plan, err := Solve(p, Options{From: empty, Mutable: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkIncremental(t, p, empty, 1, plan)
	if plan.Lambda != initial.Lambda {
		t.Errorf("φ = 1 from nothing: λ %v, initial run %v", plan.Lambda, initial.Lambda)
	}
}

// TestIncrementalForced: a From node that now breaks a rule is in Forced
// and gets fixed; with fewer mutable places than such nodes Solve fails
// with a *TooManyInvalidError naming them.
func TestIncrementalForced(t *testing.T) {
	p := &Problem{
		Dims:   []string{"cpu"},
		Nodes:  []Node{{Capacity: []float64{4}}, {Capacity: []float64{4}}, {Capacity: []float64{4}}, {Capacity: []float64{4}}},
		Shapes: [][]float64{{1}},
		Apps: []App{
			{Share: 0.5, Mix: []float64{1}, MaxPerNode: 2},
			{Share: 0.5, Mix: []float64{1}},
		},
		Exlocate: [][2]int{{0, 1}},
	}
	from := [][]Container{
		{{0, 0}, {0, 0}, {0, 0}}, // 3 > MaxPerNode 2
		{{0, 0}, {0, 1}},         // exlocated pair
		{{0, 1}, {0, 1}},
		{},
	}
	_, err := Solve(p, Options{From: from, Mutable: 0.25}) // limit 1 < 2 invalid
	var tm *TooManyInvalidError
	if !errors.As(err, &tm) || !slices.Equal(tm.Nodes, []int{0, 1}) || tm.Limit != 1 {
		t.Fatalf("got %v", err)
	}
	plan, err := Solve(p, Options{From: from, Mutable: 0.5}) // limit 2: both forced
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plan.Forced, []int{0, 1}) || !slices.Equal(plan.Mutable, []int{0, 1}) {
		t.Fatalf("Forced %v Mutable %v", plan.Forced, plan.Mutable)
	}
	checkIncremental(t, p, from, 0.5, plan)
}

func TestIncrementalOptionsInvalid(t *testing.T) {
	p := generate(1, 5, 20)
	ok := make([][]Container, len(p.Nodes))
	cases := map[string]Options{
		"From length":  {From: ok[:4]},
		"From shape":   {From: append(ok[:4:4], []Container{{Shape: 6, Owner: 0}})},
		"From owner":   {From: append(ok[:4:4], []Container{{Shape: 0, Owner: -1}})},
		"Mutable < 0":  {From: ok, Mutable: -0.1},
		"Mutable > 1":  {From: ok, Mutable: 1.5},
		"Mutable NaN":  {From: ok, Mutable: nan()},
		"no From, bad": {Mutable: 2},
	}
	for name, opt := range cases {
		if _, err := Solve(p, opt); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", name, err)
		}
	}
}

func TestMutableNodes(t *testing.T) {
	for _, c := range []struct {
		n    int
		phi  float64
		want int
	}{
		{50, 0.1, 5}, // 0.1·50 = 5 despite rounding
		{10, 0.3, 3}, // 0.3·10 = 3.0000000000000004 or 2.999…
		{7, 0.5, 3},  // ⌊3.5⌋
		{100, 0.07, 7},
		{10, 0, 0},
		{10, 1, 10},
		{10, 1.5, 10},
		{10, -1, 0},
		{0, 0.5, 0},
	} {
		if got := MutableNodes(c.n, c.phi); got != c.want {
			t.Errorf("MutableNodes(%d, %v) = %d, want %d", c.n, c.phi, got, c.want)
		}
	}
}

// firstPhaseLambda runs Solve's first incremental phase alone (the λ
// search on the mutable set incremental picks once, without the targeted
// phase) and returns its λ: the incremental mode as it was before the
// targeted phase.
func firstPhaseLambda(t *testing.T, p *Problem, opt Options) float64 {
	t.Helper()
	opt.KnapsackNodes, opt.ImproveVisits, opt.MaxProbes = DefaultKnapsackNodes, DefaultImproveVisits, DefaultMaxProbes
	full := newInstance(p)
	s := &searcher{full: full, in: full, opt: opt, w: work.New(DefaultMaxWork, 0)}
	if err := s.incremental(&Plan{}); err != nil {
		t.Fatal(err)
	}
	best, _ := s.probe(0, nil)
	lambda, _ := s.search(lambdaUpper(full), best)
	return lambda
}

// shiftedMixes returns p with the mixes of apps 5–24 up by 60% and of
// apps 25 and above down by 40% (the GPU apps 0–4 as they were).
func shiftedMixes(p *Problem) *Problem {
	q := *p
	q.Apps = slices.Clone(p.Apps)
	for a := range q.Apps {
		f := 1.0
		switch {
		case a >= 25:
			f = 0.6
		case a >= 5:
			f = 1.6
		}
		q.Apps[a].Mix = slices.Clone(p.Apps[a].Mix)
		for k := range q.Apps[a].Mix {
			q.Apps[a].Mix[k] *= f
		}
	}
	return &q
}

// TestIncrementalUsesBudget: on seeded rules instances (generateRules,
// 300 nodes) whose mixes changed after the previous plan, so that a
// fresh run reaches a higher λ than the previous plan covers, λ does not
// fall as φ grows over 0, 0.05, 0.1, 0.2, rises above the φ = 0 value by
// φ = 0.2, and is never below the first phase's λ alone.
func TestIncrementalUsesBudget(t *testing.T) {
	for _, seed := range []uint64{11, 12, 13} {
		p := generateRules(seed, 300, 3300)
		prev, err := Solve(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		q := shiftedMixes(p)
		fresh, err := Solve(q, Options{})
		if err != nil {
			t.Fatal(err)
		}
		last := -1.0
		for _, phi := range []float64{0, 0.05, 0.1, 0.2} {
			opt := Options{From: prev.Nodes, Mutable: phi}
			plan, err := Solve(q, opt)
			if err != nil {
				t.Fatal(err)
			}
			checkIncremental(t, q, prev.Nodes, phi, plan)
			if phi == 0 && fresh.Lambda <= plan.Lambda {
				t.Fatalf("seed %d: fresh λ %v not above the frozen λ %v: not a test of the budget", seed, fresh.Lambda, plan.Lambda)
			}
			if plan.Lambda < last {
				t.Errorf("seed %d, φ = %v: λ %v below %v at the smaller φ", seed, phi, plan.Lambda, last)
			}
			if first := firstPhaseLambda(t, q, opt); plan.Lambda < first {
				t.Errorf("seed %d, φ = %v: λ %v below the first phase's %v", seed, phi, plan.Lambda, first)
			}
			if phi == 0.2 && plan.Lambda <= firstPhaseLambda(t, q, Options{From: prev.Nodes}) {
				t.Errorf("seed %d: φ = 0.2 did not raise λ above %v", seed, plan.Lambda)
			}
			last = plan.Lambda
		}
	}
}

// TestIncrementalExample replays `capplan pack --example` with the shape
// catalog of `capplan shapes --example -k 8`: the previous plan was made
// under fair shares, the new problem uses the demand's weights (a fresh
// run gets λ ≈ 0.33). The applications over target hold the nodes that
// those under target need (reporting: zone b, colocated with web; ci: spot
// nodes, exlocated with batch-etl; ml on the GPU nodes). With φ = 0.1 the
// run must change nodes and raise λ well above what the previous plan
// covers (0.1436), and λ must not fall as φ grows to 0.3.
func TestIncrementalExample(t *testing.T) {
	data, err := os.ReadFile("testdata/example_incremental.json")
	if err != nil {
		t.Fatal(err)
	}
	var x struct {
		Problem Problem
		From    [][]Container
	}
	if err := json.Unmarshal(data, &x); err != nil {
		t.Fatal(err)
	}
	p, from := &x.Problem, x.From
	frozen, err := Solve(p, Options{From: from, Mutable: 0})
	if err != nil {
		t.Fatal(err)
	}
	last := frozen.Lambda
	for _, phi := range []float64{0.05, 0.1, 0.2, 0.3} {
		plan, err := Solve(p, Options{From: from, Mutable: phi})
		if err != nil {
			t.Fatal(err)
		}
		checkIncremental(t, p, from, phi, plan)
		if plan.Lambda < last {
			t.Errorf("φ = %v: λ %v below %v at the smaller φ", phi, plan.Lambda, last)
		}
		if phi == 0.1 && (len(plan.Changed) == 0 || plan.Lambda < 1.3*frozen.Lambda) {
			t.Errorf("φ = 0.1: %d nodes changed, λ %v (previous plan covers %v)", len(plan.Changed), plan.Lambda, frozen.Lambda)
		}
		last = plan.Lambda
	}
}
