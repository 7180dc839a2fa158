package flow

import (
	"fmt"
	"math/big"
	"math/bits"
	"sort"
)

// CertificateError describes why a Result fails verification.
type CertificateError struct {
	User   int // the user concerned, or -1
	Reason string
}

func (e *CertificateError) Error() string {
	if e.User < 0 {
		return "flow: certificate: " + e.Reason
	}
	return fmt.Sprintf("flow: certificate: user %d: %s", e.User, e.Reason)
}

// Verify checks, in exact rational arithmetic and independently of how r
// was computed, that r is a feasible allocation for p and that it is
// leximin-optimal:
//
//   - feasibility: allocations are non-negative, only on eligible types,
//     within every type's count, every user's demand and type caps, and sum
//     to Amount; Level = Amount/Weight; integral results are whole numbers;
//   - maximality and exchange optimality: in the exchange graph (u may take
//     a machine of type t, below its cap on t, from any v that holds some of
//     t, who may replace it by any of its own types where it is below its
//     cap), no user below its demand reaches a type
//     with idle capacity, and no user u reaches a donor v whose loss would
//     raise the sorted level vector: level(v) > level(u) for divisible
//     shares; for integral shares, (x_v−1)/w_v > x_u/w_u, or equal with
//     w_v > w_u (then u's new level exceeds v's old one).
//
// Type caps are capacities of the arcs user → type of the transportation
// network, whose feasible amount vectors still form a polymatroid.
// For divisible shares these are the optimality conditions of the lex-
// optimal base of a polymatroid (Fujishige 1980); the tight-set pieces are
// a compact form of the same fact. For integral shares they are the local
// exchange conditions, which are global on M-convex sets (Murota, Discrete
// Convex Analysis, Thm 6.26); brute force agrees in the tests.
//
// Rounds must agree with levels: a strictly lower level never has a later
// round. Verify costs O(T² + Σ|N(u)|·T/64) for T types.
func Verify(p *Problem, r *Result) error {
	nT := len(p.Types)
	used := make([]acc, nT)
	for u, user := range p.Users {
		if len(r.Alloc[u]) != len(user.Types) {
			return &CertificateError{u, "allocation does not match its type list"}
		}
		var sum acc
		for k, t := range user.Types {
			a := r.Alloc[u][k]
			if a.Num < 0 || a.Den <= 0 {
				return &CertificateError{u, "negative allocation"}
			}
			if r.Integral && a.Den != 1 {
				return &CertificateError{u, "fractional allocation in an integral result"}
			}
			if e := user.typeCap(k); e != Unbounded && a.Cmp(Int(e)) > 0 {
				return &CertificateError{u, fmt.Sprintf("allocation %s on type %d exceeds its cap %d", a, t, e)}
			}
			sum.add(a)
			used[t].add(a)
		}
		if sum.cmp(r.Amount[u]) != 0 {
			return &CertificateError{u, fmt.Sprintf("allocations sum to %s, amount is %s", sum.value().RatString(), r.Amount[u])}
		}
		if user.Demand != Unbounded && sum.cmp(Int(user.Demand)) > 0 {
			return &CertificateError{u, "allocation exceeds demand"}
		}
		lv := new(big.Rat).Quo(sum.value(), big.NewRat(user.Weight, 1))
		if lv.Cmp(r.Level[u].Big()) != 0 {
			return &CertificateError{u, "level is not amount/weight"}
		}
	}
	spare := make([]bool, nT)
	for t, c := range p.Types {
		cmp := used[t].cmp(Int(c))
		if cmp > 0 {
			return &CertificateError{-1, fmt.Sprintf("type %d over-allocated: %s of %d", t, used[t].value().RatString(), c)}
		}
		spare[t] = cmp < 0
	}

	// Donor quality: divisible — level(v); integral — ((x_v−1)/w_v, w_v).
	// From here on levels are r.Level, just checked to equal Amount/Weight
	// exactly, so comparisons run on int64 rationals.
	level := r.Level
	keys := make([]Rat, len(p.Users))
	for v := range keys {
		keys[v] = level[v]
		if r.Integral {
			keys[v] = Int(0) // holds nothing: never a donor
			if x := r.Amount[v].Num; x > 0 {
				keys[v] = NewRat(x-1, p.Users[v].Weight)
			}
		}
	}
	donorKey := func(v int) Rat { return keys[v] }
	better := func(v, w int) bool { // v is a better donor than w
		c := donorKey(v).Cmp(donorKey(w))
		return c > 0 || (c == 0 && r.Integral && p.Users[v].Weight > p.Users[w].Weight)
	}
	// Best two distinct donors per type, and the type graph t → N(v).
	best := make([][2]int, nT)
	for t := range best {
		best[t] = [2]int{-1, -1}
	}
	words := (nT + 63) / 64
	adj := make([][]uint64, nT)
	for t := range adj {
		adj[t] = make([]uint64, words)
	}
	for v, user := range p.Users {
		var nv []uint64
		for k, t := range user.Types {
			if r.Alloc[v][k].Num == 0 {
				continue
			}
			b := &best[t]
			switch {
			case b[0] < 0 || better(v, b[0]):
				b[1], b[0] = b[0], v
			case b[1] < 0 || better(v, b[1]):
				b[1] = v
			}
			if nv == nil {
				nv = make([]uint64, words)
				for k2, t2 := range user.Types {
					if slack(r, user, v, k2) {
						nv[t2/64] |= 1 << (t2 % 64)
					}
				}
			}
			for i := range nv {
				adj[t][i] |= nv[i]
			}
		}
	}
	closure := transitiveClosure(adj, words)

	reach := make([]uint64, words)
	for u, user := range p.Users {
		if len(user.Types) == 0 {
			continue
		}
		clear(reach)
		for k, t := range user.Types {
			if !slack(r, user, u, k) {
				continue
			}
			reach[t/64] |= 1 << (t % 64)
			for i := range reach {
				reach[i] |= closure[t][i]
			}
		}
		atDemand := user.Demand != Unbounded && r.Amount[u].Cmp(Int(user.Demand)) == 0
		for i, word := range reach {
			for word != 0 {
				t := i*64 + bits.TrailingZeros64(word)
				word &= word - 1
				if spare[t] && !atDemand {
					return &CertificateError{u, fmt.Sprintf("can still grow on idle capacity of type %d", t)}
				}
				v := best[t][0]
				if v == u {
					v = best[t][1]
				}
				if v >= 0 && improves(r.Integral, level[u], donorKey(v), p.Users[u].Weight, p.Users[v].Weight) && !atDemand {
					return &CertificateError{u, fmt.Sprintf("can gain from user %d through type %d", v, t)}
				}
			}
		}
	}
	if r.Integral {
		return nil // rounds of integral results follow the fractional pieces
	}
	return checkRounds(level, r.Round)
}

