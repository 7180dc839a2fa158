package dag_test

// Tests and benchmarks on the shared public datasets (PSPLIB J30/J60, the
// Alibaba v2018 sample), read through datasets/dags: they live in the
// external test package because datasets/dags imports dag.

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/internal/par"
	"github.com/capplan/capplan/internal/testdatasets"
)

// checked names an instance for mustCheckExt.
type checked struct {
	name     string
	d        *dag.DAG
	machines [][]float64
}

func mustCheckExt(tb testing.TB, what string, in checked, s *dag.Schedule) {
	tb.Helper()
	dag.MustCheck(tb, what, in.name, in.d, in.machines, s)
}

// psplibInstance pairs a parsed instance with its reference values.
type psplibInstance struct {
	Key  dags.PSPLIBKey
	Inst *dags.PSPLIB
	// Ref is the optimum (J30) or best known makespan (J60).
	Ref int64
}

var (
	psplibOnce  = map[string]*sync.Once{"j30": {}, "j60": {}}
	psplibCache = map[string][]psplibInstance{}
	psplibErr   = map[string]error{}
)

// loadPSPLIB parses every instance of set ("j30" or "j60") with its
// reference makespan from refFile, once per test binary.
func loadPSPLIB(tb testing.TB, set, refFile string) []psplibInstance {
	tb.Helper()
	dir := testdatasets.Need(tb, filepath.Join("psplib", set))
	psplibOnce[set].Do(func() {
		f, err := os.Open(filepath.Join(dir, refFile))
		if err != nil {
			psplibErr[set] = err
			return
		}
		defer f.Close()
		ref, err := dags.ParsePSPLIBTable(refFile, f)
		if err != nil {
			psplibErr[set] = err
			return
		}
		for p := 1; p <= 48; p++ {
			for i := 1; i <= 10; i++ {
				name := fmt.Sprintf("%s%d_%d.sm", set, p, i)
				g, err := os.Open(filepath.Join(dir, name))
				if err != nil {
					psplibErr[set] = err
					return
				}
				inst, err := dags.ParsePSPLIB(name, g)
				g.Close()
				if err != nil {
					psplibErr[set] = err
					return
				}
				k := dags.PSPLIBKey{P: p, I: i}
				psplibCache[set] = append(psplibCache[set], psplibInstance{Key: k, Inst: inst, Ref: ref[k][0]})
			}
		}
	})
	if err := psplibErr[set]; err != nil {
		tb.Fatal(err)
	}
	return psplibCache[set]
}

// psplibStats summarises one method over a dags.PSPLIB set.
type psplibStats struct {
	sumDev   float64 // Σ (makespan − ref)/ref
	sumDevCP float64 // Σ (makespan − cp)/cp
	optimal  int     // makespan ≤ ref
	n        int
	elapsed  time.Duration
}

func (s *psplibStats) add(ms, ref, cp int64, took time.Duration) {
	s.n++
	s.sumDev += float64(ms-ref) / float64(ref)
	s.sumDevCP += float64(ms-cp) / float64(cp)
	if ms <= ref {
		s.optimal++
	}
	s.elapsed += took
}

func (s psplibStats) String() string {
	return fmt.Sprintf("dev-ref %6.2f%%  dev-cp %6.2f%%  at-ref %3d/%d  %7.3f ms/inst", 100*s.sumDev/float64(s.n),
		100*s.sumDevCP/float64(s.n), s.optimal, s.n, float64(s.elapsed.Microseconds())/1000/float64(s.n))
}

// j60LowerBounds reads the published J60 lower bounds (410 rows).
func j60LowerBounds(t testing.TB) map[dags.PSPLIBKey][]int64 {
	p := testdatasets.Need(t, filepath.Join("psplib", "j60", "j60lb.sm"))
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lb, err := dags.ParsePSPLIBTable("j60lb.sm", f)
	if err != nil {
		t.Fatal(err)
	}
	if len(lb) != 410 {
		t.Fatalf("j60lb.sm: %d rows, want 410", len(lb))
	}
	return lb
}

