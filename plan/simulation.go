package plan

import (
	"errors"
	"fmt"
	"math"
)

// Kinds of the simulation documents.
const (
	KindSimulationResult = "SimulationResult"
	KindSimulationSet    = "SimulationSet"
)

// SimulationResult is the document `capplan simulate` writes for one
// policy (SIMULATE.md §4.3): the inputs, the cell's parameters, one row
// per job and the aggregates. Times are in seconds and resource amounts
// in base units. It holds no wall time, host name or absolute path, so the
// same cell always gives the same bytes.
type SimulationResult struct {
	Header
	SimulationContext
	SimulationRun
}

// SimulationSet is the document of `capplan simulate --compare`: the
// inputs and parameters once, then one run per policy on identical inputs.
type SimulationSet struct {
	Header
	SimulationContext
	// Baseline names the policy the runs' Compare sections are paired
	// against ("" without --baseline).
	Baseline string          `json:"baseline,omitempty"`
	Runs     []SimulationRun `json:"results"`
}

// SimulationContext is what every run of a cell shares.
type SimulationContext struct {
	Workload SimWorkload `json:"workload"`
	Cluster  SimCluster  `json:"cluster"`
	// Tick is the simulator tick in seconds.
	Tick float64 `json:"tick"`
	// Noise is σ of the lognormal duration noise; NoiseMode "mean" or
	// "median".
	Noise     float64 `json:"noise"`
	NoiseMode string  `json:"noiseMode"`
	// Misestimate and Contention are recorded for the fields SIMULATE.md
	// fixes: "" and "off" in this version.
	Misestimate string `json:"misestimate,omitempty"`
	Contention  string `json:"contention"`
	// Until is the time limit in seconds (0: none).
	Until float64 `json:"until,omitempty"`
	// Offline is the allocation of an offline packing plan to compare
	// with (--against).
	Offline *SimOffline `json:"offline,omitempty"`
}

// SimWorkload describes the simulated jobs.
type SimWorkload struct {
	Name     string            `json:"name"`
	Params   map[string]string `json:"params,omitempty"`
	Jobs     int               `json:"jobs"`
	Tasks    int64             `json:"tasks"`
	Rejected []SimRejection    `json:"rejected,omitempty"`
}

// SimRejection is a job dropped before the run, and why.
type SimRejection struct {
	Job    string `json:"job"`
	Reason string `json:"reason"`
}

// SimCluster describes the simulated machines.
type SimCluster struct {
	Machines  int      `json:"machines"`
	Classes   int      `json:"classes"`
	Resources []string `json:"resources"`
	// Quanta is each resource's unit in base units (SIMULATE.md §1.1).
	Quanta        map[string]float64 `json:"quanta"`
	Capacity      map[string]float64 `json:"capacity"`
	ContainerMode bool               `json:"containerMode"`
}

// SimulationRun is one policy's outcome.
type SimulationRun struct {
	Policy  SimPolicy   `json:"policy"`
	Summary SimSummary  `json:"summary"`
	Jobs    []SimJob    `json:"jobs"`
	Compare *SimCompare `json:"compare,omitempty"`
	Series  SimSeries   `json:"series"`
	Stats   SimStats    `json:"stats"`
	// Gantt holds the task runs of the jobs chosen for a Gantt chart.
	Gantt []SimGanttJob `json:"gantt,omitempty"`
	// RMSE compares the run with each CMMF comparator of the set
	// (Choosy §7.1); Constraints describes the constrained jobs.
	RMSE        []SimShareFit   `json:"rmse,omitempty"`
	Constraints *SimConstraints `json:"constraints,omitempty"`
	// Bins and Users summarise the jobs by size class, overall and per
	// user, for workloads with their own classes (W-XFLEX).
	Bins  []SimBinStat     `json:"bins,omitempty"`
	Users []SimUserSummary `json:"users,omitempty"`
	// XSight holds X-Flex's views (--view xsight, container mode).
	XSight *SimXSight `json:"xsight,omitempty"`
	// Ownership is the simulated check of an ownership plan (container
	// mode, `capplan plan`): each application's share held against the
	// share of the containers it owns.
	Ownership *SimOwnership `json:"ownership,omitempty"`
}

// SimGanttJob is one job's task runs, in start order.
type SimGanttJob struct {
	Job  string   `json:"job"`
	Runs []SimRun `json:"runs"`
}