// slack reports whether user u (user) is below its cap on its k-th type,
// so that it may take a machine of that type.
func slack(r *Result, user User, u, k int) bool {
	e := user.typeCap(k)
	return e == Unbounded || r.Alloc[u][k].Cmp(Int(e)) < 0
}

// improves reports whether moving one unit from a donor with key dk and
// weight wv to a user at level lu with weight wu raises the sorted levels.
func improves(integral bool, lu, dk Rat, wu, wv int64) bool {
	c := dk.Cmp(lu)
	if !integral {
		return c > 0
	}
	return c > 0 || (c == 0 && wv > wu)
}

// transitiveClosure returns, for each t, the set of types reachable from t
// in one or more steps of adj (bitsets of width words).
func transitiveClosure(adj [][]uint64, words int) [][]uint64 {
	n := len(adj)
	out := make([][]uint64, n)
	stack := make([]int, 0, n)
	for s := 0; s < n; s++ {
		seen := make([]uint64, words)
		stack = stack[:0]
		for i, w := range adj[s] {
			for w != 0 {
				t := i*64 + bits.TrailingZeros64(w)
				w &= w - 1
				seen[t/64] |= 1 << (t % 64)
				stack = append(stack, t)
			}
		}
		for len(stack) > 0 {
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for i, w := range adj[t] {
				w &^= seen[i]
				for w != 0 {
					t2 := i*64 + bits.TrailingZeros64(w)
					w &= w - 1
					seen[i] |= 1 << (t2 % 64)
					stack = append(stack, t2)
				}
			}
		}
		out[s] = seen
	}
	return out
}

// checkRounds checks that rounds follow levels: sorted by level, rounds
// never decrease, and rise whenever the level strictly rises (users with
// round 0 never grew and are skipped).
func checkRounds(level []Rat, round []int) error {
	idx := make([]int, 0, len(level))
	for u := range level {
		if round[u] > 0 {
			idx = append(idx, u)
		}
	}
	sort.SliceStable(idx, func(i, j int) bool { return level[idx[i]].Cmp(level[idx[j]]) < 0 })
	for i := 1; i < len(idx); i++ {
		a, b := idx[i-1], idx[i]
		c := level[a].Cmp(level[b])
		if round[b] < round[a] || (c < 0 && round[b] == round[a]) {
			return &CertificateError{b, fmt.Sprintf("round %d at level %s does not follow round %d at level %s",
				round[b], level[b], round[a], level[a])}
		}
	}
	return nil
}

// acc sums exact rationals in int64, moving to big.Rat only on overflow.
type acc struct {
	r   Rat
	big *big.Rat
}

func (a *acc) add(x Rat) {
	if a.r.Den == 0 {
		a.r = Int(0)
	}
	if a.big == nil {
		if s, ok := addRat(a.r, x); ok {
			a.r = s
			return
		}
		a.big = a.r.Big()
	}
	a.big.Add(a.big, x.Big())
}

func (a *acc) value() *big.Rat {
	if a.big != nil {
		return a.big
	}
	if a.r.Den == 0 {
		return new(big.Rat)
	}
	return a.r.Big()
}

func (a *acc) cmp(x Rat) int {
	if a.big == nil {
		r := a.r
		if r.Den == 0 {
			r = Int(0)
		}
		return r.Cmp(x)
	}
	return a.big.Cmp(x.Big())
}