// TestPSPLIBBaselines runs every single-pass method on all 480 J30
// instances, and dag.Graphene and CP on all 480 J60 instances: every schedule
// passes the checker, none beats the proven J30 optimum, and none beats a
// published J60 lower bound. It logs per method the mean deviation from
// the reference (J30 optimum, J60 best known) and from the critical path.
// BenchmarkPSPLIBMethods logs the J60 table for every method.
func TestPSPLIBBaselines(t *testing.T) {
	psplibMethods(t, map[string][]string{"j30": dag.Methods(), "j60": {"graphene", "cp"}})
}

// BenchmarkPSPLIBMethods logs the single-pass table of every method on
// J30 and J60 (go test -run '^$' -bench PSPLIBMethods -benchtime 1x -v).
func BenchmarkPSPLIBMethods(b *testing.B) {
	for i := 0; i < b.N; i++ {
		psplibMethods(b, map[string][]string{"j30": dag.Methods(), "j60": dag.Methods()})
	}
}

func psplibMethods(t testing.TB, which map[string][]string) {
	lb60 := j60LowerBounds(t)
	for _, set := range []struct{ name, ref string }{{"j30", "j30opt.sm"}, {"j60", "j60hrs.sm"}} {
		stats := map[string]*psplibStats{}
		for _, in := range loadPSPLIB(t, set.name, set.ref) {
			inst := checked{fmt.Sprint(in.Key), in.Inst.DAG, in.Inst.Machines()}
			floor := in.Ref // J30: the optimum
			if set.name == "j60" {
				floor = in.Inst.MPM
				if v, ok := lb60[in.Key]; ok {
					floor = v[1]
				}
			}
			for _, name := range which[set.name] {
				t0 := time.Now()
				s, err := dag.Run(name, inst.d, inst.machines, dag.Options{Seed: 1})
				took := time.Since(t0)
				if err != nil {
					t.Fatal(err)
				}
				mustCheckExt(t, name, inst, s)
				if ms := s.Makespan(); ms < floor {
					t.Fatalf("%s on %s %v: makespan %d below the lower bound %d", name, set.name, in.Key, ms, floor)
				}
				if stats[name] == nil {
					stats[name] = &psplibStats{}
				}
				stats[name].add(s.Makespan(), in.Ref, in.Inst.MPM, took)
			}
		}
		var lines []string
		for name, st := range stats {
			lines = append(lines, fmt.Sprintf("%-10s %v", name, st))
		}
		sort.Strings(lines)
		t.Logf("%s single pass:\n%s", set.name, strings.Join(lines, "\n"))
	}
}

// TestBestPSPLIB runs dag.Best with a small budget on all 480 J30 instances:
// every schedule passes the checker and none beats the proven optimum.
// DAG_J30_WORK overrides the budget (e.g. 0 for the default, as in the
// reported figures).
func TestBestPSPLIB(t *testing.T) {
	work := int64(30_000)
	if v, err := strconv.ParseInt(os.Getenv("DAG_J30_WORK"), 10, 64); err == nil {
		work = v
	}
	insts := loadPSPLIB(t, "j30", "j30opt.sm")
	var st psplibStats
	var worst time.Duration
	var lbDev float64
	proved := 0
	for _, in := range insts {
		inst := checked{fmt.Sprint(in.Key), in.Inst.DAG, in.Inst.Machines()}
		t0 := time.Now()
		r, err := dag.Best(inst.d, inst.machines, dag.Options{Seed: 1, MaxWork: work})
		took := time.Since(t0)
		worst = max(worst, took)
		if err != nil {
			t.Fatal(err)
		}
		mustCheckExt(t, "best", inst, r.Schedule)
		if r.Makespan < in.Ref || r.Bounds.Best > in.Ref {
			t.Fatalf("j30 %v: makespan %d, bound %d, optimum %d", in.Key, r.Makespan, r.Bounds.Best, in.Ref)
		}
		if r.Optimal != (r.Makespan == in.Ref && r.Bounds.Best == in.Ref) {
			t.Fatalf("j30 %v: Optimal %v with makespan %d, bound %d", in.Key, r.Optimal, r.Makespan, r.Bounds.Best)
		}
		st.add(r.Makespan, in.Ref, in.Inst.MPM, took)
		lbDev += float64(in.Ref-r.Bounds.Best) / float64(in.Ref)
		if r.Optimal {
			proved++
		}
	}
	t.Logf("J30 best (work %d): %v, worst %v; bound %.3f%% below the optimum on average, proved optimal %d/480",
		work, st, worst, 100*lbDev/float64(len(insts)), proved)
}

