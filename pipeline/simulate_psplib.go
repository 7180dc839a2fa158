package pipeline

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/datasets/workloads"
)

// isDir reports whether path names a directory.
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// psplibDir loads W-PSP: the PSPLIB projects (*.sm) of a directory, in
// name order, as a multi-job workload (workloads.PSPLIBMulti): jobs
// (default all), machines (10), users (10); arrivals at 0, or Poisson at
// --load.
func (w *workload) psplibDir(o *SimulateOptions, p *params) error {
	files, err := filepath.Glob(filepath.Join(o.WorkloadPath, "*.sm"))
	if err != nil || len(files) == 0 {
		return fmt.Errorf("pipeline: %s holds no PSPLIB project (*.sm)", o.WorkloadPath)
	}
	slices.Sort(files)
	jobs, err := p.int("jobs", len(files))
	if err != nil {
		return err
	}
	machines, err := p.int("machines", 10)
	if err != nil {
		return err
	}
	users, err := p.int("users", 10)
	if err != nil {
		return err
	}
	files = files[:min(jobs, len(files))]
	var ps []*dags.PSPLIB
	var names []string
	for _, f := range files {
		data, err := w.input("workload", f)
		if err != nil {
			return err
		}
		pr, err := dags.ParsePSPLIB(filepath.Base(f), bytes.NewReader(data))
		if err != nil {
			return err
		}
		ps, names = append(ps, pr), append(names, strings.TrimSuffix(filepath.Base(f), ".sm"))
	}
	w.cluster, w.users, w.jobs, err = workloads.PSPLIBMulti(ps, names, machines, users, o.TickSeconds)
	if err != nil {
		return err
	}
	if o.Load > 0 {
		workloads.PoissonArrivals(w.jobs, total(w.cluster), o.Load, o.Seed, o.TickSeconds)
		w.params["arrivals"] = "poisson"
	}
	w.name = "psp:" + filepath.Base(filepath.Clean(o.WorkloadPath))
	w.params["jobs"], w.params["machines"], w.params["users"] = strconv.Itoa(len(files)), strconv.Itoa(machines), strconv.Itoa(users)
	return nil
}
