package main

import (
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/internal/par"
	"github.com/capplan/capplan/reports"
)

// dagProGenTable measures `best` on projects of PSPLIB's generator ProGen
// (dags.ProGen) for the sizes PSPLIB ships without their files here: J90
// (48 parameter combinations) and J120 (60), perCombo projects of each.
// With no best-known makespans to compare to, quality is the deviation
// above the critical path (PSPLIB's LB0, the measure the RCPSP literature
// reports for J120) and the gap to capplan's own best bound, an upper
// bound on the deviation from the optimum. Two calibration rows come
// first: the first PSPLIB J60 instance of each combination and generated
// J60 projects, on which both measures should agree if the generator
// makes PSPLIB's kind of projects.
func dagProGenTable(quick bool) error {
	perCombo := 2
	if quick {
		perCombo = 1
	}
	t := reports.Table{
		Title:  fmt.Sprintf("dag best on ProGen projects (PSPLIB's generator: %d per parameter combination, seeds 1000·P + i) and, for calibration, on PSPLIB J60; seed 1, default budget, one core per instance", perCombo),
		Header: []string{"projects", "instances", "mean dev. above CP", "mean gap to own bound", "proven optimal", "mean time", "max time"},
		Align:  []reports.Align{reports.AlignLeft, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight},
	}
	type set struct {
		name  string
		insts []*dags.PSPLIB
	}
	var sets []set
	if real, err := dagPSPLIBFirsts("j60"); err == nil {
		sets = append(sets, set{"PSPLIB J60, instance 1 of each P", real})
	} else if !os.IsNotExist(err) {
		return err
	}
	for _, n := range []int{60, 90, 120} {
		s := set{name: fmt.Sprintf("ProGen J%d", n)}
		for pi, p := range dags.ProGenSet(n) {
			for i := 1; i <= perCombo; i++ {
				inst, err := p.Generate(fmt.Sprintf("progen-j%d%d_%d", n, pi+1, i), uint64(1000*(pi+1)+i))
				if err != nil {
					return err
				}
				s.insts = append(s.insts, inst)
			}
		}
		sets = append(sets, s)
	}
	for _, s := range sets {
		runs := make([]dagRun, len(s.insts))
		err := par.For(len(s.insts), runtime.NumCPU(), func(k int) error {
			r, err := dagRunOne("best", s.insts[k].DAG, s.insts[k].Machines())
			runs[k] = r
			return err
		})
		if err != nil {
			return err
		}
		var devCP, gap float64
		var proven int
		var sum, worst time.Duration
		for k, r := range runs {
			cp := s.insts[k].MPM
			devCP += float64(r.makespan-cp) / float64(cp)
			gap += float64(r.makespan-r.bound) / float64(r.bound)
			if r.makespan == r.bound {
				proven++
			}
			sum += r.took
			worst = max(worst, r.took)
		}
		n := len(runs)
		t.Rows = append(t.Rows, []string{s.name, fmt.Sprint(n), reports.FormatPercent(devCP / float64(n)), reports.FormatPercent(gap / float64(n)),
			fmt.Sprintf("%d/%d", proven, n), dagMS(sum / time.Duration(n)), dagMS(worst)})
	}
	return render(t)
}

// dagPSPLIBFirsts reads instance 1 of each of the 48 combinations of a
// PSPLIB set from the shared data.
func dagPSPLIBFirsts(set string) ([]*dags.PSPLIB, error) {
	var out []*dags.PSPLIB
	for p := 1; p <= 48; p++ {
		inst, err := dagReadPSPLIB(set, p, 1)
		if err != nil {
			return nil, err
		}
		out = append(out, inst)
	}
	return out, nil
}
