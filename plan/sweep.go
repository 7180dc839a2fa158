package plan

// KindSimulationSweep is the kind of the document `capplan sweep` (and
// `capplan merge` of its parts) writes.
const KindSimulationSweep = "SimulationSweep"

// SimulationSweep is the summary of a parameter sweep (SIMULATE.md §8):
// the sweep's axes, one row per cell (a simulator run, a pure function of
// its spec, named by the SHA-256 of that spec) with its summary and its
// pairing with the baseline, and the aggregates across seeds.
//
// It holds no wall time and no cell's per-job rows (those are in the cell
// files cells/<id>.json, each a SimulationResult), so a sweep run in one
// piece and the merge of any number of its shards give the same bytes.
type SimulationSweep struct {
	Header
	Sweep      SweepInfo        `json:"sweep"`
	Cells      []SweepCell      `json:"cells"`
	Aggregates []SweepAggregate `json:"aggregates"`
}

// SweepInfo describes the sweep: its digest, its axes in nesting order
// (the first axis varies slowest), the settings every cell shares, and the
// baseline policy.
type SweepInfo struct {
	// Digest is the SHA-256 of the cell ids in index order: two sweeps with
	// the same digest run the same cells.
	Digest string `json:"digest"`
	// Baseline is the policy every cell is paired with ("": none).
	Baseline string      `json:"baseline,omitempty"`
	Axes     []SweepAxis `json:"axes"`
	Cells    int         `json:"cells"`
	// Tick is the simulator tick in seconds; NoiseMode "mean" or
	// "median"; Until the time limit in seconds (0: none).
	Tick      float64 `json:"tick"`
	NoiseMode string  `json:"noiseMode"`
	Until     float64 `json:"until,omitempty"`
}

// SweepAxis is one axis of the sweep: its name ("workload", "policy",
// "seed", "load", "noise", "size", "altruism", or "POLICY.KEY" for a policy
// parameter) and its values as written.
type SweepAxis struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
}

// SweepCell is one simulator run of the sweep.
type SweepCell struct {
	// Index is the cell's place in the Cartesian product of the axes; ID
	// the SHA-256 of its canonical spec (the name of cells/<id>.json).
	Index int    `json:"index"`
	ID    string `json:"id"`
	// Workload is the workload's name in the sweep; Variant the policy
	// with the parameters the axes set ("tetris f=0.5").
	Workload string    `json:"workload"`
	Policy   SimPolicy `json:"policy"`
	Variant  string    `json:"variant"`
	Seed     int64     `json:"seed"`
	// Load is the offered load of Poisson arrivals (0: the workload's own
	// arrivals); Noise σ of the duration noise; Size the machines (0: the
	// workload's own).
	Load  float64 `json:"load"`
	Noise float64 `json:"noise"`
	Size  int     `json:"size,omitempty"`
	// Altruism is the altruism parameter the cell's policy was given
	// (absent when the sweep has no altruism axis or the policy takes
	// none).
	Altruism *float64   `json:"altruism,omitempty"`
	Jobs     int        `json:"jobs"`
	Tasks    int64      `json:"tasks"`
	Summary  SimSummary `json:"summary"`
	// Compare pairs the cell with the baseline cell of the same workload,
	// seed, load, noise and size (absent for the baseline's own cells and
	// without a baseline).
	Compare *SweepCompare `json:"compare,omitempty"`
}

// SweepCompare is a cell's paired comparison with its baseline cell:
// SimCompare (SIMULATE.md §4.2, Carbyne eq. 1) without the per-job list.
type SweepCompare struct {
	// Baseline is the index of the baseline cell.
	Baseline       int          `json:"baseline"`
	FI             SimQuantiles `json:"fi"`
	AvgJCTRatio    float64      `json:"avgJCTRatio"`
	MakespanRatio  float64      `json:"makespanRatio"`
	Slowed         float64      `json:"slowed"`
	SlowedBelow0_8 float64      `json:"slowedBelow0_8"`
	MinFI          float64      `json:"minFI"`
	Gap            SimGap       `json:"gap"`
	Paired         int          `json:"paired"`
}

// SweepAggregate summarises the cells that differ only in their seed: one
// group per workload, policy variant, load, noise and size, in the order
// of their first cell.
type SweepAggregate struct {
	Workload string  `json:"workload"`
	Variant  string  `json:"variant"`
	Load     float64 `json:"load"`
	Noise    float64 `json:"noise"`
	Size     int     `json:"size,omitempty"`
	// Cells are the indices of the group's cells, one per seed.
	Cells []int `json:"cells"`
	// Metrics are the statistics across seeds of each metric (SweepMetrics
	// names them).
	Metrics map[string]SweepStat `json:"metrics"`
}

// SweepStat is a metric across the seeds of a group: the number of values,
// their mean with the half-width of its 95% confidence interval (Student's
// t with n−1 degrees of freedom: t·s/√n; 0 for one value), the interval's
// ends, the sample standard deviation s, the median, the minimum and the
// maximum.
type SweepStat struct {
	N      int     `json:"n"`
	Mean   float64 `json:"mean"`
	CI95   float64 `json:"ci95"`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
	SD     float64 `json:"sd"`
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// SweepPartResult is the Result of a sweep's Part: the cells of the slice,
// each with its jobs' completion times for the pairing with the baseline
// at merge time.
type SweepPartResult struct {
	Sweep SweepInfo       `json:"sweep"`
	Cells []SweepPartCell `json:"cells"`
}

// SweepPartCell is a cell and its jobs' completion times.
type SweepPartCell struct {
	SweepCell
	// JCT lists each job's name and completion time (null when
	// unfinished), in the order of the cell's SimulationResult.
	JCT []SweepJobTime `json:"jct"`
}

// SweepJobTime is one job's completion time in a cell.
type SweepJobTime struct {
	Name string   `json:"name"`
	JCT  *float64 `json:"jct"`
}
