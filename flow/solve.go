package flow

// Solve computes CMMF shares: Divisible, or with whole machines Integral.
func Solve(p *Problem, integral bool) (*Result, error) {
	if integral {
		return Integral(p)
	}
	return Divisible(p)
}
