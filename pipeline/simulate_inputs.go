package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/datasets/workloads"
	"github.com/capplan/capplan/internal/inputerr"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/sim"
)

// workload is a loaded simulation workload: the cluster, the users and
// either the jobs in memory or a generator to stream them.
type workload struct {
	name           string
	params         map[string]string
	cluster        *sim.Cluster
	users          []sim.User
	jobs           []sim.Job            // nil for generated workloads
	gen            func() sim.JobSource // generated workloads
	numJobs        int
	numTasks       int64
	rejected       []sim.Rejection
	expandRejected int // jobs rejected while converting, not in jobs
	firstJob       string
	inputs         []plan.Input
	files          map[string][]byte // SimulateOptions.Files
	// policyDefaults are parameters the workload implies for some
	// policies (W-XFLEX's schedulers and AMs for xschedule), applied where
	// the user set none.
	policyDefaults map[string]map[string]string
	// sizeBin, when set, names a job's size class from its task count
	// (W-XFLEX: small, medium, large) instead of Choosy's bins, and the
	// document then summarises every user by class.
	sizeBin  func(tasks int) string
	sizeBins []string
	// inventory is the cluster file read, with the nodes left out
	// (cordoned, or tainted and not tolerated by every application).
	inventory *datasets.Cluster
}

// source returns a fresh job source.
func (w *workload) source() sim.JobSource {
	if w.gen != nil {
		return w.gen()
	}
	return sim.NewSliceSource(w.jobs)
}

// config returns the simulator configuration of one cell.
func (w *workload) config(o *SimulateOptions, p sim.Policy) sim.Config {
	cfg := sim.Config{Cluster: w.cluster, Users: w.users, Policy: p, Seed: o.Seed, TickSeconds: o.TickSeconds,
		Noise: o.Noise, NoiseMedian: o.NoiseMedian, Misestimate: o.Misestimate, Check: o.Check}
	for _, s := range []float64{10, 60, 240} {
		cfg.JainWindows = append(cfg.JainWindows, sim.Tick(s/o.TickSeconds+0.5))
	}
	if o.Until > 0 {
		cfg.Until = sim.Tick(o.Until / o.TickSeconds)
	}
	return cfg
}

// WorkloadParamDocs documents the --wparam keys of each workload kind.
var WorkloadParamDocs = map[string]string{
	"fb":         "jobs (7000), machines (sized for load 0.8), users (20), horizon seconds (21600), meantasks (92.9)",
	"googlelike": "jobs (300), machines (1000), types (20), slots per node (1), horizon seconds (3600)",
	"xflex":      "meangap seconds (10), duration seconds (30), sigma (0.2: the noise when --noise is 0), order (largefirst: the large job first, the others shuffled; shuffled: all 31)",
	"openb":      "dir (the trace's directory), pods=gpuspec33|default, nodes=all|gpu, pending=drop|hold, copies (1)",
	"alibaba":    "arrivals=trace|poisson (trace; poisson needs --load), compress (1), machines (100), mindepth (1: only jobs of at least this stage depth), jobs (all: the first jobs only)",
	"psplib":     "a directory of .sm projects: jobs (all), machines (10), users (10)",
}

// input reads a file (or takes it from SimulateOptions.Files) and records
// its base name and digest.
func (w *workload) input(role, path string) ([]byte, error) {
	data, ok := w.files[path]
	if !ok {
		var err error
		if data, err = datasets.ReadFile(path, 0); err != nil {
			return nil, err
		}
	}
	sum := sha256.Sum256(data)
	w.inputs = append(w.inputs, plan.Input{Role: role, Path: inputBase(path), SHA256: hex.EncodeToString(sum[:])})
	return data, nil
}

// inputBase names an input file by its base name, standard input as
// "stdin".
func inputBase(path string) string {
	if path == datasets.Stdin {
		return "stdin"
	}
	return filepath.Base(path)
}

// embedded records an embedded input.
func (w *workload) embedded(role, name string, data []byte) {
	sum := sha256.Sum256(data)
	w.inputs = append(w.inputs, plan.Input{Role: role, Path: "example/" + name, SHA256: hex.EncodeToString(sum[:])})
}

