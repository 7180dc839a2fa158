package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/binpack/vbp"
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
		if inst, dims, items, units, err = plan.NewSizingInstance(in.Cluster, in.Demand, o.NodeType); err != nil {
			if errors.Is(err, plan.ErrNoSuchGroup) {
				return &usageError{err}
			}
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
