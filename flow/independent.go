package flow

// Independent computes the paper's independent-allocation baseline (Choosy
// §4.1): every machine is split among the users that may use it, in
// proportion to their weights (equally when unweighted), ignoring how much
// of other machines they get. It returns each user's machines. Demand caps
// clip a user's total; what they clip stays idle, as the policy has no
// redistribution. The baseline lacks the constrained sharing incentive
// (Theorem 1), which is why capplan reports it only for comparison.
func Independent(p *Problem) []float64 {
	wsum := make([]int64, len(p.Types))
	for _, u := range p.Users {
		if u.Demand == 0 {
			continue
		}
		for _, t := range u.Types {
			wsum[t] += u.Weight
		}
	}
	out := make([]float64, len(p.Users))
	for i, u := range p.Users {
		if u.Demand == 0 {
			continue
		}
		var x float64
		for _, t := range u.Types {
			x += float64(p.Types[t]) * float64(u.Weight) / float64(wsum[t])
		}
		if u.Demand != Unbounded {
			x = min(x, float64(u.Demand))
		}
		out[i] = x
	}
	return out
}