// loadWorkload loads or generates the workload the options name.
func loadWorkload(o *SimulateOptions) (*workload, error) {
	w := &workload{params: map[string]string{}, files: o.Files}
	p := &params{m: o.WorkloadParams, used: map[string]bool{}}
	var err error
	switch {
	case o.Workload == "fb":
		p.kind = "fb"
		err = w.fb(o, p)
	case o.Workload == "googlelike":
		p.kind = "googlelike"
		err = w.googlelike(o, p)
	case o.Workload == "xflex":
		p.kind = "xflex"
		err = w.xflex(o, p)
	case o.Workload == "openb":
		p.kind = "openb"
		err = w.openb(o, p)
	case o.Workload != "":
		return nil, fmt.Errorf("pipeline: unknown workload %q (valid: fb, googlelike, xflex, openb; or -w FILE)", o.Workload)
	case o.Example:
		err = w.document(o, "", nil)
	case isDir(o.WorkloadPath):
		p.kind = "psplib"
		err = w.psplibDir(o, p)
	case o.WorkloadPath != "":
		// By extension, else by content (standard input).
		var data []byte
		var format string
		if data, err = w.input("workload", o.WorkloadPath); err != nil {
			return nil, err
		}
		if format, err = detectDAGFormat(o.WorkloadPath, data, dagFormatAuto); err != nil {
			return nil, err
		}
		switch format {
		case dagFormatAlibaba:
			p.kind = "alibaba"
			err = w.alibaba(o, p, data)
		case dagFormatPSPLIB:
			err = w.psplib(o, data)
		default:
			err = w.document(o, o.WorkloadPath, data)
		}
	default:
		return nil, fmt.Errorf("pipeline: no workload: give -w FILE, --workload fb|googlelike or --example")
	}
	if err != nil {
		return nil, err
	}
	if err := p.done(); err != nil {
		return nil, err
	}
	if o.PackingPath != "" && !w.cluster.ContainerMode() {
		return nil, fmt.Errorf("pipeline: --packing needs a workload on a capplan cluster: -w FILE with -c and -d, or --workload xflex")
	}
	if err := w.overbook(o.Overbook); err != nil {
		return nil, err
	}
	if w.jobs != nil {
		w.numJobs = len(w.jobs)
		for i := range w.jobs {
			w.numTasks += int64(w.jobs[i].NumTasks())
		}
		if len(w.jobs) > 0 {
			first := sim.NewSliceSource(w.jobs)
			j, _ := first.Next()
			w.firstJob = j.Name
		}
	}
	return w, nil
}

// clusterAndDemand loads -c and -d (or the example's).
func (w *workload) clusterAndDemand(o *SimulateOptions) (*datasets.Cluster, *datasets.Demand, error) {
	var c *datasets.Cluster
	var d *datasets.Demand
	var err error
	if o.Example && o.ClusterPath == "" {
		files := datasets.SimulateExampleFiles()
		w.embedded("cluster", "cluster.yaml", files["cluster.yaml"])
		c, err = datasets.ParseCluster("cluster.yaml", files["cluster.yaml"], datasets.LoadOptions{})
		if err != nil {
			return nil, nil, err
		}
		if o.DemandPath == "" {
			w.embedded("demand", "demand.yaml", files["demand.yaml"])
			d, err = datasets.ParseDemand("demand.yaml", files["demand.yaml"])
			if err != nil {
				return nil, nil, err
			}
		}
	}
	if o.ClusterPath != "" {
		data, err := w.input("cluster", o.ClusterPath)
		if err != nil {
			return nil, nil, err
		}
		if c, err = datasets.ParseCluster(inputerr.FileName(o.ClusterPath), data, datasets.LoadOptions{}); err != nil {
			return nil, nil, err
		}
	}
	if o.DemandPath != "" {
		data, err := w.input("demand", o.DemandPath)
		if err != nil {
			return nil, nil, err
		}
		if d, err = datasets.ParseDemand(inputerr.FileName(o.DemandPath), data); err != nil {
			return nil, nil, err
		}
	}
	if c != nil {
		// The simulator's users are not told apart by taints: a tainted
		// node stays only when every application tolerates it.
		c = datasets.SchedulableByAll(c, d)
		w.inventory = c
	}
	return c, d, nil
}

