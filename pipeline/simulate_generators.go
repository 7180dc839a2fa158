package pipeline

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/capplan/capplan/datasets/workloads"
	"github.com/capplan/capplan/sim"
)

// params reads the workload parameters, refusing unknown keys.
type params struct {
	kind string
	m    map[string]string
	used map[string]bool
}

func (p *params) int(key string, def int) (int, error) {
	p.used[key] = true
	v, ok := p.m[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("pipeline: workload parameter %s=%q: want a positive whole number", key, v)
	}
	return n, nil
}

func (p *params) float(key string, def float64) (float64, error) {
	p.used[key] = true
	v, ok := p.m[key]
	if !ok {
		return def, nil
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || !(x > 0) {
		return 0, fmt.Errorf("pipeline: workload parameter %s=%q: want a positive number", key, v)
	}
	return x, nil
}

// nonNegative reads a number ≥ 0.
func (p *params) nonNegative(key string, def float64) (float64, error) {
	p.used[key] = true
	v, ok := p.m[key]
	if !ok {
		return def, nil
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || !(x >= 0) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("pipeline: workload parameter %s=%q: want a number ≥ 0", key, v)
	}
	return x, nil
}

func (p *params) str(key, def string, valid ...string) (string, error) {
	p.used[key] = true
	v, ok := p.m[key]
	if !ok {
		return def, nil
	}
	if !slices.Contains(valid, v) {
		return "", fmt.Errorf("pipeline: workload parameter %s=%q: want one of %s", key, v, strings.Join(valid, ", "))
	}
	return v, nil
}

func (p *params) done() error {
	keys := make([]string, 0, len(p.m))
	for k := range p.m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !p.used[k] {
			return fmt.Errorf("pipeline: unknown workload parameter %q for %s (%s)", k, p.kind, WorkloadParamDocs[p.kind])
		}
	}
	return nil
}

// fb prepares the W-FB generator.
func (w *workload) fb(o *SimulateOptions, p *params) error {
	fp := workloads.FBParams{Seed: o.Seed, Load: o.Load}
	var err error
	if fp.Jobs, err = p.int("jobs", 7000); err != nil {
		return err
	}
	if fp.Machines, err = p.int("machines", 0); err != nil {
		return err
	}
	if fp.Users, err = p.int("users", 20); err != nil {
		return err
	}
	if fp.Horizon, err = p.float("horizon", 6*3600); err != nil {
		return err
	}
	if fp.MeanTasks, err = p.float("meantasks", 650000.0/7000); err != nil {
		return err
	}
	g, err := workloads.NewFB(fp, o.TickSeconds)
	if err != nil {
		return err
	}
	fp = g.Params()
	w.name = "fb"
	w.cluster, w.users = g.Cluster(), g.Users()
	w.gen = func() sim.JobSource {
		g, _ := workloads.NewFB(fp, o.TickSeconds) // validated above
		return g
	}
	w.numJobs = fp.Jobs
	w.firstJob = "fb-00000"
	w.params = map[string]string{"jobs": strconv.Itoa(fp.Jobs), "machines": strconv.Itoa(fp.Machines),
		"users": strconv.Itoa(fp.Users), "horizon": strconv.FormatFloat(fp.Horizon, 'g', -1, 64),
		"meantasks": strconv.FormatFloat(fp.MeanTasks, 'g', -1, 64), "scale": strconv.FormatFloat(g.Scale(), 'g', 6, 64)}
	if o.ClusterPath != "" {
		return fmt.Errorf("pipeline: --workload fb brings its own cluster (use --wparam machines=N), not -c")
	}
	return nil
}

// googlelike prepares the GoogleLike generator.
func (w *workload) googlelike(o *SimulateOptions, p *params) error {
	gp := workloads.GoogleParams{Seed: o.Seed, Load: o.Load}
	var err error
	if gp.Jobs, err = p.int("jobs", 300); err != nil {
		return err
	}
	if gp.Machines, err = p.int("machines", 1000); err != nil {
		return err
	}
	if gp.Types, err = p.int("types", 20); err != nil {
		return err
	}
	if gp.Slots, err = p.int("slots", 1); err != nil {
		return err
	}
	if gp.Horizon, err = p.float("horizon", 3600); err != nil {
		return err
	}
	g, err := workloads.NewGoogleLike(gp, o.TickSeconds)
	if err != nil {
		return err
	}
	gp = g.Params()
	w.name = "googlelike"
	w.cluster, w.users = g.Cluster(), g.Users()
	w.gen = func() sim.JobSource {
		g, _ := workloads.NewGoogleLike(gp, o.TickSeconds) // validated above
		return g
	}
	w.numJobs = gp.Jobs
	w.firstJob = "g-0000"
	w.params = map[string]string{"jobs": strconv.Itoa(gp.Jobs), "machines": strconv.Itoa(gp.Machines),
		"types": strconv.Itoa(gp.Types), "slots": strconv.Itoa(gp.Slots), "horizon": strconv.FormatFloat(gp.Horizon, 'g', -1, 64)}
	if o.ClusterPath != "" {
		return fmt.Errorf("pipeline: --workload googlelike brings its own cluster, not -c")
	}
	return nil
}
