package pipeline

import (
	"math"
	"slices"
	"strings"

	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/sim"
)

// isComparator reports whether a policy is one of Choosy's CMMF
// comparators, against which the other runs' allocations are measured.
func isComparator(name string) bool { return strings.HasPrefix(name, "cmmf-") }

// shareSampler records, every second of simulated time, the users'
// dominant shares in % of the cluster (slots in slot mode), sorted in
// decreasing order without the zeros: Choosy's allocation vectors
// [SEED choosy §7.1]. The value at time t is the allocation after every
// event at t.
type shareSampler struct {
	sim.NopObserver
	period  sim.Tick
	next    sim.Tick
	cur     []float64
	samples [][]float32
	buf     []float64
}

func newShareSampler(users int, tickSeconds float64) *shareSampler {
	return &shareSampler{period: max(1, sim.Tick(math.Round(1/tickSeconds))), cur: make([]float64, users)}
}

// flush takes the samples due strictly before now.
func (o *shareSampler) flush(now sim.Tick) {
	for o.next < now {
		o.buf = o.buf[:0]
		for _, x := range o.cur {
			if x > 0 {
				o.buf = append(o.buf, x)
			}
		}
		slices.Sort(o.buf)
		v := make([]float32, len(o.buf))
		for i, x := range o.buf {
			v[len(v)-1-i] = float32(x)
		}
		o.samples = append(o.samples, v)
		o.next += o.period
	}
}

func (o *shareSampler) update(s *sim.State, t sim.TaskRef) {
	o.flush(s.Now())
	u := s.Job(t.Job).User()
	o.cur[u] = 100 * s.Dom(s.User(u).Usage())
}

// TaskStarted implements sim.Observer.
func (o *shareSampler) TaskStarted(s *sim.State, t sim.TaskRef, _ sim.MachineID) { o.update(s, t) }

// TaskEnded implements sim.Observer.
func (o *shareSampler) TaskEnded(s *sim.State, t sim.TaskRef, _ sim.MachineID, _ sim.EndKind) {
	o.update(s, t)
}

// shareRMSE compares two runs' samples: per second, the RMSE of the
// sorted vectors zero-padded to equal length; seconds where both are empty
// are skipped.
func shareRMSE(a, b [][]float32) []float64 {
	var out []float64
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y []float32
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		n := max(len(x), len(y))
		if n == 0 {
			continue
		}
		var sq float64
		for k := 0; k < n; k++ {
			var c, o float64
			if k < len(x) {
				c = float64(x[k])
			}
			if k < len(y) {
				o = float64(y[k])
			}
			sq += (c - o) * (c - o)
		}
		out = append(out, math.Sqrt(sq/float64(n)))
	}
	return out
}

// shareFit builds the comparison of run with comparator cmp.
func shareFit(cmpName string, run, cmp *plan.SimulationRun, a, b [][]float32) plan.SimShareFit {
	f := plan.SimShareFit{Comparator: cmpName}
	rm := shareRMSE(a, b)
	f.Samples = len(rm)
	f.Mean = plan.Mean(rm)
	for q := 0; q <= 100; q += 5 {
		f.CDF = append(f.CDF, plan.SimCDFPoint{Value: plan.Quantile(rm, float64(q)/100), Fraction: float64(q) / 100})
	}
	if cmp.Summary.AvgJCT > 0 {
		f.AvgJCTRatio = run.Summary.AvgJCT / cmp.Summary.AvgJCT
	}
	byName := map[string]float64{}
	for _, j := range cmp.Jobs {
		if j.JCT != nil && *j.JCT > 0 {
			byName[j.Name] = *j.JCT
		}
	}
	bins := []string{"<30s", "30-120s", "120-600s", ">600s"}
	sd := make([][]float64, len(bins))
	for _, j := range run.Jobs {
		c, ok := byName[j.Name]
		if !ok || j.JCT == nil {
			continue
		}
		k := slices.Index(bins, plan.SizeBin(c))
		sd[k] = append(sd[k], *j.JCT/c)
	}
	for k, xs := range sd {
		if len(xs) == 0 {
			continue
		}
		m := plan.Mean(xs)
		var v float64
		for _, x := range xs {
			v += (x - m) * (x - m)
		}
		f.Slowdown = append(f.Slowdown, plan.SimSlowdownBin{Bin: bins[k], Jobs: len(xs), Mean: m, SD: math.Sqrt(v / float64(len(xs)))})
	}
	return f
}

// eligibilityProbe records the fraction of machines each job may use.
type eligibilityProbe struct {
	sim.NopObserver
	frac map[string]float64
}

// JobArrived implements sim.Observer.
func (o *eligibilityProbe) JobArrived(s *sim.State, j sim.JobID) {
	jv := s.Job(j)
	n := 0
	for _, c := range jv.Eligible().List() {
		n += len(s.Classes()[c].Machines)
	}
	if o.frac == nil {
		o.frac = map[string]float64{}
	}
	o.frac[jv.Name()] = float64(n) / float64(s.NumMachines())
}

// constraints summarises the probe for a run, or nil when no job was
// constrained.
func (o *eligibilityProbe) constraints(run *plan.SimulationRun) *plan.SimConstraints {
	c := &plan.SimConstraints{}
	var jcts []float64
	n := 0
	for _, j := range run.Jobs {
		f, ok := o.frac[j.Name]
		if !ok {
			continue
		}
		n++
		c.EligibleMean += f
		if f < 0.2 {
			c.Under20++
		}
		if f < 0.1 {
			c.Under10++
		}
		if f < 1 {
			c.Constrained++
			if j.JCT != nil {
				jcts = append(jcts, *j.JCT)
			}
		}
	}
	if c.Constrained == 0 {
		return nil
	}
	c.EligibleMean /= float64(n)
	c.Under20 /= float64(n)
	c.Under10 /= float64(n)
	c.AvgJCT = plan.Mean(jcts)
	return c
}