// TestBoundsPSPLIB asserts every bound ≤ the proven optimum on all 480 J30
// instances and ≤ the best known makespan on all 480 J60 instances.
func TestBoundsPSPLIB(t *testing.T) {
	for _, set := range []struct{ name, ref string }{{"j30", "j30opt.sm"}, {"j60", "j60hrs.sm"}} {
		tight, above := 0, 0
		for _, in := range loadPSPLIB(t, set.name, set.ref) {
			b := dag.LowerBounds(in.Inst.DAG, in.Inst.Machines())
			for name, v := range map[string]int64{"cp": b.CP, "energy": b.Energy, "newlb": b.NewLB, "packing": b.NodePacking, "bin": b.Bin} {
				if v > in.Ref {
					t.Errorf("%s %v: %s bound %d > reference %d", set.name, in.Key, name, v, in.Ref)
				}
			}
			if b.Best == in.Ref {
				tight++
			}
			if b.Best > b.CP {
				above++
			}
		}
		t.Logf("%s: best bound equals the reference on %d/480, beats the critical path on %d", set.name, tight, above)
	}
}

// TestAlibabaSchedules schedules the accepted jobs of the Alibaba sample
// with up to 300 tasks on 20 Alibaba machines with dag.Graphene: every
// schedule passes the checker and is not below the bounds.
func TestAlibabaSchedules(t *testing.T) {
	p := testdatasets.Need(t, "alibaba-v2018/batch_task_dag_sample_hliangzhao.csv")
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := dags.ParseAlibaba("sample", f, dags.AlibabaOptions{MaxTasks: 300, MaxEdges: 20_000})
	if err != nil {
		t.Fatal(err)
	}
	ms := make([][]float64, 20)
	for i := range ms {
		ms[i] = dags.AlibabaMachine
	}
	var gapSum float64
	for _, j := range tr.Jobs {
		s, err := dag.Graphene(j.DAG, ms, dag.Options{MaxCandidates: 4})
		if err != nil {
			t.Fatal(err)
		}
		a := dag.Assess(j.DAG, ms, s)
		if len(a.Violations) > 0 || a.Makespan < a.Bounds.Best {
			t.Fatalf("%s: %d violations, makespan %d, bound %d", j.Name, len(a.Violations), a.Makespan, a.Bounds.Best)
		}
		gapSum += a.Gap
	}
	t.Logf("%d jobs, mean gap of dag.Graphene to the best bound %.2f%%", len(tr.Jobs), 100*gapSum/float64(len(tr.Jobs)))
}

// BenchmarkPSPLIB runs dag.Best with the default budget on every instance of
// J30 and J60 (skipped without the shared datasets) and reports, per
// instance, the mean deviation from the reference makespan (the proven
// optimum for J30, the best known for J60) and from the critical path,
// and the share of instances at the reference. One iteration covers all
// 480 instances of a set.
//
//	go test -run '^$' -bench dags.PSPLIB -benchtime 1x ./dag/
func BenchmarkPSPLIB(b *testing.B) {
	for _, set := range []struct{ name, ref string }{{"j30", "j30opt.sm"}, {"j60", "j60hrs.sm"}} {
		b.Run(set.name, func(b *testing.B) {
			insts := loadPSPLIB(b, set.name, set.ref)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var devRef, devCP float64
				atRef := 0
				var worst time.Duration
				for _, in := range insts {
					t0 := time.Now()
					r, err := dag.Best(in.Inst.DAG, in.Inst.Machines(), dag.Options{Seed: 1})
					worst = max(worst, time.Since(t0))
					if err != nil {
						b.Fatal(err)
					}
					devRef += float64(r.Makespan-in.Ref) / float64(in.Ref)
					devCP += float64(r.Makespan-in.Inst.MPM) / float64(in.Inst.MPM)
					if r.Makespan <= in.Ref {
						atRef++
					}
				}
				n := float64(len(insts))
				b.ReportMetric(100*devRef/n, "%dev-ref")
				b.ReportMetric(100*devCP/n, "%dev-cp")
				b.ReportMetric(100*float64(atRef)/n, "%at-ref")
				b.ReportMetric(float64(worst.Milliseconds()), "worst-ms")
			}
		})
	}
}

