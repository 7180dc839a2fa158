package plan

// SimUserSummary is one user's (application's) jobs in a run, overall and
// by size class: X-Flex's Table 1 rows per scheduler [SEED xflex §3].
type SimUserSummary struct {
	User string `json:"user"`
	Jobs int    `json:"jobs"`
	// AvgJCT is the average response time of its finished jobs; Makespan
	// runs from its first arrival to its last finish.
	AvgJCT   float64      `json:"avgJCT"`
	Makespan float64      `json:"makespan"`
	Bins     []SimBinStat `json:"bins"`
}

// SimBinStat is the average JCT of the finished jobs of one size class.
type SimBinStat struct {
	Bin    string  `json:"bin"`
	Jobs   int     `json:"jobs"`
	AvgJCT float64 `json:"avgJCT"`
}

// SummarizeGroups returns the jobs' average JCT per size class (in the
// order of bins), over all jobs and per user (users in order of first
// appearance), with each user's makespan.
func SummarizeGroups(jobs []SimJob, bins []string) (all []SimBinStat, users []SimUserSummary) {
	binStats := func(js []SimJob) []SimBinStat {
		var out []SimBinStat
		for _, b := range bins {
			var xs []float64
			for _, j := range js {
				if j.SizeBin == b && j.JCT != nil {
					xs = append(xs, *j.JCT)
				}
			}
			out = append(out, SimBinStat{Bin: b, Jobs: len(xs), AvgJCT: Mean(xs)})
		}
		return out
	}
	var order []string
	byUser := map[string][]SimJob{}
	for _, j := range jobs {
		if _, ok := byUser[j.User]; !ok {
			order = append(order, j.User)
		}
		byUser[j.User] = append(byUser[j.User], j)
	}
	for _, u := range order {
		js := byUser[u]
		s := SimUserSummary{User: u, Jobs: len(js), Bins: binStats(js)}
		var xs []float64
		first, last := -1.0, 0.0
		for _, j := range js {
			if first < 0 || j.Arrival < first {
				first = j.Arrival
			}
			if j.JCT != nil {
				xs = append(xs, *j.JCT)
				last = max(last, *j.Finish)
			}
		}
		s.AvgJCT = Mean(xs)
		if last > first {
			s.Makespan = last - first
		}
		users = append(users, s)
	}
	return binStats(jobs), users
}