// SimRun is one run of a task on a machine (machine index in cluster
// order); Kind says how it ended: finished, killed, suspended, migrated,
// or running at the end of the simulation.
type SimRun struct {
	Task    int     `json:"task"`
	Stage   int     `json:"stage"`
	Machine int     `json:"machine"`
	Start   float64 `json:"start"`
	End     float64 `json:"end"`
	Kind    string  `json:"kind"`
}

// SimPolicy names a policy and its parameters.
type SimPolicy struct {
	Name   string            `json:"name"`
	Params map[string]string `json:"params,omitempty"`
}

// SimSummary aggregates a run (SIMULATE.md §4.2).
type SimSummary struct {
	// Makespan is last finish − first arrival.
	Makespan   float64 `json:"makespan"`
	AvgJCT     float64 `json:"avgJCT"`
	MedianJCT  float64 `json:"medianJCT"`
	P95JCT     float64 `json:"p95JCT"`
	Finished   int     `json:"finished"`
	Unfinished int     `json:"unfinished"`
	// Utilization is the mean allocation over capacity of each resource
	// over the makespan.
	Utilization map[string]float64 `json:"utilization"`
	// Jain is Jain's index over the users' time-averaged weighted dominant
	// shares, by window ("10s", "60s", "240s").
	Jain map[string]SimJain `json:"jain,omitempty"`
	// WastedWork is the task time lost to kills, in seconds.
	WastedWork float64 `json:"wastedWork"`
	Kills      int64   `json:"kills"`
	Suspends   int64   `json:"suspends"`
	Migrations int64   `json:"migrations"`
}

// SimJain summarises Jain's index over the windows of one length.
type SimJain struct {
	Mean    float64 `json:"mean"`
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
	Windows int     `json:"windows"`
}

// SimJob is one job's row (SIMULATE.md §4.1).
type SimJob struct {
	Name    string  `json:"name"`
	User    string  `json:"user"`
	Arrival float64 `json:"arrival"`
	// Start, Finish and JCT are null when the job never started or never
	// finished (before --until).
	Start  *float64 `json:"start"`
	Finish *float64 `json:"finish"`
	JCT    *float64 `json:"jct"`
	// LB is max(critical path, TWork on the cluster) of the actual
	// durations: no schedule finishes the job sooner.
	LB float64 `json:"lb"`
	// Alone is the job's JCT alone on the cluster under the same policy
	// and seed (--alone), and Slowdown = JCT/Alone.
	Alone    *float64 `json:"alone,omitempty"`
	Slowdown *float64 `json:"slowdown,omitempty"`
	Tasks    int      `json:"tasks"`
	Attempts int      `json:"attempts"`
	Kills    int      `json:"kills,omitempty"`
	// SizeBin is Choosy's bin of the job's lower bound: "<30s",
	// "30-120s", "120-600s" or ">600s" [SEED choosy Table 1].
	SizeBin string `json:"sizeBin"`
}

// SimCompare pairs a run with the baseline run job by job (SIMULATE.md
// §4.2): actual durations are identical across policies, so the pairs are
// exact.
type SimCompare struct {
	Baseline string  `json:"baseline"`
	PerJob   []SimFI `json:"perJob"`
	// FI quantiles of FI_j = JCT_j(baseline)/JCT_j(policy) (Carbyne eq. 1:
	// above 1 the policy is better).
	FI SimQuantiles `json:"fi"`
	// AvgJCTRatio = avgJCT(baseline)/avgJCT(policy); MakespanRatio alike.
	AvgJCTRatio   float64 `json:"avgJCTRatio"`
	MakespanRatio float64 `json:"makespanRatio"`
	// Slowed is the share of paired jobs with FI < 1, SlowedBelow0_8 with
	// FI < 0.8; MinFI the smallest FI.
	Slowed         float64 `json:"slowed"`
	SlowedBelow0_8 float64 `json:"slowedBelow0_8"`
	MinFI          float64 `json:"minFI"`
	// Gap quantiles of Graphene's (JCT_B − JCT_P)/JCT_B.
	Gap SimGap `json:"gap"`
	// Paired counts the jobs finished with a positive JCT in both runs.
	Paired int `json:"paired"`
}

// SimFI is one job's factor of improvement.
type SimFI struct {
	Name string  `json:"name"`
	FI   float64 `json:"fi"`
}

// SimQuantiles are FI quantiles and the mean.
type SimQuantiles struct {
	P25  float64 `json:"p25"`
	P50  float64 `json:"p50"`
	P75  float64 `json:"p75"`
	P95  float64 `json:"p95"`
	Mean float64 `json:"mean"`
}

