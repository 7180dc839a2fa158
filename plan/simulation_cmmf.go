package plan

// Choosy's measures against the CMMF comparators [SEED choosy §7.1;
// SIMULATE.md §4.2]: how far a run's allocation and job times are from an
// offline CMMF scheduler's, and how constrained its jobs were.

// SimShareFit compares a run with a CMMF comparator run on the same
// inputs.
type SimShareFit struct {
	Comparator string `json:"comparator"`
	// Mean is the mean over the samples of the RMSE between the two runs'
	// allocation vectors, in % of the cluster: every second, each run's
	// users' dominant shares (% of the cluster; slots in slot mode) sorted
	// in decreasing order and zero-padded to equal length n, then
	// √(1/n Σ_i (c_i − o_i)²). Seconds when neither run allocates anything
	// are skipped.
	Mean    float64 `json:"mean"`
	Samples int     `json:"samples"`
	// CDF gives the RMSE at every fifth percentile of the samples, 0 to
	// 100.
	CDF []SimCDFPoint `json:"cdf"`
	// AvgJCTRatio = avgJCT(run)/avgJCT(comparator): 1.02 is 2% slower.
	AvgJCTRatio float64 `json:"avgJCTRatio"`
	// Slowdown is JCT(run)/JCT(comparator) per job, by Choosy's bins of
	// the comparator's JCT (Table 1: <30s, 30-120s, 120-600s, >600s).
	Slowdown []SimSlowdownBin `json:"slowdown"`
}

// SimCDFPoint is one point of an empirical CDF.
type SimCDFPoint struct {
	Value    float64 `json:"value"`
	Fraction float64 `json:"fraction"`
}

// SimSlowdownBin is the mean and standard deviation of the slowdown of the
// jobs of one bin.
type SimSlowdownBin struct {
	Bin  string  `json:"bin"`
	Jobs int     `json:"jobs"`
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
}

// SimConstraints describes how constrained the jobs were and how the
// constrained ones fared (SIMULATE.md §2.3 GoogleLike, §5.3 H5).
type SimConstraints struct {
	// EligibleMean is the mean over jobs of the fraction of machines a job
	// may use; Under20 and Under10 the shares of jobs that may use fewer
	// than 20% and 10% of them (Choosy §7.1: 38%, 40% and 30%).
	EligibleMean float64 `json:"eligibleMean"`
	Under20      float64 `json:"under20"`
	Under10      float64 `json:"under10"`
	// Constrained counts the jobs that may not use every machine, and
	// AvgJCT is their average JCT (finished ones).
	Constrained int     `json:"constrained"`
	AvgJCT      float64 `json:"avgJCT"`
}
