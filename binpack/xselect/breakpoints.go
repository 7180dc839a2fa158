package xselect

import "math"

// The required set at λ is n_{a,k} = ⌊λ·m_{a,k}⌋ (Count); it changes only
// at the breakpoints λ = j/m_{a,k}. These helpers move between them.

// counts returns the required set at λ.
func (s *searcher) counts(lambda float64) [][]int {
	req := make([][]int, s.full.na)
	for a, app := range s.full.p.Apps {
		req[a] = make([]int, s.full.nk)
		for k, m := range app.Mix {
			req[a][k] = Count(lambda, m)
		}
	}
	return req
}

// snap returns the smallest λ giving the same set as lambda:
// max_{a,k} ⌊λ m⌋/m (0 for the empty set).
func (s *searcher) snap(lambda float64) float64 {
	v := 0.0
	for _, app := range s.full.p.Apps {
		for _, m := range app.Mix {
			if c := Count(lambda, m); c > 0 {
				v = math.Max(v, float64(c)/m)
			}
		}
	}
	return v
}

// next returns the smallest breakpoint strictly above lambda's set.
func (s *searcher) next(lambda float64) float64 {
	v := math.Inf(1)
	for _, app := range s.full.p.Apps {
		for _, m := range app.Mix {
			if m > 0 {
				v = math.Min(v, float64(Count(lambda, m)+1)/m)
			}
		}
	}
	return v
}

// prev returns the largest breakpoint strictly below lambda (0 if none).
func (s *searcher) prev(lambda float64) float64 {
	v := 0.0
	for _, app := range s.full.p.Apps {
		for _, m := range app.Mix {
			if m > 0 {
				if j := math.Ceil(lambda*m-countTol) - 1; j > 0 {
					v = math.Max(v, j/m)
				}
			}
		}
	}
	return v
}

// plausible is a necessary condition for the required set n of λ to pack
// under the colocation rules (exact sets only, so it is skipped in
// incremental mode, where frozen surplus may supply partners): for every
// Colocate pair {a, b}, if n_a > 0 then n_b > 0, and if a has a
// MaxPerNode, n_a ≤ MaxPerNode_a·n_b (each node with a holds a b). Unlike
// LambdaUpper's tests it is not monotone in λ. Cost O(A·K + pairs).
func (s *searcher) plausible(lambda float64) bool {
	if s.frozen != nil || len(s.full.p.Colocate) == 0 {
		return true
	}
	tot := make([]int, s.full.na)
	for a, row := range s.counts(lambda) {
		for _, c := range row {
			tot[a] += c
		}
	}
	for _, pr := range s.full.p.Colocate {
		a, b := pr[0], pr[1]
		if tot[a] > 0 && (tot[b] == 0 || (s.full.cap[a] > 0 && tot[a] > s.full.cap[a]*tot[b])) {
			return false
		}
	}
	return true
}