// TestPSPLIBFiles parses every J30 and J60 instance and checks the critical
// path against the file's MPM-Time (an independent truth).
func TestPSPLIBFiles(t *testing.T) {
	for _, set := range []struct{ name, ref string }{{"j30", "j30opt.sm"}, {"j60", "j60hrs.sm"}} {
		insts := loadPSPLIB(t, set.name, set.ref)
		if len(insts) != 480 {
			t.Fatalf("%s: %d instances", set.name, len(insts))
		}
		for _, in := range insts {
			if cp := dag.CPLength(in.Inst.DAG); cp != in.Inst.MPM {
				t.Errorf("%s %v: dag.CPLength %d, MPM-Time %d", set.name, in.Key, cp, in.Inst.MPM)
			}
			if in.Ref < in.Inst.MPM {
				t.Errorf("%s %v: reference %d below MPM %d", set.name, in.Key, in.Ref, in.Inst.MPM)
			}
		}
	}
}

// TestAllBoundsJ30 asserts that every bound of dag.AllBounds, the
// destructive ones included, is ≤ the proven optimum on all 480 J30
// instances. No schedule is given (the ceiling is the sum of durations),
// so a bound above the optimum cannot be hidden by a cap at a known
// makespan. The LP test also runs alone from the cheap bounds (AllBounds
// skips it where the search closed the gap first). The work cap per
// instance (DAG_J30_BOUND_WORK, default 1,000,000 units, a quarter of it
// for the LP alone) keeps the run short; the instances run on all cores.
// It logs the mean deviation of the best bound from the optimum and the
// instances where it is tight.
func TestAllBoundsJ30(t *testing.T) {
	if testing.Short() {
		t.Skip("480 instances with the destructive bounds")
	}
	work := boundWork("DAG_J30_BOUND_WORK")
	insts := loadPSPLIB(t, "j30", "j30opt.sm")
	lp := make([]int64, len(insts))
	all := allBoundsOf(t, insts, work, func(i int, d *dag.DAG, ms [][]float64) {
		// The LP test alone from the cheap bounds: AllBounds skips it
		// where the search already closed the gap.
		lp[i], _ = dag.LPClimbForTest(d, ms, dag.LowerBounds(d, ms).Best, d.TotalDuration(), work/4)
	})
	tight := 0
	var dev float64
	byName := map[string]int{}
	for i, in := range insts {
		b := all[i]
		for _, name := range dag.BoundNames {
			if v := b.Value(name); v > in.Ref {
				t.Errorf("j30 %v: %s bound %d > optimum %d", in.Key, name, v, in.Ref)
			}
		}
		if lp[i] > in.Ref {
			t.Errorf("j30 %v: LP bound alone %d > optimum %d", in.Key, lp[i], in.Ref)
		}
		if b.Best != b.Value(b.BestBy) {
			t.Errorf("j30 %v: best %d named %s of value %d", in.Key, b.Best, b.BestBy, b.Value(b.BestBy))
		}
		if b.Best == in.Ref {
			tight++
			byName[b.BestBy]++
		}
		dev += float64(in.Ref-b.Best) / float64(in.Ref)
	}
	t.Logf("J30 AllBounds (work %d): mean deviation from the optimum %.3f%%, tight on %d/480 (by %v)",
		work, 100*dev/float64(len(insts)), tight, byName)
}

