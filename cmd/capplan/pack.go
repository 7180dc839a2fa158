package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/capplan/capplan/binpack/vbp"
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
)

// packOptions are the flags of `capplan pack`.
type packOptions struct {
	io *ioStreams

	input    inputOptions
	MinNodes bool
	NodeType string
	Seed     uint64
	output   outputOptions
}

func newPackCmd(io *ioStreams) *cobra.Command {
	opts := &packOptions{io: io}
	cmd := &cobra.Command{
		Use:   "pack --min-nodes {<file.vbp> | -c <cluster> -d <demand> --node-type <group>} [flags]",
		Short: "Size a cluster: the fewest nodes that host the forecast (vector bin packing)",
		Long: `Find the fewest nodes of one node type that host every forecast request
(d-dimensional vector bin packing), with a lower bound on that number.

The forecast is either a .vbp file (the vector bin packing benchmark format:
one node type of the file's capacity; sizes in the JSON use d0, d1, ... in the
file's order) or a cluster and demand: every request of every application,
packed onto nodes shaped like the node group --node-type.

Several construction heuristics run (first-fit decreasing by sum, max and L2
of the normalised size; Panigrahy's dot-product and L2-norm rules; node-at-a-time
knapsack filling) followed by an improvement phase that empties the least-filled
nodes; the best packing is verified independently before it is written. The
lower bound is the best of the per-dimension volume bound, a clique of
pairwise-incompatible containers, and Martello–Toth's L2 per dimension.`,
		Example: `  capplan pack --min-nodes class1_120_10_0.vbp --json
  capplan pack --min-nodes -c cluster.yaml -d demand.yaml --node-type std -o sizing.json`,
		Args: wrapArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.validate(args); err != nil {
				return err
			}
			return packRun(opts, args)
		},
	}
	f := cmd.Flags()
	opts.input.bind(f)
	f.BoolVar(&opts.MinNodes, "min-nodes", false, "size the cluster: the fewest nodes that host the forecast")
	f.StringVar(&opts.NodeType, "node-type", "", "node `group` of the cluster whose shape sizing uses")
	f.Uint64Var(&opts.Seed, "seed", 1, "random seed of the randomised heuristics")
	opts.output.bind(f, "PackingPlan")
	return cmd
}

func (o *packOptions) validate(args []string) error {
	if !o.MinNodes {
		return usageErrorf("only sizing (--min-nodes) is available: ownership packing with --shapes is not implemented yet")
	}
	if len(args) == 1 {
		if o.input.ClusterPath != "" || o.input.DemandPath != "" || o.input.Example || o.NodeType != "" {
			return usageErrorf("a .vbp file cannot be combined with --cluster, --demand, --example or --node-type")
		}
		return o.output.validate()
	}
	if err := o.input.validate(); err != nil {
		return err
	}
	if o.NodeType == "" {
		return usageErrorf("--node-type is required with a cluster and demand")
	}
	return o.output.validate()
}

func packRun(o *packOptions, args []string) error {
	var (
		inst   *vbp.Instance
		dims   []string
		items  []plan.SizingItem
		units  []float64
		inputs []plan.Input
	)
	if len(args) == 1 {
		data, err := readInput(args[0])
		if err != nil {
			return err
		}
		if inst, err = vbp.Parse(args[0], strings.NewReader(string(data))); err != nil {
			return err
		}
		for d := range inst.Capacity {
			dims = append(dims, "d"+strconv.Itoa(d))
		}
		inputs = []plan.Input{{Role: "vbp", Path: args[0], SHA256: digest(data)}}
	} else {
		in, err := o.input.load()
		if err != nil {
			return err
		}
		if inst, dims, items, units, err = sizingInstance(in.Cluster, in.Demand, o.NodeType); err != nil {
			return err
		}
		inputs = in.Inputs
	}
	res, err := vbp.Solve(inst, vbp.Options{Seed: o.Seed})
	if err != nil {
		return err
	}
	if err := vbp.Check(inst, res.Packing); err != nil {
		return fmt.Errorf("internal error: %w", err)
	}
	seed := int64(o.Seed)
	h := plan.Header{Generator: generator(), Inputs: inputs, Seed: &seed,
		Flags: map[string]string{"minNodes": "true", "nodeType": o.NodeType}}
	doc := plan.NewSizingPlan(h, dims, inst, res, items, units)
	return o.output.write(o.io, views{
		doc:      doc,
		text:     func(w io.Writer, terminal bool) error { return reports.WritePackingPlanText(w, doc, terminal) },
		csv:      func(w io.Writer) error { return reports.WritePackingPlanCSV(w, doc) },
		workbook: func() (*reports.Workbook, error) { return reports.PackingPlanWorkbook(doc) },
	})
}