// SimGap are gap quantiles.
type SimGap struct {
	P25 float64 `json:"p25"`
	P50 float64 `json:"p50"`
	P75 float64 `json:"p75"`
	P90 float64 `json:"p90"`
}

// SimSeries are time series, one point per Step seconds from Start, each
// the mean over its interval (the last may be partial).
type SimSeries struct {
	Start float64 `json:"start"`
	Step  float64 `json:"step"`
	// Utilization per resource: allocation over capacity.
	Utilization map[string][]float64 `json:"utilization"`
	// Running is the mean number of running tasks.
	Running []float64 `json:"running"`
	// Shares per user: dominant share.
	Shares map[string][]float64 `json:"shares,omitempty"`
}

// SimStats counts the work of a run; never wall times.
type SimStats struct {
	Events        int64 `json:"events"`
	Rounds        int64 `json:"rounds"`
	Placements    int64 `json:"placements"`
	Preemptions   int64 `json:"preemptions"`
	CacheHits     int64 `json:"cacheHits"`
	PeakLiveTasks int64 `json:"peakLiveTasks"`
	// Policy are the policy's own counters (CMMF solves, containers
	// borrowed, preemptions by type, carbyne's packs, graphene's offline
	// order builds, ...), by name.
	Policy map[string]int64 `json:"policy,omitempty"`
}

// Result returns run i of the set as a SimulationResult document with the
// set's header (kind SimulationResult).
func (s *SimulationSet) Result(i int) *SimulationResult {
	h := s.Header
	h.Kind = KindSimulationResult
	return &SimulationResult{Header: h, SimulationContext: s.SimulationContext, SimulationRun: s.Runs[i]}
}

// Validate checks a SimulationSet's consistency: header, runs with
// distinct policy names, finite numbers, jobs with JCT = finish − arrival.
func (s *SimulationSet) Validate() error {
	if s.APIVersion != APIVersion || s.Kind != KindSimulationSet {
		return fmt.Errorf("plan: simulation set has apiVersion %q kind %q", s.APIVersion, s.Kind)
	}
	if len(s.Runs) == 0 {
		return errors.New("plan: simulation set has no results")
	}
	seen := map[string]bool{}
	for i := range s.Runs {
		r := &s.Runs[i]
		if seen[r.Policy.Name] {
			return fmt.Errorf("plan: results[%d]: policy %q appears twice", i, r.Policy.Name)
		}
		seen[r.Policy.Name] = true
		if err := r.validate(); err != nil {
			return fmt.Errorf("plan: results[%d] (%s): %w", i, r.Policy.Name, err)
		}
	}
	if s.Baseline != "" && !seen[s.Baseline] {
		return fmt.Errorf("plan: baseline %q is not among the results", s.Baseline)
	}
	return nil
}

// Validate checks a SimulationResult like SimulationSet.Validate.
func (r *SimulationResult) Validate() error {
	if r.APIVersion != APIVersion || r.Kind != KindSimulationResult {
		return fmt.Errorf("plan: simulation result has apiVersion %q kind %q", r.APIVersion, r.Kind)
	}
	if err := r.SimulationRun.validate(); err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	return nil
}

// jctTol is the tolerance of JCT = finish − arrival in seconds (rounding
// of tick multiples).
const jctTol = 1e-6

func (r *SimulationRun) validate() error {
	if r.Policy.Name == "" {
		return errors.New("policy has no name")
	}
	finished := 0
	for k, j := range r.Jobs {
		if (j.Finish == nil) != (j.JCT == nil) {
			return fmt.Errorf("jobs[%d] (%s): finish and jct must both be set or null", k, j.Name)
		}
		if j.JCT != nil {
			finished++
			if math.Abs(*j.Finish-j.Arrival-*j.JCT) > jctTol*math.Max(1, *j.JCT) || *j.JCT < 0 {
				return fmt.Errorf("jobs[%d] (%s): jct %v ≠ finish %v − arrival %v", k, j.Name, *j.JCT, *j.Finish, j.Arrival)
			}
		}
	}
	if finished != r.Summary.Finished || len(r.Jobs)-finished != r.Summary.Unfinished {
		return fmt.Errorf("summary counts %d finished and %d unfinished, jobs give %d and %d",
			r.Summary.Finished, r.Summary.Unfinished, finished, len(r.Jobs)-finished)
	}
	for _, x := range []float64{r.Summary.Makespan, r.Summary.AvgJCT, r.Summary.MedianJCT, r.Summary.P95JCT} {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return fmt.Errorf("summary has a bad number %v", x)
		}
	}
	if r.Ownership != nil {
		return r.Ownership.validate()
	}
	return nil
}
