package pipeline

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/datasets/workloads"
	"github.com/capplan/capplan/sim"
)

// xflexSigma is W-XFLEX's default duration noise σ (SIMULATE.md §2.3:
// "30 s tasks with σ = 0.2").
const xflexSigma = 0.2

// xflex prepares W-XFLEX (SIMULATE.md §2.3, X-Flex §3): its cluster and
// applications (embedded, or -c and -d), cut into the containers of a
// packing plan (--packing, or the embedded one: AMs on nodes 0–2, owners
// round-robin), and the same 31 map-only jobs for every application. Every
// task asks for the first request shape of the first application (one
// container, {1 core, 2 GiB}). The workload sets, unless the user did,
// xschedule's schedulers (flex, fair and fifo for the applications of those
// names) and one AM container per application, and a noise of σ = 0.2.
func (w *workload) xflex(o *SimulateOptions, p *params) error {
	gap, err := p.float("meangap", 10)
	if err != nil {
		return err
	}
	dur, err := p.float("duration", 30)
	if err != nil {
		return err
	}
	sigma, err := p.nonNegative("sigma", xflexSigma)
	if err != nil {
		return err
	}
	order, err := p.str("order", "largefirst", "largefirst", "shuffled")
	if err != nil {
		return err
	}
	files := datasets.XFlexExampleFiles()
	var c *datasets.Cluster
	var d *datasets.Demand
	if o.ClusterPath != "" {
		data, err := w.input("cluster", o.ClusterPath)
		if err != nil {
			return err
		}
		if c, err = datasets.ParseCluster(o.ClusterPath, data, datasets.LoadOptions{}); err != nil {
			return err
		}
	} else {
		w.embedded("cluster", "xflex/cluster.yaml", files["cluster.yaml"])
		if c, err = datasets.ParseCluster("xflex/cluster.yaml", files["cluster.yaml"], datasets.LoadOptions{}); err != nil {
			return err
		}
	}
	if o.DemandPath != "" {
		data, err := w.input("demand", o.DemandPath)
		if err != nil {
			return err
		}
		if d, err = datasets.ParseDemand(o.DemandPath, data); err != nil {
			return err
		}
	} else {
		w.embedded("demand", "xflex/demand.yaml", files["demand.yaml"])
		if d, err = datasets.ParseDemand("xflex/demand.yaml", files["demand.yaml"]); err != nil {
			return err
		}
	}
	if len(d.Applications) == 0 || len(d.Applications[0].Requests) == 0 {
		return fmt.Errorf("pipeline: --workload xflex: %s: applications[0].requests: the first application needs a request shape (the map tasks' demand)", d.Source)
	}
	name := "xflex/plan.json"
	if o.PackingPath != "" {
		name = o.PackingPath
	}
	pp, err := w.readPacking(o.PackingPath, name, files["plan.json"])
	if err != nil {
		return err
	}
	apps := demandNames(d)
	cs, err := checkPacking(name, pp, c, apps)
	if err != nil {
		return err
	}
	shape := d.Applications[0].Requests[0].Shape
	taskMilli := make([]int64, len(c.Resources))
	for _, r := range sortedKeysOf(shape) {
		k := slices.Index(c.Resources, r)
		if k < 0 {
			return fmt.Errorf("pipeline: --workload xflex: %s: request shape names resource %q, which cluster %s does not declare", d.Source, r, c.Source)
		}
		m, ok := datasets.Milli(shape[r])
		if !ok {
			return fmt.Errorf("pipeline: --workload xflex: %s: request %s is not exact in thousandths", d.Source, r)
		}
		taskMilli[k] = m
	}
	q := workloads.Quanta(c, func(b *sim.QuantaBuilder) {
		for k, m := range taskMilli {
			b.AddMilli(k, m)
		}
		containerQuanta(cs)(b)
	})
	if w.users, err = workloads.Users(d, c.Resources, q); err != nil {
		return err
	}
	w.cluster = containerCluster(c, q, cs, apps)
	dem := make(sim.Vec, len(taskMilli))
	for k, m := range taskMilli {
		dem[k] = q.DemandMilli(k, m)
	}
	if w.jobs, err = workloads.XFlex(workloads.XFlexParams{Seed: o.Seed, MeanGap: gap, Duration: dur, Shuffled: order == "shuffled"}, w.users, dem, o.TickSeconds); err != nil {
		return err
	}
	if o.Noise == 0 {
		o.Noise = sigma
	}
	w.name = "xflex"
	w.params = map[string]string{"meangap": strconv.FormatFloat(gap, 'g', -1, 64), "duration": strconv.FormatFloat(dur, 'g', -1, 64),
		"sigma": strconv.FormatFloat(o.Noise, 'g', -1, 64), "containers": strconv.Itoa(len(cs)), "order": order}
	var sched []string
	for _, a := range apps {
		if a == "flex" || a == "fair" || a == "fifo" {
			sched = append(sched, a+"="+a)
		}
	}
	w.policyDefaults = map[string]map[string]string{"xschedule": {"am": "1"}}
	if len(sched) > 0 {
		w.policyDefaults["xschedule"]["sched"] = strings.Join(sched, ",")
	}
	w.sizeBin, w.sizeBins = workloads.XFlexSizeBin, []string{"small", "medium", "large"}
	return nil
}
