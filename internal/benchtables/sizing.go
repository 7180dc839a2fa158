package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/capplan/capplan/binpack/vbp"
	"github.com/capplan/capplan/reports"
)

// vbpRoot is the Mommessin et al. vector bin packing benchmark.
const vbpRoot = dagDatasets + "/vbp-mommessin"

// vbpKnown is one benchmark instance with its proven optimum.
type vbpKnown struct {
	inst *vbp.Instance
	opt  int
}

// loadVBP reads the instances of set whose summary gives a proven optimum
// (every stride-th one).
func loadVBP(set, summary string, stride int) ([]vbpKnown, error) {
	root := filepath.Join(vbpRoot, set)
	f, err := os.Open(filepath.Join(root, summary))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := vbp.ParseSummary(summary, f)
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
	var out []vbpKnown
	seen := 0
	for _, k := range rows {
		if k.OPT < 0 {
			continue
		}
		seen++
		if (seen-1)%stride != 0 {
			continue
		}
		data, err := os.ReadFile(paths[k.Name])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k.Name, err)
		}
		inst, err := vbp.Parse(k.Name, strings.NewReader(string(data)))
		if err != nil {
			return nil, err
		}
		out = append(out, vbpKnown{inst, k.OPT})
	}
	return out, nil
}

// sizingTables prints, on the Panigrahy and Triplet sets, mean bins/OPT,
// mean bins/LB, the count solved to OPT and the time per instance, for
// vbp.Solve (our best method) and for each constructive heuristic alone.
func sizingTables(quick bool) error {
	stride := 1
	if quick {
		stride = 20
	}
	for _, set := range []struct{ name, dir, summary, paper string }{
		{"Panigrahy", "panigrahy", "Panigrahy_summary_known.csv", "target ≤ 1.005 × OPT with ≥ 1,000 optimal; paper's best heuristic 1.0162 × OPT, 755 optimal"},
		{"Triplet", "triplet", "Triplet_summary_known.csv", "target ≤ 1.10 × OPT; paper's best heuristic 1.1677 × OPT, 0 optimal"},
	} {
		insts, err := loadVBP(set.dir, set.summary, stride)
		if err != nil {
			fmt.Printf("(vector bin packing %s skipped: %v)\n\n", set.name, err)
			continue
		}
		t := reports.Table{
			Title:  fmt.Sprintf("Vector bin packing, %s (%d instances with proven OPT; %s; ≤ 1 s per instance)", set.name, len(insts), set.paper),
			Header: []string{"method", "mean bins/OPT", "mean bins/LB", "optimal", "mean time", "max time"},
			Align:  []reports.Align{reports.AlignLeft, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight},
		}
		methods := append([]string{"best (vbp.Solve)"}, vbp.Methods()...)
		for mi, m := range methods {
			type res struct {
				bins, lb int
				d        time.Duration
				err      error
			}
			out := make([]res, len(insts))
			var wg sync.WaitGroup
			next := make(chan int)
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range next {
						k := insts[i]
						t0 := time.Now()
						var bins int
						var err error
						if mi == 0 {
							var r *vbp.Result
							if r, err = vbp.Solve(k.inst, vbp.Options{Seed: 1}); err == nil {
								bins = r.Bins
							}
						} else {
							var pk vbp.Packing
							if pk, err = vbp.Construct(k.inst, m); err == nil {
								bins = len(pk)
							}
						}
						d := time.Since(t0)
						lb, lerr := vbp.LowerBound(k.inst)
						if err == nil {
							err = lerr
						}
						out[i] = res{bins, lb.Best, d, err}
					}
				}()
			}
			for i := range insts {
				next <- i
			}
			close(next)
			wg.Wait()
			var sumOpt, sumLB float64
			var opt int
			var total, worst time.Duration
			for i, r := range out {
				if r.err != nil {
					return fmt.Errorf("%s %s: %w", m, insts[i].inst.Name, r.err)
				}
				if r.bins < insts[i].opt {
					return fmt.Errorf("%s %s: %d bins below the proven optimum %d", m, insts[i].inst.Name, r.bins, insts[i].opt)
				}
				sumOpt += float64(r.bins) / float64(insts[i].opt)
				sumLB += float64(r.bins) / float64(max(r.lb, 1))
				if r.bins == insts[i].opt {
					opt++
				}
				total += r.d
				worst = max(worst, r.d)
			}
			n := float64(len(insts))
			t.AddRow(reports.TextCell(m), reports.TextCell(fmt.Sprintf("%.4f", sumOpt/n)), reports.TextCell(fmt.Sprintf("%.4f", sumLB/n)),
				reports.IntCell(int64(opt)), reports.TextCell((total / time.Duration(len(insts))).Round(100*time.Microsecond).String()),
				reports.TextCell(worst.Round(time.Millisecond).String()))
		}
		if err := t.Render(os.Stdout, false); err != nil {
			return err
		}
		fmt.Println()
	}
	return nil
}