// TestAllBoundsJ60 checks every bound of AllBounds (at 1M work units per
// instance, DAG_J60_BOUND_WORK to change) on all 480 J60 instances
// against the best known makespans of j60hrs.sm, feasible schedules and
// so upper limits on any sound bound; it logs how many reach the
// published lower bound (j60lb.sm).
func TestAllBoundsJ60(t *testing.T) {
	if testing.Short() {
		t.Skip("480 instances with the destructive bounds")
	}
	work := boundWork("DAG_J60_BOUND_WORK")
	insts := loadPSPLIB(t, "j60", "j60hrs.sm")
	pub := j60LowerBounds(t)
	all := allBoundsOf(t, insts, work, nil)
	reached := 0
	for i, in := range insts {
		for _, name := range dag.BoundNames {
			if v := all[i].Value(name); v > in.Ref {
				t.Errorf("j60 %v: %s bound %d > best known makespan %d", in.Key, name, v, in.Ref)
			}
		}
		if lb, ok := pub[in.Key]; ok && len(lb) >= 2 && all[i].Best >= lb[1] {
			reached++
		}
	}
	t.Logf("J60 AllBounds (work %d): best bound ≥ the published lower bound on %d/%d", work, reached, len(pub))
}

// boundWork is the work cap per instance of the all-bounds tests:
// 1,000,000 units, or the value of the environment variable env.
func boundWork(env string) int64 {
	if v, err := strconv.ParseInt(os.Getenv(env), 10, 64); err == nil {
		return v
	}
	return 1_000_000
}

// allBoundsOf runs dag.AllBounds with the sum of durations as the only
// ceiling on every instance, on all cores, and returns the bounds in
// instance order; also, when set, is called beside each (from several
// goroutines, on distinct indices).
func allBoundsOf(t *testing.T, insts []psplibInstance, work int64, also func(i int, d *dag.DAG, ms [][]float64)) []dag.Bounds {
	all := make([]dag.Bounds, len(insts))
	err := par.For(len(insts), 0, func(i int) error {
		d, ms := insts[i].Inst.DAG, insts[i].Inst.Machines()
		b, err := dag.AllBounds(d, ms, d.TotalDuration(), dag.Options{MaxWork: work})
		if err != nil {
			return fmt.Errorf("%v: %w", insts[i].Key, err)
		}
		all[i] = b
		if also != nil {
			also(i, d, ms)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// TestLCGAloneJ60 runs the learning search's climb alone, from the cheap
// bounds with no other bound or schedule first, at 10M work units per
// instance (DAG_J60_LCG_WORK to change) on all 480 J60 instances: every
// bound must stay ≤ the best known makespan; it logs how many reach the
// published lower bound (the "learning search alone" figure of
// docs/dag/measurements.md).
func TestLCGAloneJ60(t *testing.T) {
	if testing.Short() {
		t.Skip("480 instances with the learning search")
	}
	work := int64(10_000_000)
	if v, err := strconv.ParseInt(os.Getenv("DAG_J60_LCG_WORK"), 10, 64); err == nil {
		work = v
	}
	insts := loadPSPLIB(t, "j60", "j60hrs.sm")
	pub := j60LowerBounds(t)
	lbs := make([]int64, len(insts))
	err := par.For(len(insts), 0, func(i int) error {
		d, ms := insts[i].Inst.DAG, insts[i].Inst.Machines()
		lbs[i], _ = dag.LCGClimbForTest(d, ms, dag.LowerBounds(d, ms).Best, insts[i].Ref, work)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	reached := 0
	for i, in := range insts {
		if lbs[i] > in.Ref {
			t.Errorf("j60 %v: learning-search bound %d > best known makespan %d", in.Key, lbs[i], in.Ref)
		}
		if lb, ok := pub[in.Key]; ok && len(lb) >= 2 && lbs[i] >= lb[1] {
			reached++
		}
	}
	t.Logf("J60 learning search alone (work %d): bound ≥ the published lower bound on %d/%d", work, reached, len(pub))
}
