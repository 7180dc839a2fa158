package plan

import (
	"fmt"
	"math"
	"strconv"
)

// Kinds of the DAG documents.
const (
	KindDAGSchedule = "DAGSchedule"
	KindDAGBounds   = "DAGBounds"
	KindDAGCheck    = "DAGCheck"
)

// DAGSchedule is the document `capplan dag schedule` writes: one preferred
// schedule per job DAG, each with its lower bounds and its gap to the best
// of them. Every schedule in it has passed dag.Check.
//
// Times (makespan, bounds, start, end) are in seconds, or in PSPLIB
// periods for PSPLIB input: ticks × the job's unit.
type DAGSchedule struct {
	Header
	// Format of the input: "psplib", "workload" or "alibaba".
	Format string `json:"format"`
	// Method is the scheduler asked for ("best", "graphene", "cp", …).
	Method string `json:"method"`
	// Pooled is true when every job was scheduled on one machine holding
	// the summed capacity of the machines (fragmentation ignored).
	Pooled bool `json:"pooled,omitempty"`
	// Machines lists the machines in index order, as groups of identical
	// machines; a task's machine is an index into this list.
	Machines []DAGMachineGroup `json:"machines"`
	Summary  DAGSummary        `json:"summary"`
	// Jobs are in input order.
	Jobs []DAGJob `json:"jobs"`
	// Rejected lists the input's jobs that were not scheduled, and why.
	Rejected []DAGRejection `json:"rejected,omitempty"`
	// Search records the work budget and time limit of --method best.
	Search *Search `json:"search,omitempty"`
}

// DAGBounds is the document `capplan dag bounds` writes: the lower bounds
// of every job, without schedules.
type DAGBounds struct {
	Header
	Format   string            `json:"format"`
	Pooled   bool              `json:"pooled,omitempty"`
	Machines []DAGMachineGroup `json:"machines"`
	Jobs     []DAGJobInfo      `json:"jobs"`
	Rejected []DAGRejection    `json:"rejected,omitempty"`
}

// DAGCheck is the document `capplan dag check` writes: every violation of
// a given (observed or hand-made) schedule and the gap of its makespan to
// each lower bound.
type DAGCheck struct {
	Header
	Format   string            `json:"format"`
	Pooled   bool              `json:"pooled,omitempty"`
	Machines []DAGMachineGroup `json:"machines"`
	Summary  DAGCheckSummary   `json:"summary"`
	Jobs     []DAGCheckJob     `json:"jobs"`
}

// DAGMachineGroup is Count identical machines with indices First …
// First+Count−1.
type DAGMachineGroup struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
	First int    `json:"first"`
	// Capacity per resource in base units (PSPLIB: units of R1 … Rk).
	Capacity map[string]float64 `json:"capacity"`
	// Names are the machines' names when they are not Name-0 … Name-(Count−1)
	// (kubectl node lists).
	Names []string `json:"names,omitempty"`
}

// MachineName returns the name of machine i of the groups ("-" for −1, the
// machine of a zero-duration task that occupies none).
func MachineName(groups []DAGMachineGroup, i int) string {
	for _, g := range groups {
		if i >= g.First && i < g.First+g.Count {
			if g.Names != nil {
				return g.Names[i-g.First]
			}
			return g.Name + "-" + strconv.Itoa(i-g.First)
		}
	}
	return "-"
}

// DAGJobInfo describes one job DAG and its lower bounds.
type DAGJobInfo struct {
	Name      string   `json:"name"`
	NumTasks  int      `json:"numTasks"`
	Edges     int      `json:"edges"`
	Stages    int      `json:"stages"`
	Resources []string `json:"resources"`
	// Unit is the length of one tick in seconds (1 for PSPLIB periods):
	// every time of the job is a whole number of units.
	Unit   float64     `json:"unit"`
	Bounds DAGBoundSet `json:"bounds"`
	// ObservedSpan is the run time observed in a trace (Alibaba), and
	// ObservedGap its gap to the best bound.
	ObservedSpan *float64 `json:"observedSpan,omitempty"`
	ObservedGap  *float64 `json:"observedGap,omitempty"`
}

