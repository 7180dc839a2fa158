package datasets

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/capplan/capplan/internal/inputerr"
)

// OpenBModelLabel is the node label that holds an openb node's GPU model.
const OpenBModelLabel = "gpu-model"

// openbNodeHeader and openbPodHeader are the columns the openb CSV files
// start with (further columns are ignored).
var (
	openbNodeHeader = []string{"sn", "cpu_milli", "memory_mib", "gpu", "model"}
	openbPodHeader  = []string{"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli", "gpu_spec", "qos", "pod_phase", "creation_time", "deletion_time", "scheduled_time"}
)

// ParseOpenB reads the Alibaba GPU cluster trace v2023 "openb" (Weng et
// al., ATC'23): a node list and a pod list (CSV with headers, see
// ../shared/datasets/README.md §3) into a Cluster and a Demand.
//
// The cluster has resources cpu, memory and gpu; nodes with equal cpu,
// memory, GPU count and GPU model form one group, named after its shape,
// labelled gpu-model=MODEL when the model is known. The demand has one
// application per (qos, gpu_spec) pair, in order of first appearance; a
// gpu_spec "A|B" becomes the selector `gpu-model in (A,B)`. Pods with equal
// requests are merged into one request with a count and the mean run time
// (deletion_time − scheduled_time, when both are known) as duration. A pod
// asking for one GPU with gpu_milli < 1000 shares a GPU: it requests
// gpu_milli thousandths of one.
//
// The trace holds pods that no node can host (most of them Failed): their
// requests are left out of the demand and counted in dropped, so the
// result always passes CheckDemand.
//
// Every malformed row is reported, with its line, in one *inputerr.Error.
func ParseOpenB(nodesName string, nodes io.Reader, podsName string, pods io.Reader) (c *Cluster, d *Demand, dropped int64, err error) {
	c, errN := parseOpenBNodes(nodesName, nodes)
	d, errP := parseOpenBPods(podsName, pods)
	if err := errors.Join(errN, errP); err != nil {
		var all inputerr.Error
		for _, e := range []error{errN, errP} {
			var ve *inputerr.Error
			if errors.As(e, &ve) {
				all.Problems = append(all.Problems, ve.Problems...)
			} else if e != nil {
				return nil, nil, 0, e
			}
		}
		return nil, nil, 0, &all
	}
	dropped = dropUnplaceable(c, d)
	return c, d, dropped, nil
}

// dropUnplaceable removes the requests that fit no node their application
// may use (and applications left without requests), returning how many
// pods it removed.
func dropUnplaceable(c *Cluster, d *Demand) int64 {
	var dropped int64
	apps := d.Applications[:0]
	for _, a := range d.Applications {
		reqs := a.Requests[:0]
		for _, r := range a.Requests {
			if openbFits(c, &a, r) {
				reqs = append(reqs, r)
			} else {
				dropped += r.Count
			}
		}
		a.Requests = reqs
		if len(reqs) > 0 {
			apps = append(apps, a)
		}
	}
	d.Applications = apps
	return dropped
}

// openbFits reports whether some node group a may use holds request r.
func openbFits(c *Cluster, a *Application, r Request) bool {
	for _, g := range c.Groups {
		if !a.Selector.Matches(labels.Set(g.Labels)) {
			continue
		}
		fits := true
		for i, res := range c.Resources {
			if q, ok := r.Shape[res]; ok && q.Cmp(g.Capacity[i]) > 0 {
				fits = false
			}
		}
		if fits {
			return true
		}
	}
	return false
}

// openbRows reads a CSV file, checks its header and calls row for each
// record with its 1-based line number.
func openbRows(ps *inputerr.List, r io.Reader, header []string, row func(line int, rec []string)) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err != nil {
		ps.Add("", "cannot read the CSV header: %v", err)
		return
	}
	if len(head) < len(header) || strings.Join(head[:len(header)], ",") != strings.Join(header, ",") {
		ps.Add(inputerr.AtLine(1), "header must start with %s", strings.Join(header, ","))
		return
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				ps.Add(inputerr.AtLine(pe.Line), "%v", pe.Err)
			} else {
				ps.Add("", "%v", err)
			}
			return
		}
		line, _ := cr.FieldPos(0)
		if len(rec) < len(header) {
			ps.Add(inputerr.AtLine(line), "has %d columns, want at least %d", len(rec), len(header))
			continue
		}
		row(line, rec)
	}
}

// openbInt parses a non-negative integer column.
func openbInt(ps *inputerr.List, line int, col, s string) int64 {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || v < 0 || v > 1<<50 {
		ps.Add(inputerr.AtLine(line), "%s: want a non-negative integer, got %q", col, s)
		return 0
	}
	return v
}

