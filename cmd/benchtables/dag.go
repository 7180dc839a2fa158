package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/internal/par"
	"github.com/capplan/capplan/internal/testdatasets"
	"github.com/capplan/capplan/reports"
)

// sharedDatasets is the shared benchmark data directory ("" when absent).
var sharedDatasets = testdatasets.Dir()

// inOrder runs table functions one after the other, stopping at the first
// error.
func inOrder(quick bool, tables ...func(bool) error) error {
	for _, f := range tables {
		if err := f(quick); err != nil {
			return err
		}
	}
	return nil
}

// dagMethods are the schedulers the DAG tables compare: Graphene alone,
// Best (Graphene and the single-pass methods, each justified, then a
// genetic algorithm), the Graphene paper's baselines and two classic
// RCPSP rules.
var dagMethods = []string{"graphene", "best", "bfs", "cp", "tetris", "cg", "strippart", "random", "psgs-lft", "ssgs-lft"}

// dagTables prints the PSPLIB and Alibaba DAG-scheduling tables, or a note
// when the shared data sets are absent.
func dagTables(quick bool) error {
	if _, err := os.Stat(sharedDatasets); err != nil {
		fmt.Println("DAG tables skipped: the shared datasets were not found (set CAPPLAN_DATASETS)")
		fmt.Println()
		return nil
	}
	if err := dagPSPLIBTables(quick); err != nil {
		return err
	}
	return dagAlibabaTable(quick)
}

// dagRun is one method's result on one instance: for best also its lower
// bound (the destructive ones included), else 0.
type dagRun struct {
	makespan int64
	bound    int64
	took     time.Duration
}

// dagRunOne schedules d with method on one goroutine and checks the result.
func dagRunOne(method string, d *dag.DAG, machines [][]float64) (dagRun, error) {
	t0 := time.Now()
	var s *dag.Schedule
	var bound int64
	if method == "best" {
		r, err := dag.Best(d, machines, dag.Options{Seed: 1, Workers: 1})
		if err != nil {
			return dagRun{}, err
		}
		s, bound = r.Schedule, r.Bounds.Best
	} else {
		var err error
		if s, err = dag.Run(method, d, machines, dag.Options{Seed: 1, Workers: 1}); err != nil {
			return dagRun{}, err
		}
	}
	took := time.Since(t0)
	if v := dag.Check(d, machines, s); len(v) > 0 {
		return dagRun{}, fmt.Errorf("%s on %s: infeasible schedule: %v", method, d.Name, v[0])
	}
	return dagRun{s.Makespan(), bound, took}, nil
}

// dagPSPLIBCase is one PSPLIB instance with its reference makespan (J30: the
// optimum; J60: the best known) and lower bound.
type dagPSPLIBCase struct {
	key   dags.PSPLIBKey
	inst  *dags.PSPLIB
	ref   int64
	bound int64
}

func dagLoadPSPLIBSet(set, refFile string, quick bool) ([]dagPSPLIBCase, error) {
	dir := filepath.Join(sharedDatasets, "psplib", set)
	f, err := os.Open(filepath.Join(dir, refFile))
	if err != nil {
		return nil, err
	}
	ref, err := dags.ParsePSPLIBTable(refFile, f)
	f.Close()
	if err != nil {
		return nil, err
	}
	var out []dagPSPLIBCase
	for p := 1; p <= 48; p++ {
		for i := 1; i <= 10; i++ {
			if quick && i > 1 {
				break
			}
			inst, err := dagReadPSPLIB(set, p, i)
			if err != nil {
				return nil, err
			}
			out = append(out, dagPSPLIBCase{key: dags.PSPLIBKey{P: p, I: i}, inst: inst, ref: ref[dags.PSPLIBKey{P: p, I: i}][0], bound: dag.LowerBounds(inst.DAG, inst.Machines()).Best})
		}
	}
	return out, nil
}

// dagReadPSPLIB reads instance i of parameter combination p of a PSPLIB
// set from the shared data.
func dagReadPSPLIB(set string, p, i int) (*dags.PSPLIB, error) {
	name := filepath.Join(sharedDatasets, "psplib", set, fmt.Sprintf("%s%d_%d.sm", set, p, i))
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return dags.ParsePSPLIB(name, f)
}

