package sim

// Result is what a run produced: one row per job, utilisation, fairness,
// time series and work counters. Times are in ticks; resource amounts in
// quanta (Quanta gives their size in base units).
type Result struct {
	Policy        string
	Resources     []string
	Quanta        []float64
	Total         Vec
	Machines      int
	Classes       int
	ContainerMode bool
	// Jobs are the accepted jobs in ordinal order; Finish is −1 for a job
	// unfinished at Config.Until.
	Jobs     []JobRecord
	Rejected []Rejection
	// FirstArrival is the first job's arrival; Makespan runs from it to
	// the last finish (or to End when jobs are unfinished).
	FirstArrival, Makespan, End Tick
	// Utilization is the mean allocation over capacity of each dimension
	// over the makespan, from exact integrals.
	Utilization []float64
	Series      Series
	Jain        []JainStat
	Stats       Stats
	// PolicyStats are the policy's own counters (StatsPolicy), or nil.
	PolicyStats map[string]int64
}

// JobRecord is one job's outcome (SIMULATE.md §4.1).
type JobRecord struct {
	ID                     JobID
	Name                   string
	User                   UserID
	Arrival, Start, Finish Tick // Start −1 if never started; Finish −1 if unfinished
	Tasks                  int32
	// LB is max(critical path, ⌈TWork⌉) of the actual durations on the
	// whole cluster: no schedule finishes the job sooner (SIMULATE.md
	// §4.1). CPL is the critical path of the estimates.
	LB, CPL                               Tick
	Attempts, Kills, Suspends, Migrations int32
	// Wasted is the task time lost to kills; WastedWork the same weighted
	// by NormSum(demand).
	Wasted     Tick
	WastedWork float64
}

// JCT returns the job completion time Finish − Arrival, or −1.
func (r *JobRecord) JCT() Tick {
	if r.Finish < 0 {
		return -1
	}
	return r.Finish - r.Arrival
}

// JainStat summarises Jain's index over the windows of one length.
type JainStat struct {
	Window         Tick
	Windows        int
	Mean, Min, Max float64
}
