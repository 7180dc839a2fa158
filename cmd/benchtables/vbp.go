package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/capplan/capplan/binpack/vbp"
	"github.com/capplan/capplan/datasets/vbpfile"
	"github.com/capplan/capplan/internal/par"
	"github.com/capplan/capplan/reports"
)

// vbpBenchSet is one vector bin packing benchmark set with its targets
// and the best heuristic result of Mommessin et al.'s paper.
type vbpBenchSet struct {
	name, dir, summary string
	// all keeps the instances without a proven optimum too (measured
	// against the summary's lower bound).
	all bool
	// Targets and the paper's best heuristic, as table cells.
	targetRatio, targetOptimal string
	paperRatio, paperOptimal   string
}

var vbpBenchSets = []vbpBenchSet{
	{name: "Panigrahy", dir: "panigrahy", summary: "Panigrahy_summary_known.csv",
		targetRatio: "≤ 1.005", targetOptimal: "≥ 1,000", paperRatio: "1.0162", paperOptimal: "755"},
	{name: "Triplet", dir: "triplet", summary: "Triplet_summary_known.csv", all: true,
		targetRatio: "≤ 1.10", targetOptimal: "-", paperRatio: "1.1677", paperOptimal: "0"},
}

// vbpBenchCase is one instance with its reference bin count (the proven
// optimum, or the summary's lower bound when none is known) and our own
// lower bound.
type vbpBenchCase struct {
	inst   *vbp.Instance
	ref    int
	proven bool // ref is a proven optimum
	lb     int  // vbp.LowerBound(inst).Best
}

// vbpBenchRun is one method's result on one instance.
type vbpBenchRun struct {
	bins   int
	proven bool // bins is proven optimal (Solve's Optimal, or = lb)
	took   time.Duration
}

// vbpBenchLoad reads a set's summary and instance files: the instances with
// a proven optimum (all of them when set.all), every stride-th one.
func vbpBenchLoad(set vbpBenchSet, stride int) ([]vbpBenchCase, error) {
	root := filepath.Join(sharedDatasets, "vbp-mommessin", set.dir)
	f, err := os.Open(filepath.Join(root, set.summary))
	if err != nil {
		return nil, err
	}
	rows, err := vbpfile.ParseSummary(set.summary, f)
	f.Close()
	if err != nil {
		return nil, err
	}
	paths := map[string]string{}
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".vbp") {
			paths[strings.TrimSuffix(d.Name(), ".vbp")] = path
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []vbpBenchCase
	seen := 0
	for _, k := range rows {
		if k.OPT < 0 && !set.all {
			continue
		}
		seen++
		if (seen-1)%stride != 0 {
			continue
		}
		path, ok := paths[k.Name]
		if !ok {
			return nil, fmt.Errorf("%s names %s but no .vbp file has that name", set.summary, k.Name)
		}
		g, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		inst, err := vbpfile.Parse(k.Name, g)
		g.Close()
		if err != nil {
			return nil, err
		}
		b, err := vbp.LowerBound(inst)
		if err != nil {
			return nil, err
		}
		c := vbpBenchCase{inst: inst, ref: k.OPT, proven: k.OPT >= 0, lb: b.Best}
		if !c.proven {
			c.ref = k.LB
		}
		out = append(out, c)
	}
	return out, nil
}

// vbpBenchMethods are the table's rows: Solve, then every constructive
// heuristic alone.
func vbpBenchMethods() []string {
	return append([]string{"best (vbp.Solve)"}, vbp.Methods()...)
}

// vbpBenchOne runs method m (0 = Solve, else Construct of vbp.Methods()[m-1])
// on c and checks the packing.
func vbpBenchOne(m int, c vbpBenchCase) (vbpBenchRun, error) {
	name := vbpBenchMethods()[m]
	t0 := time.Now()
	var pk vbp.Packing
	optimal := false
	if m == 0 {
		r, err := vbp.Solve(c.inst, vbp.Options{Seed: 1})
		if err != nil {
			return vbpBenchRun{}, err
		}
		pk, optimal = r.Packing, r.Optimal
	} else {
		var err error
		if pk, err = vbp.Construct(c.inst, name); err != nil {
			return vbpBenchRun{}, err
		}
	}
	took := time.Since(t0)
	if err := vbp.Check(c.inst, pk); err != nil {
		return vbpBenchRun{}, fmt.Errorf("%s on %s: %w", name, c.inst.Name, err)
	}
	if c.proven && len(pk) < c.ref {
		return vbpBenchRun{}, fmt.Errorf("%s on %s: %d bins, below the proven optimum %d", name, c.inst.Name, len(pk), c.ref)
	}
	return vbpBenchRun{bins: len(pk), proven: optimal || len(pk) == c.lb, took: took}, nil
}