func dagPSPLIBTables(quick bool) error {
	for _, set := range []struct{ name, ref string }{{"j30", "j30opt.sm"}, {"j60", "j60hrs.sm"}} {
		cases, err := dagLoadPSPLIBSet(set.name, set.ref, quick)
		if err != nil {
			return err
		}
		runs := make([][]dagRun, len(dagMethods))
		for m := range runs {
			runs[m] = make([]dagRun, len(cases))
		}
		err = par.For(len(cases)*len(dagMethods), runtime.NumCPU(), func(k int) error {
			m, c := k/len(cases), k%len(cases)
			r, err := dagRunOne(dagMethods[m], cases[c].inst.DAG, cases[c].inst.Machines())
			runs[m][c] = r
			return err
		})
		if err != nil {
			return err
		}
		var t reports.Table
		if set.name == "j30" {
			t = dagJ30Table(cases, runs)
		} else {
			t = dagJ60Table(cases, runs)
		}
		if err := render(t); err != nil {
			return err
		}
		var pub map[dags.PSPLIBKey][]int64 // the published J60 bounds
		if set.name == "j60" {
			if pub, err = dagJ60Published(); err != nil {
				return err
			}
		}
		best := runs[slices.Index(dagMethods, "best")]
		cert := dagCertificateTable(set.name, cases, best, pub)
		if err := render(cert); err != nil {
			return err
		}
		if set.name == "j60" && !quick {
			proof, err := dagProofTable(cases, best, pub)
			if err != nil {
				return err
			}
			if err := render(proof); err != nil {
				return err
			}
		}
	}
	return nil
}

func dagJ30Table(cases []dagPSPLIBCase, runs [][]dagRun) reports.Table {
	t := reports.Table{
		Title:  fmt.Sprintf("PSPLIB J30 (%d instances, one machine): deviation from the proven optimum; seed 1, one core per instance", len(cases)),
		Header: []string{"method", "mean dev. from optimum", "at optimum", "proven optimal (= lower bound)", "mean time", "max time"},
		Align:  []reports.Align{reports.AlignLeft, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight},
	}
	for m, name := range dagMethods {
		var dev float64
		var atOpt, proven int
		var sum, worst time.Duration
		for c, r := range runs[m] {
			dev += float64(r.makespan-cases[c].ref) / float64(cases[c].ref)
			if r.makespan == cases[c].ref {
				atOpt++
			}
			if r.makespan == max(cases[c].bound, r.bound) {
				proven++
			}
			sum += r.took
			worst = max(worst, r.took)
		}
		n := len(cases)
		t.Rows = append(t.Rows, []string{name, reports.FormatPercent(dev / float64(n)), fmt.Sprintf("%d/%d", atOpt, n),
			fmt.Sprintf("%d/%d", proven, n), dagMS(sum / time.Duration(n)), dagMS(worst)})
	}
	return t
}

func dagJ60Table(cases []dagPSPLIBCase, runs [][]dagRun) reports.Table {
	t := reports.Table{
		Title:  fmt.Sprintf("PSPLIB J60 (%d instances, one machine): deviation above the critical path (LB0) and from the best known; seed 1, one core per instance", len(cases)),
		Header: []string{"method", "mean dev. above CP", "mean dev. from best known", "at best known", "mean time", "max time"},
		Align:  []reports.Align{reports.AlignLeft, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight},
	}
	for m, name := range dagMethods {
		var devCP, devRef float64
		var atRef int
		var sum, worst time.Duration
		for c, r := range runs[m] {
			cp := cases[c].inst.MPM
			devCP += float64(r.makespan-cp) / float64(cp)
			devRef += float64(r.makespan-cases[c].ref) / float64(cases[c].ref)
			if r.makespan <= cases[c].ref {
				atRef++
			}
			sum += r.took
			worst = max(worst, r.took)
		}
		n := len(cases)
		t.Rows = append(t.Rows, []string{name, reports.FormatPercent(devCP / float64(n)), reports.FormatPercent(devRef / float64(n)),
			fmt.Sprintf("%d/%d", atRef, n), dagMS(sum / time.Duration(n)), dagMS(worst)})
	}
	return t
}

// dagAlibabaMethods are compared against BFS on the Alibaba DAGs.
var dagAlibabaMethods = []string{"graphene", "best", "cp", "tetris", "cg", "strippart", "random"}

