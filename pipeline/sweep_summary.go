package pipeline

import (
	"maps"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/capplan/capplan/plan"
)

// buildSweepDoc builds the SimulationSweep document from the records of
// every cell, in index order: the one function both an unsharded sweep and
// Merge call, so that their documents are the same bytes.
//
//   - Each cell is paired with the baseline cell of the same workload,
//     seed, load, noise and size (SIMULATE.md §8): plan.Compare over the
//     jobs' completion times, exactly as `capplan simulate --baseline`
//     pairs runs.
//   - Cells that differ only in their seed form a group, and each metric
//     of a group gets its mean with a 95% confidence interval, median,
//     minimum and maximum across the seeds (sweepStat).
func buildSweepDoc(h plan.Header, r plan.SweepPartResult) *plan.SimulationSweep {
	doc := &plan.SimulationSweep{Header: h, Sweep: r.Sweep, Cells: make([]plan.SweepCell, len(r.Cells))}
	for i := range r.Cells {
		doc.Cells[i] = r.Cells[i].SweepCell
	}
	if b := r.Sweep.Baseline; b != "" {
		type pairKey struct {
			workload    string
			seed        int64
			load, noise float64
			size        int
		}
		key := func(c *plan.SweepCell) pairKey { return pairKey{c.Workload, c.Seed, c.Load, c.Noise, c.Size} }
		base := map[pairKey]int{}
		for i := range doc.Cells {
			if c := &doc.Cells[i]; c.Policy.Name == b {
				base[key(c)] = i
			}
		}
		for i := range doc.Cells {
			c := &doc.Cells[i]
			if j, ok := base[key(c)]; ok && c.Policy.Name != b {
				c.Compare = sweepCompare(b, j, &r.Cells[j], &r.Cells[i])
			}
		}
	}
	doc.Aggregates = sweepAggregates(doc.Cells)
	return doc
}

// sweepCompare pairs a cell with its baseline cell (index b) job by job.
func sweepCompare(baseline string, b int, base, cell *plan.SweepPartCell) *plan.SweepCompare {
	run := func(c *plan.SweepPartCell) *plan.SimulationRun {
		r := &plan.SimulationRun{Summary: c.Summary, Jobs: make([]plan.SimJob, len(c.JCT))}
		for i, j := range c.JCT {
			r.Jobs[i] = plan.SimJob{Name: j.Name, JCT: j.JCT}
		}
		return r
	}
	sc := plan.Compare(baseline, run(base), run(cell))
	return &plan.SweepCompare{Baseline: b, FI: sc.FI, AvgJCTRatio: sc.AvgJCTRatio, MakespanRatio: sc.MakespanRatio,
		Slowed: sc.Slowed, SlowedBelow0_8: sc.SlowedBelow0_8, MinFI: sc.MinFI, Gap: sc.Gap, Paired: sc.Paired}
}

// sweepMetric names a metric of a cell and reads it (ok false when the
// cell has none, e.g. no comparison for the baseline's own cells).
type sweepMetric struct {
	name string
	of   func(c *plan.SweepCell) (float64, bool)
}

// sweepMetrics are the metrics aggregated across seeds: the run's
// summary (SIMULATE.md §4.2) and its comparison with the baseline.
// Utilisation per resource is added by resource name ("utilization.cpu").
var sweepMetrics = []sweepMetric{
	{"avgJCT", func(c *plan.SweepCell) (float64, bool) { return c.Summary.AvgJCT, true }},
	{"medianJCT", func(c *plan.SweepCell) (float64, bool) { return c.Summary.MedianJCT, true }},
	{"p95JCT", func(c *plan.SweepCell) (float64, bool) { return c.Summary.P95JCT, true }},
	{"makespan", func(c *plan.SweepCell) (float64, bool) { return c.Summary.Makespan, true }},
	{"finished", func(c *plan.SweepCell) (float64, bool) { return float64(c.Summary.Finished), true }},
	{"wastedWork", func(c *plan.SweepCell) (float64, bool) { return c.Summary.WastedWork, true }},
	{"jain60s", func(c *plan.SweepCell) (float64, bool) {
		j, ok := c.Summary.Jain["60s"]
		return j.Mean, ok
	}},
	{"fi.mean", compareMetric(func(x *plan.SweepCompare) float64 { return x.FI.Mean })},
	{"fi.p50", compareMetric(func(x *plan.SweepCompare) float64 { return x.FI.P50 })},
	{"fi.p95", compareMetric(func(x *plan.SweepCompare) float64 { return x.FI.P95 })},
	{"avgJCTRatio", compareMetric(func(x *plan.SweepCompare) float64 { return x.AvgJCTRatio })},
	{"makespanRatio", compareMetric(func(x *plan.SweepCompare) float64 { return x.MakespanRatio })},
	{"slowed", compareMetric(func(x *plan.SweepCompare) float64 { return x.Slowed })},
	{"minFI", compareMetric(func(x *plan.SweepCompare) float64 { return x.MinFI })},
}