// vbpTables prints, for the Panigrahy and Triplet sets of Mommessin et
// al.'s vector bin packing benchmark, every method's mean bins over the
// reference (proven optimum), mean bins over our lower bound
// (vbp.LowerBound), the instances solved to the optimum and those proven
// optimal, and the wall time per instance, with the targets and the
// paper's best heuristic as reference rows. Two instances run at a time
// (one per core on the reference machine). With quick, every tenth
// instance only.
func vbpTables(quick bool) error {
	if _, err := os.Stat(filepath.Join(sharedDatasets, "vbp-mommessin")); err != nil {
		fmt.Printf("Vector bin packing tables skipped: %v\n\n", err)
		return nil
	}
	stride := 1
	if quick {
		stride = 10
	}
	workers := min(2, runtime.NumCPU())
	for _, set := range vbpBenchSets {
		cases, err := vbpBenchLoad(set, stride)
		if err != nil {
			return err
		}
		methods := vbpBenchMethods()
		runs := make([][]vbpBenchRun, len(methods))
		for m := range runs {
			runs[m] = make([]vbpBenchRun, len(cases))
		}
		err = par.For(len(cases), workers, func(c int) error {
			for m := range methods {
				r, err := vbpBenchOne(m, cases[c])
				if err != nil {
					return err
				}
				runs[m][c] = r
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := render(vbpBenchTable(set, cases, runs, stride, workers)); err != nil {
			return err
		}
	}
	return nil
}

// vbpBenchTable builds one set's table.
func vbpBenchTable(set vbpBenchSet, cases []vbpBenchCase, runs [][]vbpBenchRun, stride, workers int) reports.Table {
	n := len(cases)
	known := 0
	for _, c := range cases {
		if c.proven {
			known++
		}
	}
	ref := fmt.Sprintf("reference = proven OPT for all %d", n)
	if known < n {
		ref = fmt.Sprintf("reference = proven OPT for %d, the summary's lower bound for the other %d", known, n-known)
	}
	sample := ""
	if stride > 1 {
		sample = fmt.Sprintf(", every %dth (-quick)", stride)
	}
	t := reports.Table{
		Title: fmt.Sprintf("Vector bin packing, %s set (Mommessin et al.): %d instances%s; %s; LB = vbp.LowerBound; seed 1, wall time, %d instances at a time",
			set.name, n, sample, ref, workers),
		Header: []string{"method", "mean bins/OPT", "mean bins/LB", "at OPT", "proven optimal", "mean time", "max time"},
		Align: []reports.Align{reports.AlignLeft, reports.AlignRight, reports.AlignRight, reports.AlignRight,
			reports.AlignRight, reports.AlignRight, reports.AlignRight},
	}
	for m, name := range vbpBenchMethods() {
		var ratio, ratioLB float64
		var atOpt, proven int
		var sum, worst time.Duration
		for c, r := range runs[m] {
			ratio += float64(r.bins) / float64(cases[c].ref)
			ratioLB += float64(r.bins) / float64(max(1, cases[c].lb))
			if r.bins <= cases[c].ref {
				atOpt++
			}
			if r.proven {
				proven++
			}
			sum += r.took
			worst = max(worst, r.took)
		}
		t.AddRow(reports.TextCell(name), reports.TextCell(fmt.Sprintf("%.4f", ratio/float64(n))),
			reports.TextCell(fmt.Sprintf("%.4f", ratioLB/float64(n))), reports.TextCell(fmt.Sprintf("%d/%d", atOpt, n)),
			reports.TextCell(fmt.Sprintf("%d/%d", proven, n)), reports.TextCell(dagMS(sum/time.Duration(max(1, n)))),
			reports.TextCell(dagMS(worst)))
	}
	optTarget := set.targetOptimal
	if optTarget != "-" && n != 1200 {
		optTarget += " of 1,200"
	}
	t.AddRow(reports.TextCell("target"), reports.TextCell(set.targetRatio), reports.MissingCell("-"),
		reports.TextCell(optTarget), reports.MissingCell("-"), reports.TextCell("≤ 1 s"), reports.TextCell("≤ 1 s"))
	t.AddRow(reports.TextCell("paper's best heuristic (reference)"), reports.TextCell(set.paperRatio), reports.MissingCell("-"),
		reports.TextCell(set.paperOptimal), reports.MissingCell("-"), reports.MissingCell("-"), reports.MissingCell("-"))
	return t
}
