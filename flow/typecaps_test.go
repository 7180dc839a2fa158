package flow

import (
	"math/rand/v2"
	"testing"
)

// randomCapped is randomProblem with a cap on about half of the (user,
// type) pairs, between 0 and the type's count.
func randomCapped(rng *rand.Rand, nu, nt int, maxCount, maxW int64) *Problem {
	p := randomProblem(rng, nu, nt, maxCount, maxW)
	for u := range p.Users {
		user := &p.Users[u]
		if len(user.Types) == 0 || rng.IntN(3) == 0 {
			continue
		}
		user.TypeCaps = make([]int64, len(user.Types))
		for k, t := range user.Types {
			user.TypeCaps[k] = Unbounded
			if rng.IntN(2) == 0 {
				user.TypeCaps[k] = rng.Int64N(p.Types[t] + 1)
			}
		}
	}
	return p
}

// TestTypeCapsAgainstBruteForce: with caps on user → type arcs, divisible
// shares equal Fujishige's decomposition under the capped rank function
// (brute force over user and type subsets), integral shares the leximin
// optimum by enumeration, both weighted and unweighted; every result passes
// Verify, which also checks that no cap is exceeded.
func TestTypeCapsAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for i := range 1500 {
		p := randomCapped(rng, 1+rng.IntN(6), 1+rng.IntN(5), 6, 4)
		r, err := Divisible(p)
		if err != nil {
			t.Fatal(err)
		}
		want := bruteDivisible(p)
		for u := range p.Users {
			if r.Amount[u].Big().Cmp(want[u]) != 0 {
				t.Fatalf("instance %d %+v: user %d amount %s, brute force %s", i, *p, u, r.Amount[u], want[u].RatString())
			}
		}
		if err := Verify(p, r); err != nil {
			t.Fatalf("instance %d %+v: %v", i, *p, err)
		}
	}
	for i := range 2000 {
		maxW := int64(4)
		if i%2 == 0 {
			maxW = 1 // Algorithm B
		}
		p := randomCapped(rng, 1+rng.IntN(5), 1+rng.IntN(4), 4, maxW)
		r, err := Integral(p)
		if err != nil {
			t.Fatal(err)
		}
		got := sortedLevels(p, amounts(r))
		want := bruteIntegral(p)
		if lexLess(got, want) || lexLess(want, got) {
			t.Fatalf("integral instance %d %+v: amounts %v, brute force levels %v", i, *p, amounts(r), want)
		}
		if err := Verify(p, r); err != nil {
			t.Fatalf("integral instance %d %+v: %v", i, *p, err)
		}
	}
}

// TestTypeCapHandExample: one type of 10 machines, users a (weight 1, cap
// 3 on it) and b (weight 1). Without the cap each gets 5; with it a stops
// at 3 (blocked by its cap while the type still has room) and b takes the
// other 7.
func TestTypeCapHandExample(t *testing.T) {
	p := &Problem{Types: []int64{10}, Users: []User{
		{Weight: 1, Demand: Unbounded, Types: []int{0}, TypeCaps: []int64{3}},
		{Weight: 1, Demand: Unbounded, Types: []int{0}},
	}}
	for _, integral := range []bool{false, true} {
		r, err := Solve(p, integral)
		if err != nil {
			t.Fatal(err)
		}
		if r.Amount[0] != Int(3) || r.Amount[1] != Int(7) {
			t.Errorf("integral=%v: amounts %v, %v; want 3, 7", integral, r.Amount[0], r.Amount[1])
		}
		if err := Verify(p, r); err != nil {
			t.Errorf("integral=%v: %v", integral, err)
		}
	}
	// Verify refuses an allocation over the cap, and one that leaves b
	// below what a fair exchange gives it.
	bad := &Result{Amount: []Rat{Int(4), Int(6)}, Level: []Rat{Int(4), Int(6)}, Round: []int{1, 2},
		Capped: []bool{false, false}, Alloc: [][]Rat{{Int(4)}, {Int(6)}}}
	if err := Verify(p, bad); err == nil {
		t.Error("an allocation over a's cap passed Verify")
	}
	idle := &Result{Amount: []Rat{Int(3), Int(6)}, Level: []Rat{Int(3), Int(6)}, Round: []int{1, 2},
		Capped: []bool{false, false}, Alloc: [][]Rat{{Int(3)}, {Int(6)}}}
	if err := Verify(p, idle); err == nil {
		t.Error("an allocation leaving a machine b could use idle passed Verify")
	}
}