// sizingInstance builds the vector bin packing instance of a demand on
// nodes shaped like one node group: one item per (application, request)
// with its count, sizes in exact integer units (base units, or milli-units
// for a dimension with fractional quantities). Every application must be
// allowed on that group.
func sizingInstance(c *datasets.Cluster, d *datasets.Demand, group string) (*vbp.Instance, []string, []plan.SizingItem, []float64, error) {
	var g *datasets.NodeGroup
	for i := range c.Groups {
		if c.Groups[i].Name == group {
			g = &c.Groups[i]
		}
	}
	if g == nil {
		var names []string
		for _, gr := range c.Groups {
			names = append(names, gr.Name)
		}
		return nil, nil, nil, nil, usageErrorf("--node-type %q is not a node group of %s (groups: %s)", group, c.Source, strings.Join(names, ", "))
	}
	var node datasets.Node
	for _, n := range c.Nodes() {
		if n.Group == group {
			node = n
			break
		}
	}
	nodeLabels := labels.Set(node.Labels)
	var dims []string
	var idx []int
	for i, r := range c.Resources {
		used := !g.Capacity[i].IsZero()
		for _, a := range d.Applications {
			for _, rq := range a.Requests {
				_, ok := rq.Shape[r]
				used = used || ok
			}
		}
		if used {
			dims = append(dims, r)
			idx = append(idx, i)
		}
	}
	units := make([]float64, len(dims))
	for j, i := range idx {
		whole := g.Capacity[i].MilliValue()%1000 == 0
		for _, a := range d.Applications {
			for _, rq := range a.Requests {
				if q, ok := rq.Shape[dims[j]]; ok {
					whole = whole && q.MilliValue()%1000 == 0
				}
			}
		}
		units[j] = 1000
		if whole {
			units[j] = 1
		}
	}
	value := func(j int, milli int64) int64 {
		if units[j] == 1 {
			return milli / 1000
		}
		return milli
	}
	inst := &vbp.Instance{Name: group, Capacity: make([]int64, len(dims))}
	for j, i := range idx {
		inst.Capacity[j] = value(j, g.Capacity[i].MilliValue())
	}
	var items []plan.SizingItem
	for _, a := range d.Applications {
		if !a.Selector.Matches(nodeLabels) {
			return nil, nil, nil, nil, fmt.Errorf("%s: application %s may not run on node group %s (selector %q)", d.Source, a.Name, group, a.SelectorText)
		}
		for r, q := range a.MinCapacity {
			if i := indexOfString(c.Resources, r); i < 0 || q.Cmp(node.Capacity[i]) > 0 {
				return nil, nil, nil, nil, fmt.Errorf("%s: application %s needs at least %s %s, more than node group %s has", d.Source, a.Name, q.String(), r, group)
			}
		}
		for k, rq := range a.Requests {
			it := vbp.Item{Size: make([]int64, len(dims)), Count: int(rq.Count)}
			for j := range dims {
				if q, ok := rq.Shape[dims[j]]; ok {
					it.Size[j] = value(j, q.MilliValue())
				}
			}
			inst.Items = append(inst.Items, it)
			items = append(items, plan.SizingItem{Shape: fmt.Sprintf("%s/%d", a.Name, k+1), Owner: a.Name})
		}
	}
	if len(items) == 0 {
		return nil, nil, nil, nil, fmt.Errorf("%s: no application has requests to pack", d.Source)
	}
	return inst, dims, items, units, nil
}

func indexOfString(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}