// dagAlibabaTable reproduces the shape of Graphene's Table 4 on the Alibaba
// v2018 sample: per DAG, the makespan improvement over BFS, 1 − T/T_BFS,
// at the 25/50/75/90th percentiles, and makespan/NewLB at the median and
// 75th percentile, each job on one Alibaba machine (96 cores).
func dagAlibabaTable(quick bool) error {
	path := filepath.Join(sharedDatasets, "alibaba-v2018", "batch_task_dag_sample_hliangzhao.csv")
	f, err := os.Open(path)
	if err != nil {
		fmt.Printf("Alibaba DAG table skipped: %v\n\n", err)
		return nil
	}
	// Bounded sizes keep the table within the bench's time budget.
	opts := dags.AlibabaOptions{MaxTasks: 5000, MaxEdges: 200_000}
	if quick {
		opts = dags.AlibabaOptions{MaxTasks: 1000, MaxEdges: 20_000}
	}
	tr, err := dags.ParseAlibaba(path, f, opts)
	f.Close()
	if err != nil {
		return err
	}
	machines := [][]float64{dags.AlibabaMachine}
	jobs := tr.Jobs
	all := append([]string{"bfs"}, dagAlibabaMethods...)
	runs := make([][]dagRun, len(all))
	for m := range runs {
		runs[m] = make([]dagRun, len(jobs))
	}
	newLB := make([]int64, len(jobs))
	err = par.For(len(jobs)*(len(all)+1), runtime.NumCPU(), func(k int) error {
		m, j := k/len(jobs), k%len(jobs)
		if m == len(all) {
			newLB[j] = dag.NewLB(jobs[j].DAG, machines)
			return nil
		}
		r, err := dagRunOne(all[m], jobs[j].DAG, machines)
		runs[m][j] = r
		return err
	})
	if err != nil {
		return err
	}
	t := reports.Table{
		Title: fmt.Sprintf("Alibaba v2018 sample: %d DAGs (≤ %d tasks, ≤ %d edges; %d jobs rejected), one 96-core machine each; improvement over BFS = 1 − makespan/BFS makespan",
			len(jobs), opts.MaxTasks, opts.MaxEdges, len(tr.Rejected)),
		Header: []string{"DAGs", "method", "25th", "50th", "75th", "90th", "makespan/NewLB 50th", "makespan/NewLB 75th", "mean time"},
		Align:  []reports.Align{reports.AlignLeft, reports.AlignLeft, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight},
	}
	// The second set keeps the DAGs on which BFS misses NewLB: those where
	// the order can matter (on the others every method is at the bound).
	for _, subset := range []struct {
		name string
		keep func(j int) bool
	}{
		{"all", func(int) bool { return true }},
		{"BFS > NewLB", func(j int) bool { return runs[0][j].makespan > newLB[j] }},
	} {
		var idx []int
		for j := range jobs {
			if subset.keep(j) {
				idx = append(idx, j)
			}
		}
		label := fmt.Sprintf("%s (%d)", subset.name, len(idx))
		for m, name := range all {
			var imp, ratio []float64
			var sum time.Duration
			for _, j := range idx {
				bfs, ms := runs[0][j].makespan, runs[m][j].makespan
				if bfs > 0 {
					imp = append(imp, 1-float64(ms)/float64(bfs))
				}
				if newLB[j] > 0 {
					ratio = append(ratio, float64(ms)/float64(newLB[j]))
				}
				sum += runs[m][j].took
			}
			row := []string{label, name}
			for _, p := range []float64{25, 50, 75, 90} {
				row = append(row, reports.FormatPercent(dagPercentile(imp, p)))
			}
			row = append(row, reports.FormatNumber(dagPercentile(ratio, 50)), reports.FormatNumber(dagPercentile(ratio, 75)),
				dagMS(sum/time.Duration(max(1, len(idx)))))
			t.Rows = append(t.Rows, row)
		}
	}
	return render(t)
}

// dagPercentile is the nearest-rank p-th percentile (NaN for no values).
func dagPercentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	k := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[min(max(k, 0), len(s)-1)]
}

// dagMS prints a duration in milliseconds.
func dagMS(d time.Duration) string {
	return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000)
}
