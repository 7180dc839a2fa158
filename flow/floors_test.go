package flow

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// randomFloors draws floors that some allocation meets: every machine of
// every type goes, with probability 1/2, to a random user that may use it
// and still has demand left; a user's floor is what it received.
func randomFloors(rng *rand.Rand, p *Problem) []int64 {
	f := make([]int64, len(p.Users))
	for t, c := range p.Types {
		var can []int
		for u, user := range p.Users {
			for _, x := range user.Types {
				if x == t {
					can = append(can, u)
				}
			}
		}
		for k := int64(0); k < c && len(can) > 0; k++ {
			if rng.IntN(2) == 0 {
				continue
			}
			u := can[rng.IntN(len(can))]
			if d := p.Users[u].Demand; d == Unbounded || f[u] < d {
				f[u]++
			}
		}
	}
	return f
}

// bruteIntegralFloors is bruteIntegral restricted to x ≥ floors.
func bruteIntegralFloors(p *Problem) []int64 {
	n := len(p.Users)
	ranks := make([]int64, 1<<n)
	for S := 1; S < 1<<n; S++ {
		ranks[S] = rank(p, S)
	}
	var best []int64
	x := make([]int64, n)
	var rec func(u int)
	rec = func(u int) {
		if u == n {
			for S := 1; S < 1<<n; S++ {
				var s int64
				for v := 0; v < n; v++ {
					if S&(1<<v) != 0 {
						s += x[v]
					}
				}
				if s > ranks[S] {
					return
				}
			}
			if best == nil || lexLess(sortedLevels(p, best), sortedLevels(p, x)) {
				best = append(best[:0], x...)
			}
			return
		}
		for x[u] = p.Floors[u]; x[u] <= ranks[1<<u]; x[u]++ {
			rec(u + 1)
		}
	}
	rec(0)
	return best
}

// TestIntegralFloorsAgainstBruteForce: with floors, the greedy started at
// x = floors gives the leximin-optimal allocation among those that keep
// every floor, on 2000 random instances checked by enumeration; the
// allocation is feasible (types within counts) and meets every floor.
func TestIntegralFloorsAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 2000; i++ {
		maxW := int64(3)
		if i%2 == 0 {
			maxW = 1
		}
		p := randomProblem(rng, 1+rng.IntN(5), 1+rng.IntN(4), 4, maxW)
		p.Floors = randomFloors(rng, p)
		r, err := Integral(p)
		if err != nil {
			t.Fatalf("instance %d %+v: %v", i, *p, err)
		}
		got := amounts(r)
		want := bruteIntegralFloors(p)
		if lexLess(sortedLevels(p, got), sortedLevels(p, want)) || lexLess(sortedLevels(p, want), sortedLevels(p, got)) {
			t.Fatalf("instance %d %+v: amounts %v, brute force %v", i, *p, got, want)
		}
		used := make([]int64, len(p.Types))
		for u, user := range p.Users {
			if got[u] < p.Floors[u] {
				t.Fatalf("instance %d: user %d got %d below its floor %d", i, u, got[u], p.Floors[u])
			}
			var sum int64
			for k, ty := range user.Types {
				used[ty] += r.Alloc[u][k].Num
				sum += r.Alloc[u][k].Num
			}
			if sum != got[u] {
				t.Fatalf("instance %d: user %d allocation sums to %d, amount %d", i, u, sum, got[u])
			}
		}
		for ty, c := range p.Types {
			if used[ty] > c {
				t.Fatalf("instance %d: type %d holds %d of %d", i, ty, used[ty], c)
			}
		}
	}
}

// TestFloorsRejected: floors that no allocation meets, a floor above the
// demand, and floors given to Divisible are errors.
func TestFloorsRejected(t *testing.T) {
	// One type of 2 machines, two users on it with floors 2 and 1: 3 > 2.
	p := &Problem{Types: []int64{2}, Users: []User{{Weight: 1, Demand: Unbounded, Types: []int{0}}, {Weight: 1, Demand: Unbounded, Types: []int{0}}},
		Floors: []int64{2, 1}}
	if _, err := Integral(p); !errors.Is(err, ErrFloors) {
		t.Errorf("infeasible floors: err %v, want ErrFloors", err)
	}
	p.Floors = []int64{1, 0}
	if _, err := Divisible(p); !errors.Is(err, ErrFloors) {
		t.Errorf("Divisible with floors: err %v, want ErrFloors", err)
	}
	p.Users[0].Demand = 1
	p.Floors = []int64{2, 0}
	if _, err := Integral(p); !errors.Is(err, ErrInvalid) {
		t.Errorf("floor above demand: err %v, want ErrInvalid", err)
	}
	// Floors (1, 0) on the same type: the greedy from (1, 0) gives (1, 1).
	p.Users[0].Demand = Unbounded
	p.Floors = []int64{0, 2}
	r, err := Integral(p)
	if err != nil {
		t.Fatal(err)
	}
	if a := amounts(r); a[0] != 0 || a[1] != 2 {
		t.Errorf("floors (0, 2) on 2 machines: amounts %v, want [0 2]", a)
	}
}