func parseOpenBNodes(name string, r io.Reader) (*Cluster, error) {
	ps := &inputerr.List{File: name}
	c := &Cluster{Source: name, Resources: []string{"cpu", "memory", "gpu"}}
	index := map[string]int{}
	openbRows(ps, r, openbNodeHeader, func(line int, rec []string) {
		n := ps.Len()
		cpu := openbInt(ps, line, "cpu_milli", rec[1])
		mem := openbInt(ps, line, "memory_mib", rec[2])
		gpu := openbInt(ps, line, "gpu", rec[3])
		model := strings.TrimSpace(rec[4])
		if ps.Len() > n {
			return
		}
		if cpu == 0 || mem == 0 {
			ps.Add(inputerr.AtLine(line), "node %s has no cpu or memory", rec[0])
			return
		}
		key := fmt.Sprint(cpu, mem, gpu, model)
		g, ok := index[key]
		if !ok {
			g = len(c.Groups)
			index[key] = g
			cap := Vector{*resource.NewMilliQuantity(cpu, resource.DecimalSI), *resource.NewQuantity(mem<<20, resource.BinarySI), {}}
			if gpu > 0 {
				cap[2] = *resource.NewQuantity(gpu, resource.DecimalSI)
			}
			l := map[string]string{}
			gname := fmt.Sprintf("cpu-%dc-%dgi", cpu/1000, mem>>10)
			if model != "" {
				l[OpenBModelLabel] = model
				gname = fmt.Sprintf("%s-%dg-%dc-%dgi", strings.ToLower(model), gpu, cpu/1000, mem>>10)
			}
			c.Groups = append(c.Groups, NodeGroup{Name: gname, Labels: l, Capacity: cap})
		}
		c.Groups[g].Count++
	})
	if len(c.Groups) == 0 && ps.Len() == 0 {
		ps.Add("", "no nodes")
	}
	return c, ps.Err()
}

// openbShape is the request of one pod, in exact units.
type openbShape struct{ cpuMilli, memMiB, gpuMilli int64 }

func parseOpenBPods(name string, r io.Reader) (*Demand, error) {
	ps := &inputerr.List{File: name}
	type agg struct {
		count        int64
		timed        int64
		totalSeconds float64
	}
	type app struct {
		name, spec string
		shapes     map[openbShape]*agg
		order      []openbShape
	}
	var apps []*app
	index := map[string]*app{}
	openbRows(ps, r, openbPodHeader, func(line int, rec []string) {
		n := ps.Len()
		cpu := openbInt(ps, line, "cpu_milli", rec[1])
		mem := openbInt(ps, line, "memory_mib", rec[2])
		ngpu := openbInt(ps, line, "num_gpu", rec[3])
		gmilli := openbInt(ps, line, "gpu_milli", rec[4])
		if ps.Len() > n {
			return
		}
		if cpu == 0 && mem == 0 && ngpu == 0 {
			ps.Add(inputerr.AtLine(line), "pod %s requests nothing", rec[0])
			return
		}
		gpu := ngpu * 1000
		if ngpu == 1 && gmilli > 0 && gmilli < 1000 {
			gpu = gmilli
		}
		qos, spec := strings.TrimSpace(rec[6]), strings.TrimSpace(rec[5])
		if qos == "" {
			qos = "none"
		}
		key := qos + "\x00" + spec
		a, ok := index[key]
		if !ok {
			a = &app{name: qos, spec: spec, shapes: map[openbShape]*agg{}}
			if spec != "" {
				a.name = qos + "-" + strings.ToLower(strings.ReplaceAll(spec, "|", "-"))
			}
			index[key] = a
			apps = append(apps, a)
		}
		s := openbShape{cpu, mem, gpu}
		g, ok := a.shapes[s]
		if !ok {
			g = &agg{}
			a.shapes[s] = g
			a.order = append(a.order, s)
		}
		g.count++
		start, err1 := strconv.ParseInt(strings.TrimSpace(rec[10]), 10, 64)
		end, err2 := strconv.ParseInt(strings.TrimSpace(rec[9]), 10, 64)
		if err1 == nil && err2 == nil && end > start {
			g.timed++
			g.totalSeconds += float64(end - start)
		}
	})
	d := &Demand{Source: name}
	for _, a := range apps {
		sel, text := labels.Everything(), ""
		if a.spec != "" {
			models := strings.Split(a.spec, "|")
			sort.Strings(models)
			text = fmt.Sprintf("%s in (%s)", OpenBModelLabel, strings.Join(models, ","))
			var err error
			if sel, err = labels.Parse(text); err != nil {
				ps.Add("", "gpu_spec %q: %v", a.spec, err)
				continue
			}
		}
		out := Application{Name: a.name, Weight: big.NewRat(1, 1), Selector: sel, SelectorText: text}
		for _, s := range a.order {
			g := a.shapes[s]
			shape := map[string]resource.Quantity{}
			if s.cpuMilli > 0 {
				shape["cpu"] = *resource.NewMilliQuantity(s.cpuMilli, resource.DecimalSI)
			}
			if s.memMiB > 0 {
				shape["memory"] = *resource.NewQuantity(s.memMiB<<20, resource.BinarySI)
			}
			if s.gpuMilli > 0 {
				shape["gpu"] = *resource.NewMilliQuantity(s.gpuMilli, resource.DecimalSI)
			}
			req := Request{Shape: shape, Count: g.count}
			if g.timed > 0 {
				req.Duration = g.totalSeconds / float64(g.timed)
			}
			out.Requests = append(out.Requests, req)
		}
		d.Applications = append(d.Applications, out)
	}
	if len(d.Applications) == 0 && ps.Len() == 0 {
		ps.Add("", "no pods")
	}
	return d, ps.Err()
}