// DAGBoundSet are the lower bounds on a job's makespan (dag.Bounds), in
// seconds. Every one is at most the makespan of every feasible schedule.
type DAGBoundSet struct {
	// CPLength is the critical path (LB0).
	CPLength float64 `json:"cpLength"`
	// TWork is max over resources of Graphene's TWork (unrounded), and
	// TWorkByResource the value per resource.
	TWork           float64            `json:"tWork"`
	TWorkByResource map[string]float64 `json:"tWorkByResource"`
	// Energy is ⌈TWork⌉ in ticks (LB1).
	Energy float64 `json:"energy"`
	// NewLB is the stage-structure bound (with the cut bound).
	NewLB       float64 `json:"newLB"`
	NodePacking float64 `json:"nodePacking"`
	Bin         float64 `json:"bin"`
	// Best is the largest of the bounds, and BestBy the name of the first
	// bound (in the order of List) equal to it.
	Best   float64 `json:"best"`
	BestBy string  `json:"bestBy"`
	// List has every bound computed, the destructive ones (energetic,
	// stage, lp, search) included, in dag.BoundNames order.
	List []DAGBound `json:"list"`
}

// DAGBound is one lower bound with the cost of computing it.
type DAGBound struct {
	// Name is a dag.BoundNames name; Value is in seconds (PSPLIB periods).
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	// Work is the work units a destructive bound spent (deterministic).
	Work int64 `json:"work,omitempty"`
	// Seconds is the wall-clock time it took, present only when asked
	// for (--timings): it is the one field that depends on the machine.
	Seconds *float64 `json:"seconds,omitempty"`
}

// DAGCertificate is the one-line verdict on a makespan against the bounds:
// "optimal (proved by <bound>)" when it equals the best bound, else
// "gap <x%> to the <bound> bound".
func DAGCertificate(makespan float64, b DAGBoundSet) string {
	switch {
	case makespan == b.Best:
		return "optimal (proved by " + b.BestBy + ")"
	case makespan < b.Best:
		return fmt.Sprintf("infeasible: below the %s bound", b.BestBy)
	}
	g := 0.0
	if b.Best > 0 {
		g = makespan/b.Best - 1
	}
	return fmt.Sprintf("gap %.2f%% to the %s bound", 100*g, b.BestBy)
}

// BoundNames are the JSON names of the scalar bounds, in table order.
var BoundNames = []string{"cpLength", "tWork", "energy", "newLB", "nodePacking", "bin", "best"}

// Values returns the bounds in the order of BoundNames.
func (b DAGBoundSet) Values() []float64 {
	return []float64{b.CPLength, b.TWork, b.Energy, b.NewLB, b.NodePacking, b.Bin, b.Best}
}

// DAGJob is one job's schedule with its evidence.
type DAGJob struct {
	DAGJobInfo
	Makespan float64 `json:"makespan"`
	// Gap is Makespan/Bounds.Best − 1; Optimal is true when the makespan
	// equals the best bound.
	Gap     float64 `json:"gap"`
	Optimal bool    `json:"optimal"`
	// Method is the scheduler that produced the schedule (for "best", the
	// winner, such as "graphene" or "psgs-lft+fbi").
	Method string `json:"method"`
	// Certificate says "optimal (proved by <bound>)" when the makespan
	// equals a bound, else the gap to the best bound and its name.
	Certificate string `json:"certificate"`
	// Schedules counts the schedule generation passes spent ("best").
	Schedules int `json:"schedules,omitempty"`
	// WorkUsed is the work units best spent (its budget is the flags'
	// budget), and TimeLimitHit is true when the opt-in wall-clock limit
	// cut its search (the schedule then depends on machine speed).
	WorkUsed     int64 `json:"workUsed,omitempty"`
	TimeLimitHit bool  `json:"timeLimitHit,omitempty"`
	// MachinesMakespan, in pooled mode, is the same method's makespan on
	// the machines themselves; the difference is the cost of fragmentation.
	MachinesMakespan *float64 `json:"machinesMakespan,omitempty"`
	// Compare holds the makespan of each method asked for with --compare.
	Compare map[string]float64 `json:"compare,omitempty"`
	// Order lists the task IDs by start time (ties: end, then index): the
	// preferred order a runtime enforces.
	Order []string  `json:"order"`
	Tasks []DAGTask `json:"tasks"`
}

