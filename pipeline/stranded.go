package pipeline

import "github.com/capplan/capplan/plan"

// stranded is the capacity left unused over the nodes of a packing plan,
// per dimension: capacity[d] − used[d], and as a percentage of capacity[d]
// (0 where there is no capacity).
func stranded(dims []string, capacity, used []float64) []plan.Stranded {
	out := make([]plan.Stranded, len(dims))
	for d, dim := range dims {
		s := plan.Stranded{Resource: dim, Capacity: capacity[d], Used: used[d], Unused: capacity[d] - used[d]}
		if capacity[d] > 0 {
			s.Percent = 100 * s.Unused / capacity[d]
		}
		out[d] = s
	}
	return out
}