// document loads a Workload document, data read from path (or the
// example's, path ""), onto -c.
func (w *workload) document(o *SimulateOptions, path string, data []byte) error {
	c, d, err := w.clusterAndDemand(o)
	if err != nil {
		return err
	}
	if c == nil {
		return optionErrorf("a Workload document needs a cluster: give -c cluster.yaml")
	}
	name := path
	if path == "" {
		data = datasets.SimulateExampleFiles()["workload.yaml"]
		name = "workload.yaml"
		w.embedded("workload", name, data)
		w.name = "example"
	} else {
		w.name = inputBase(path)
	}
	wl, err := datasets.ParseWorkload(inputerr.FileName(name), data)
	if err != nil {
		return err
	}
	for _, r := range workloads.WorkloadResources(wl) {
		if !slices.Contains(c.Resources, r) {
			return fmt.Errorf("pipeline: %s demands resource %q, which cluster %s does not declare (%s)", name, r, c.Source,
				strings.Join(c.Resources, ", "))
		}
	}
	var cs []packedContainer
	if o.PackingPath != "" {
		if d == nil {
			return fmt.Errorf("pipeline: --packing needs the demand whose applications own the containers: give -d demand.yaml")
		}
		pp, err := w.readPacking(o.PackingPath, "", nil)
		if err != nil {
			return err
		}
		if cs, err = checkPacking(o.PackingPath, pp, c, demandNames(d)); err != nil {
			return err
		}
	}
	wlDemands := workloads.WorkloadDemands(wl, c.Resources)
	q := workloads.Quanta(c, func(b *sim.QuantaBuilder) { wlDemands(b); containerQuanta(cs)(b) })
	w.cluster = workloads.Cluster(c, q)
	if cs != nil {
		w.cluster = containerCluster(c, q, cs, demandNames(d))
	}
	users := workloads.NewUserIndex(nil, "")
	if d != nil {
		us, err := workloads.Users(d, c.Resources, q)
		if err != nil {
			return err
		}
		users = workloads.NewUserIndex(us, d.Source)
	}
	conv := &sim.DAGConversion{Resources: c.Resources, Quanta: q, TickSeconds: o.TickSeconds}
	jobs, rejected, err := workloads.FromWorkload(wl, conv, users)
	if err != nil {
		return err
	}
	w.users, w.jobs, w.rejected, w.expandRejected = users.Users, jobs, rejected, len(rejected)
	if len(w.users) == 0 {
		w.users = []sim.User{{Name: "default", Weight: 1}}
	}
	if o.Load > 0 {
		workloads.PoissonArrivals(w.jobs, total(w.cluster), o.Load, o.Seed, o.TickSeconds)
		w.params["arrivals"] = "poisson"
	}
	return nil
}

