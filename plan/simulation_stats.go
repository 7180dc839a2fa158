package plan

import (
	"math"
	"slices"
)

// Statistics over simulation rows, shared by `simulate` and any later
// merge of sweep cells, so that a number is computed in one place.

// Quantile returns the q-quantile (0 ≤ q ≤ 1) of xs by linear
// interpolation between order statistics (Hyndman & Fan type 7, the
// default of R and NumPy): with xs sorted and h = (n−1)q, x[⌊h⌋] +
// (h−⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]). It returns 0 for no values. xs is sorted in
// place.
func Quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	h := float64(len(xs)-1) * q
	lo := int(math.Floor(h))
	if lo >= len(xs)-1 {
		return xs[len(xs)-1]
	}
	return xs[lo] + (h-float64(lo))*(xs[lo+1]-xs[lo])
}

// Mean returns the arithmetic mean of xs (0 for none), summed in order.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// SizeBin returns Choosy's bin of a duration in seconds
// [SEED choosy Table 1].
func SizeBin(seconds float64) string {
	switch {
	case seconds < 30:
		return "<30s"
	case seconds < 120:
		return "30-120s"
	case seconds <= 600:
		return "120-600s"
	}
	return ">600s"
}

// SummarizeJCT fills the JCT aggregates and counts of s from the jobs.
func SummarizeJCT(s *SimSummary, jobs []SimJob) {
	var jcts []float64
	for _, j := range jobs {
		if j.JCT != nil {
			jcts = append(jcts, *j.JCT)
		}
	}
	s.Finished, s.Unfinished = len(jcts), len(jobs)-len(jcts)
	s.AvgJCT = Mean(jcts)
	s.MedianJCT = Quantile(jcts, 0.5)
	s.P95JCT = Quantile(jcts, 0.95)
}

// Compare pairs run with base job by job (by name): FI_j =
// JCT_j(base)/JCT_j(run) over the jobs finished with a positive JCT in
// both, its quantiles and mean, the share slowed (FI < 1) and badly
// slowed (FI < 0.8), the smallest FI, Graphene's gap (JCT_B − JCT_P)/JCT_B,
// and the average-JCT and makespan ratios (SIMULATE.md §4.2).
func Compare(baseName string, base, run *SimulationRun) *SimCompare {
	c := &SimCompare{Baseline: baseName}
	byName := make(map[string]float64, len(base.Jobs))
	for _, j := range base.Jobs {
		if j.JCT != nil && *j.JCT > 0 {
			byName[j.Name] = *j.JCT
		}
	}
	var fis, gaps []float64
	slowed, bad := 0, 0
	c.MinFI = math.Inf(1)
	for _, j := range run.Jobs {
		b, ok := byName[j.Name]
		if !ok || j.JCT == nil || *j.JCT <= 0 {
			continue
		}
		fi := b / *j.JCT
		c.PerJob = append(c.PerJob, SimFI{Name: j.Name, FI: fi})
		fis = append(fis, fi)
		gaps = append(gaps, (b-*j.JCT)/b)
		if fi < 1 {
			slowed++
		}
		if fi < 0.8 {
			bad++
		}
		c.MinFI = min(c.MinFI, fi)
	}
	c.Paired = len(fis)
	if c.Paired == 0 {
		c.MinFI = 0
		return c
	}
	c.Slowed = float64(slowed) / float64(c.Paired)
	c.SlowedBelow0_8 = float64(bad) / float64(c.Paired)
	mean := Mean(fis) // before Quantile sorts fis
	c.FI = SimQuantiles{Mean: mean, P25: Quantile(fis, .25), P50: Quantile(fis, .5), P75: Quantile(fis, .75), P95: Quantile(fis, .95)}
	c.Gap = SimGap{P25: Quantile(gaps, .25), P50: Quantile(gaps, .5), P75: Quantile(gaps, .75), P90: Quantile(gaps, .9)}
	if run.Summary.AvgJCT > 0 {
		c.AvgJCTRatio = base.Summary.AvgJCT / run.Summary.AvgJCT
	}
	if run.Summary.Makespan > 0 {
		c.MakespanRatio = base.Summary.Makespan / run.Summary.Makespan
	}
	return c
}