func compareMetric(f func(*plan.SweepCompare) float64) func(*plan.SweepCell) (float64, bool) {
	return func(c *plan.SweepCell) (float64, bool) {
		if c.Compare == nil || c.Compare.Paired == 0 {
			return 0, false
		}
		return f(c.Compare), true
	}
}

// sweepAggregates groups the cells that differ only in their seed, in the
// order of each group's first cell, and aggregates every metric.
func sweepAggregates(cells []plan.SweepCell) []plan.SweepAggregate {
	type groupKey struct {
		workload, variant string
		load, noise       float64
		size              int
	}
	at := map[groupKey]int{}
	out := []plan.SweepAggregate{}
	for i := range cells {
		c := &cells[i]
		k := groupKey{c.Workload, c.Variant, c.Load, c.Noise, c.Size}
		g, ok := at[k]
		if !ok {
			g = len(out)
			at[k] = g
			out = append(out, plan.SweepAggregate{Workload: c.Workload, Variant: c.Variant, Load: c.Load, Noise: c.Noise, Size: c.Size})
		}
		out[g].Cells = append(out[g].Cells, c.Index)
	}
	for g := range out {
		a := &out[g]
		a.Metrics = map[string]plan.SweepStat{}
		metrics := slices.Clone(sweepMetrics)
		for _, res := range slices.Sorted(maps.Keys(cells[a.Cells[0]].Summary.Utilization)) {
			metrics = append(metrics, sweepMetric{"utilization." + res, func(c *plan.SweepCell) (float64, bool) {
				u, ok := c.Summary.Utilization[res]
				return u, ok
			}})
		}
		for _, m := range metrics {
			var xs []float64
			for _, i := range a.Cells {
				if x, ok := m.of(&cells[i]); ok {
					xs = append(xs, x)
				}
			}
			if len(xs) > 0 {
				a.Metrics[m.name] = sweepStat(xs)
			}
		}
	}
	return out
}

// ciLevel is the two-sided confidence level of SweepStat's interval.
const ciLevel = 0.95

// sweepStat returns the statistics of xs (in order; not modified): the
// mean x̄ (summed in order), the sample standard deviation s (n−1 in the
// denominator), the half-width t·s/√n of the 95% confidence interval of
// the mean with t the 0.975 quantile of Student's t with n−1 degrees of
// freedom (the seeds are independent draws of the same cell), the median
// (plan.Quantile), the minimum and the maximum. One value has no interval
// (half-width 0).
func sweepStat(xs []float64) plan.SweepStat {
	n := len(xs)
	st := plan.SweepStat{N: n, Mean: plan.Mean(xs), Min: slices.Min(xs), Max: slices.Max(xs)}
	st.Median = plan.Quantile(slices.Clone(xs), 0.5)
	if n > 1 {
		var ss float64
		for _, x := range xs {
			d := x - st.Mean
			ss += d * d
		}
		st.SD = math.Sqrt(ss / float64(n-1))
		t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(1 - (1-ciLevel)/2)
		st.CI95 = t * st.SD / math.Sqrt(float64(n))
	}
	st.Low, st.High = st.Mean-st.CI95, st.Mean+st.CI95
	return st
}