// alibaba loads an Alibaba v2018 batch_task trace (W-ALI) read from
// o.WorkloadPath.
func (w *workload) alibaba(o *SimulateOptions, p *params, data []byte) error {
	arrivals, err := p.str("arrivals", "trace", "trace", "poisson")
	if err != nil {
		return err
	}
	compress, err := p.float("compress", 1)
	if err != nil {
		return err
	}
	machines, err := p.int("machines", workloads.AlibabaMachines)
	if err != nil {
		return err
	}
	if arrivals == "poisson" && o.Load <= 0 {
		return fmt.Errorf("pipeline: arrivals=poisson needs --load")
	}
	if o.Load > 0 {
		arrivals = "poisson"
	}
	rows, err := workloads.ReadAlibaba(inputerr.FileName(o.WorkloadPath), bytes.NewReader(data))
	if err != nil {
		return err
	}
	q := rows.Quanta()
	w.cluster = workloads.Uniform(workloads.AlibabaResources, q, dags.AlibabaMachine, machines, "ali")
	if o.ClusterPath != "" {
		c, _, err := w.clusterAndDemand(o)
		if err != nil {
			return err
		}
		w.cluster = workloads.Cluster(c, q)
	}
	w.users = workloads.AlibabaUserList()
	conv := &sim.DAGConversion{Resources: w.cluster.Resources, Quanta: q, TickSeconds: o.TickSeconds}
	if arrivals == "poisson" {
		compress = 0
	}
	w.jobs = rows.Jobs(conv, compress)
	mindepth, err := p.int("mindepth", 1)
	if err != nil {
		return err
	}
	if mindepth > 1 { // W-ALI-deep (SIMULATE.md §2.3): depth ≥ 3
		w.jobs = slices.DeleteFunc(w.jobs, func(j sim.Job) bool { return workloads.StageDepth(&j) < mindepth })
	}
	limit, err := p.int("jobs", len(w.jobs))
	if err != nil {
		return err
	}
	if limit < len(w.jobs) { // the first jobs, in the trace's order
		w.jobs = w.jobs[:limit]
		w.params["jobs"] = strconv.Itoa(limit)
	}
	w.rejected, w.expandRejected = rows.Rejected, len(rows.Rejected)
	if arrivals == "poisson" {
		workloads.PoissonArrivals(w.jobs, total(w.cluster), o.Load, o.Seed, o.TickSeconds)
	}
	w.name = inputBase(o.WorkloadPath)
	w.params["arrivals"], w.params["machines"] = arrivals, strconv.Itoa(machines)
	if mindepth > 1 {
		w.params["mindepth"] = strconv.Itoa(mindepth)
	}
	if arrivals == "trace" {
		w.params["compress"] = strconv.FormatFloat(compress, 'g', -1, 64)
	}
	return nil
}

// psplib loads one PSPLIB project, read from o.WorkloadPath, as a job on
// its machine (or -c).
func (w *workload) psplib(o *SimulateOptions, data []byte) error {
	p, err := dags.ParsePSPLIB(inputBase(o.WorkloadPath), bytes.NewReader(data))
	if err != nil {
		return err
	}
	b := sim.NewQuantaBuilder(p.DAG.K())
	for k := range p.DAG.Resources {
		b.Add(k, p.Capacity[k])
	}
	q := b.Quanta()
	w.cluster = workloads.Uniform(p.DAG.Resources, q, p.Capacity, 1, "psplib")
	w.users = []sim.User{{Name: "default", Weight: 1}}
	conv := &sim.DAGConversion{Resources: p.DAG.Resources, Quanta: q, TickSeconds: o.TickSeconds}
	job, _, err := conv.Job(p.DAG, 0, 0)
	if err != nil {
		return err
	}
	w.jobs = []sim.Job{job}
	w.name = inputBase(o.WorkloadPath)
	return nil
}

// total returns the cluster's total capacity.
func total(c *sim.Cluster) sim.Vec {
	t := make(sim.Vec, len(c.Resources))
	for _, m := range c.Machines {
		for d, x := range m.Cap {
			t[d] += x
		}
	}
	return t
}

// overbook sets the cluster's overbooking factors by resource name.
func (w *workload) overbook(factors map[string]float64) error {
	if len(factors) == 0 {
		return nil
	}
	c := w.cluster
	c.Overbook = make([]float64, len(c.Resources))
	for d := range c.Overbook {
		c.Overbook[d] = 1
	}
	names := make([]string, 0, len(factors))
	for r := range factors {
		names = append(names, r)
	}
	slices.Sort(names)
	for _, r := range names {
		d := slices.Index(c.Resources, r)
		if d < 0 {
			return fmt.Errorf("pipeline: --overbook names resource %q, which the cluster does not have (%s)", r, strings.Join(c.Resources, ", "))
		}
		if f := factors[r]; !(f >= 1) || f > 1e6 {
			return fmt.Errorf("pipeline: --overbook %s=%v: want a factor ≥ 1", r, f)
		}
		c.Overbook[d] = factors[r]
	}
	w.params["overbook"] = fmt.Sprint(factors)
	return nil
}
