package export

import "math/big"

// quotas rounds the plan to whole units of each resource: units[u][t][r]
// is application u's amount of resource r on machine type t in units of
// gran(r). For every (t, r) the applications' units are apportioned by
// the largest-remainder method to add up to exactly ⌊Σ_u amount/gran⌋, so
// no type is ever promised more than the plan allocates on it (and so
// never more than its capacity), and every entry is within one unit of
// the exact amount.
func (m *model) quotas(gran func(resource string) *big.Rat) [][][]*big.Int {
	units := make([][][]*big.Int, len(m.apps))
	for u := range m.apps {
		units[u] = make([][]*big.Int, len(m.types))
		for t := range m.types {
			units[u][t] = make([]*big.Int, len(m.resources))
		}
	}
	x := make([]*big.Rat, len(m.apps))
	for t := range m.types {
		for r, res := range m.resources {
			g := gran(res)
			for u := range m.apps {
				x[u] = m.apps[u].amount[t][r]
			}
			for u, n := range apportion(x, g, floorTotal(x, g)) {
				units[u][t][r] = n
			}
		}
	}
	return units
}

// appTotals sums units over machine types: out[u][r].
func appTotals(units [][][]*big.Int) [][]*big.Int {
	out := make([][]*big.Int, len(units))
	for u := range units {
		for t := range units[u] {
			if out[u] == nil {
				out[u] = make([]*big.Int, len(units[u][t]))
				for r := range out[u] {
					out[u][r] = new(big.Int)
				}
			}
			for r, n := range units[u][t] {
				out[u][r].Add(out[u][r], n)
			}
		}
	}
	return out
}