// DAGTask is one task's place in a schedule: machine index (−1 for a
// zero-duration task that occupies none) and interval [start, end).
type DAGTask struct {
	ID      string  `json:"id"`
	Start   float64 `json:"start"`
	End     float64 `json:"end"`
	Machine int     `json:"machine"`
}

// DAGRejection is an input job (or line) that was not scheduled.
type DAGRejection struct {
	Job    string `json:"job,omitempty"`
	Line   int    `json:"line,omitempty"`
	Reason string `json:"reason"`
}

// DAGSummary aggregates a DAGSchedule.
type DAGSummary struct {
	Jobs     int `json:"jobs"`
	Tasks    int `json:"tasks"`
	Rejected int `json:"rejected"`
	Optimal  int `json:"optimal"`
	// MeanGap and MaxGap are over the jobs' gaps to their best bounds.
	MeanGap float64 `json:"meanGap"`
	MaxGap  float64 `json:"maxGap"`
}

// DAGCheckJob is the verdict on one job's schedule.
type DAGCheckJob struct {
	DAGJobInfo
	Makespan float64 `json:"makespan"`
	// Gap is the gap to the best bound; Gaps the gap to each bound by the
	// names of BoundNames (0 when a bound is 0).
	Gap  float64            `json:"gap"`
	Gaps map[string]float64 `json:"gaps"`
	// Certificate is the verdict against the best bound (see
	// DAGCertificate): "optimal (proved by <bound>)" or "gap <x%> to the
	// <bound> bound"; "infeasible (<n> violations)" when the schedule
	// breaks a constraint.
	Certificate string         `json:"certificate"`
	Feasible    bool           `json:"feasible"`
	Violations  []DAGViolation `json:"violations"`
}

// DAGViolation is one broken constraint (dag.Violation), times in seconds.
type DAGViolation struct {
	// Kind is "precedence", "capacity", "duration" or "machine".
	Kind string `json:"kind"`
	Task string `json:"task"`
	// Pred is the latest-ending predecessor Task overlaps (precedence).
	Pred string `json:"pred,omitempty"`
	// Machine is the machine index (capacity, machine), else −1.
	Machine int `json:"machine"`
	// Time and Until: Task's start and the predecessor's end
	// (precedence), the overloaded interval (capacity), or Task's
	// interval (duration).
	Time  float64 `json:"time"`
	Until float64 `json:"until"`
	// Resource, peak Used and Capacity (capacity).
	Resource string  `json:"resource,omitempty"`
	Used     float64 `json:"used,omitempty"`
	Capacity float64 `json:"capacity,omitempty"`
	// Message says it in one line.
	Message string `json:"message"`
}

// DAGCheckSummary aggregates a DAGCheck.
type DAGCheckSummary struct {
	Jobs       int `json:"jobs"`
	Tasks      int `json:"tasks"`
	Feasible   int `json:"feasible"`
	Violations int `json:"violations"`
}

// Summarize fills doc.Summary from its jobs and rejections.
func (doc *DAGSchedule) Summarize() {
	s := DAGSummary{Jobs: len(doc.Jobs), Rejected: len(doc.Rejected)}
	for _, j := range doc.Jobs {
		s.Tasks += j.NumTasks
		if j.Optimal {
			s.Optimal++
		}
		s.MeanGap += j.Gap
		s.MaxGap = math.Max(s.MaxGap, j.Gap)
	}
	if s.Jobs > 0 {
		s.MeanGap /= float64(s.Jobs)
	}
	doc.Summary = s
	if doc.Search != nil { // best's work: the jobs' sum
		doc.Search.WorkUsed = 0
		for _, j := range doc.Jobs {
			doc.Search.WorkUsed += j.WorkUsed
		}
	}
}

// Summarize fills doc.Summary from its jobs.
func (doc *DAGCheck) Summarize() {
	s := DAGCheckSummary{Jobs: len(doc.Jobs)}
	for _, j := range doc.Jobs {
		s.Tasks += j.NumTasks
		s.Violations += len(j.Violations)
		if j.Feasible {
			s.Feasible++
		}
	}
	doc.Summary = s
}
