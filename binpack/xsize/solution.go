package xsize

// Solution is a shape catalog with its assignment and quality evidence.
type Solution struct {
	// Shapes in real units, sorted by normalised cost, then lexicographically.
	Shapes [][]float64
	// Assign gives, per Problem.Requests index, the index of the request's
	// cheapest dominating shape (ties → lowest index).
	Assign []int
	// Cost is Σ w·cost(shape) in normalised units.
	Cost float64
	// LowerBound is the best lower bound known on the optimum for this K.
	LowerBound float64
	// Epsilon is the ε of the last completed PTAS step: Cost ≤ (1+ε)·OPT.
	// It is 0 for exact methods and for LocalSearch (no guarantee).
	Epsilon float64
	// Method is "ptas", "exact", "maxdp" or "local".
	Method string
	// Optimal is true when Cost is proven optimal.
	Optimal bool
	// Steps is the PTAS outer-loop history.
	Steps []Step
	// Seed is the random seed used by LocalSearch (also when PTAS falls
	// back to it).
	Seed uint64
	// WorkUsed counts the work units PTAS or LocalSearch spent (0 for
	// Exact and MaxDP).
	WorkUsed int64
	// TimeLimitHit reports that the opt-in TimeLimit stopped the search.
	TimeLimitHit bool
}

// Ratio returns Cost / LowerBound (1 when both are 0).
func (s *Solution) Ratio() float64 {
	if s.LowerBound <= 0 {
		if s.Cost == 0 {
			return 1
		}
		return 0
	}
	return s.Cost / s.LowerBound
}

// Step records one ε step of the PTAS outer loop.
type Step struct {
	Eps        float64 // ε of this step
	Rays       int     // lines through the origin (all supports)
	Candidates int     // distinct candidate shapes on the lines
	StateBound float64 // a-priori bound K·Σ_{r≤K} e_r(n_1..n_L) on DP states
	States     int64   // DP states actually stored
	Cost       float64 // best cost known after the step
	Status     string  // StatusDone, StatusRefused, StatusBudget or StatusTimeLimit
	Work       int64   // work units of the step (polish and DP)
}

// Step statuses.
const (
	StatusDone      = "done"       // the step completed; its ε is guaranteed
	StatusRefused   = "refused"    // the DP exceeded MaxStates; the loop stopped
	StatusBudget    = "budget"     // the work budget (MaxWork) ended before or inside the step
	StatusTimeLimit = "time-limit" // the opt-in TimeLimit ended before or inside the step
)
