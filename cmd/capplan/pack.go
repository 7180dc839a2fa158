package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/binpack/vbp"
	"github.com/capplan/capplan/binpack/xselect"
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/datasets/vbpfile"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
)

// packOptions are the flags of `capplan pack`.
type packOptions struct {
	io *ioStreams

	input inputOptions
	// Sizing.
	MinNodes  bool
	NodeTypes []string
	// Ownership.
	Shapes  string
	Shares  string
	From    string
	Mutable float64
	Budget  time.Duration

	Seed   uint64
	output outputOptions
}

func newPackCmd(io *ioStreams) *cobra.Command {
	opts := &packOptions{io: io}
	cmd := &cobra.Command{
		Use:   "pack {--shapes <catalog.json> | --min-nodes} [flags]",
		Short: "Ownership packing plans (X-Select) and cluster sizing (vector bin packing)",
		Long: `Pack containers onto nodes, in one of two modes.

Ownership packing (--shapes): X-Select. The containers are the shapes of an
X-Size catalog (capplan shapes -o catalog.json); every request class of the
demand counts towards its cheapest dominating shape. Each application (owner)
has a target share (--shares: fair = the CMMF fair shares under its placement
constraints, the default; weights = the demand weights; forecast = its share
of the forecast volume) and λ scales the required containers: λ = 1 packs as
much normalised volume as the whole forecast, split by the shares. X-Select
searches the largest λ whose required set packs (fluid upper bound, bisection
on the discrete container counts, node-at-a-time exact knapsack packing,
improvement moves), then tops up the spare room in share order. Eligibility
(selector, minCapacity) and the demand's placement rules (maxPerNode,
colocateWith, exlocateWith) hold on every node. With --from PLAN --mutable F
only a fraction F of the nodes of a previous plan may change (incremental
mode); the plan says which changed and what share deviation remains.

Sizing (--min-nodes): the fewest nodes that host every forecast request
(d-dimensional vector bin packing), with a lower bound. The forecast is a
.vbp file (one node type of the file's capacity; sizes in the JSON use d0,
d1, ... in the file's order) or a cluster and demand packed onto nodes shaped
like --node-type GROUP. With several types and costs (--node-type
std=1,highmem=3.5) it finds the cheapest mix and a lower bound on its cost.

Every plan is checked independently of the solver before it is written.`,
		Example: `  capplan shapes --example -k 8 -o catalog.json
  capplan pack --example --shapes catalog.json
  capplan pack --example --shapes catalog.json --from plan.json --mutable 0.1 -o plan2.json
  capplan pack --min-nodes class1_120_10_0.vbp --json
  capplan pack --min-nodes -c cluster.yaml -d demand.yaml --node-type std -o sizing.json
  capplan pack --min-nodes --example --node-type std=1,highmem=3.5`,
		Args: wrapArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.validate(cmd, args); err != nil {
				return err
			}
			if opts.MinNodes {
				return sizingRun(opts, args)
			}
			return ownershipRun(opts)
		},
	}
	f := cmd.Flags()
	opts.input.bind(f)
	f.StringVar(&opts.Shapes, "shapes", "", "ownership packing: the container shapes, a ShapeCatalog `file` (capplan shapes -o)")
	f.StringVar(&opts.Shares, "shares", plan.SharesFair, "ownership packing: owners' target shares: "+strings.Join(plan.ShareSources, ", "))
	f.StringVar(&opts.From, "from", "", "ownership packing: a previous ownership PackingPlan `file`; change at most --mutable of its nodes")
	f.Float64Var(&opts.Mutable, "mutable", 0.1, "with --from: the fraction of nodes that may change, in [0,1]")
	f.DurationVar(&opts.Budget, "budget", 60*time.Second, "ownership packing: time after which no new λ probe starts (0 = none)")
	f.BoolVar(&opts.MinNodes, "min-nodes", false, "size the cluster: the fewest nodes (cheapest mix) that host the forecast")
	f.StringSliceVar(&opts.NodeTypes, "node-type", nil, "sizing: node `group`(s) to buy, each optionally with a cost per node: std or std=1,highmem=3.5")
	f.Uint64Var(&opts.Seed, "seed", 1, "random seed of the randomised heuristics")
	opts.output.bind(f, "PackingPlan")
	return cmd
}

func (o *packOptions) validate(cmd *cobra.Command, args []string) error {
	switch {
	case o.MinNodes && o.Shapes != "":
		return usageErrorf("--min-nodes (sizing) and --shapes (ownership packing) are different modes: give one")
	case !o.MinNodes && o.Shapes == "":
		return usageErrorf("give --shapes CATALOG (ownership packing) or --min-nodes (sizing)")
	case o.MinNodes:
		for _, name := range []string{"shares", "from", "mutable", "budget"} {
			if cmd.Flags().Changed(name) {
				return usageErrorf("--%s applies to ownership packing (--shapes), not to --min-nodes", name)
			}
		}
		if len(args) == 1 {
			if o.input.ClusterPath != "" || o.input.DemandPath != "" || o.input.Example || len(o.NodeTypes) > 0 {
				return usageErrorf("a .vbp file cannot be combined with --cluster, --demand, --example or --node-type")
			}
			return o.output.validate()
		}
		if err := o.input.validate(); err != nil {
			return err
		}
		if len(o.NodeTypes) == 0 {
			return usageErrorf("--node-type is required with a cluster and demand")
		}
		if _, err := parseNodeTypes(o.NodeTypes); err != nil {
			return err
		}
		return o.output.validate()
	}
	// Ownership packing.
	switch {
	case len(args) > 0:
		return usageErrorf("ownership packing takes no positional argument (got %q)", args[0])
	case len(o.NodeTypes) > 0:
		return usageErrorf("--node-type applies to sizing (--min-nodes)")
	case !slices.Contains(plan.ShareSources, o.Shares):
		return usageErrorf("invalid --shares %q (want one of %s)", o.Shares, strings.Join(plan.ShareSources, ", "))
	case cmd.Flags().Changed("mutable") && o.From == "":
		return usageErrorf("--mutable needs --from PLAN")
	case !(o.Mutable >= 0 && o.Mutable <= 1):
		return usageErrorf("invalid --mutable %v (want a fraction in [0,1])", o.Mutable)
	case o.Budget < 0:
		return usageErrorf("invalid --budget %v", o.Budget)
	}
	if err := o.input.validate(); err != nil {
		return err
	}
	return o.output.validate()
}

// nodeTypeCost is one --node-type entry: a node group and its cost.
type nodeTypeCost struct {
	Group string
	Cost  float64
	// Priced is true when the flag gave the cost.
	Priced bool
}

// parseNodeTypes reads --node-type entries GROUP or GROUP=COST.
func parseNodeTypes(list []string) ([]nodeTypeCost, error) {
	var out []nodeTypeCost
	seen := map[string]bool{}
	for _, s := range list {
		t := nodeTypeCost{Group: strings.TrimSpace(s), Cost: 1}
		if g, c, ok := strings.Cut(s, "="); ok {
			cost, err := strconv.ParseFloat(strings.TrimSpace(c), 64)
			if err != nil || !(cost > 0) || cost > 1e15 {
				return nil, usageErrorf("invalid --node-type %q: the cost must be a positive number", s)
			}
			t = nodeTypeCost{Group: strings.TrimSpace(g), Cost: cost, Priced: true}
		}
		if t.Group == "" {
			return nil, usageErrorf("invalid --node-type %q: empty group name", s)
		}
		if seen[t.Group] {
			return nil, usageErrorf("--node-type %s given twice", t.Group)
		}
		seen[t.Group] = true
		out = append(out, t)
	}
	return out, nil
}

func (o *packOptions) writePlan(doc *plan.PackingPlan) error {
	return o.output.write(o.io, views{
		doc:      doc,
		text:     func(w io.Writer, terminal bool) error { return reports.WritePackingPlanText(w, doc, terminal) },
		csv:      func(w io.Writer) error { return reports.WritePackingPlanCSV(w, doc) },
		workbook: func() (*reports.Workbook, error) { return reports.PackingPlanWorkbook(doc) },
	})
}

// ownershipRun is `capplan pack --shapes`.
func ownershipRun(o *packOptions) error {
	in, err := o.input.load()
	if err != nil {
		return err
	}
	catData, err := readInput(o.Shapes)
	if err != nil {
		return err
	}
	var cat plan.ShapeCatalog
	if err := plan.DecodeDocument(o.Shapes, catData, plan.KindShapeCatalog, &cat); err != nil {
		return err
	}
	if err := plan.CheckCatalogDocument(o.Shapes, &cat, in.Cluster.Resources); err != nil {
		return err
	}
	inputs := append(in.Inputs, plan.Input{Role: "shapes", Path: o.Shapes, SHA256: digest(catData)})
	inst, err := datasets.Coalesce(in.Cluster, in.Demand)
	if err != nil {
		return err
	}
	oi, err := plan.NewOwnershipInput(in.Cluster, in.Demand, inst, &cat, o.Shares)
	if err != nil {
		return err
	}
	opt := xselect.Options{Seed: o.Seed, TimeLimit: o.Budget}
	var gone []string
	flags := map[string]string{"shapes": o.Shapes, "shares": o.Shares, "budget": o.Budget.String()}
	if o.From != "" {
		data, err := readInput(o.From)
		if err != nil {
			return err
		}
		var prev plan.PackingPlan
		if err := plan.DecodeDocument(o.From, data, plan.KindPackingPlan, &prev); err != nil {
			return err
		}
		if opt.From, gone, err = oi.PreviousPlan(o.From, &prev); err != nil {
			return err
		}
		opt.Mutable = o.Mutable
		inputs = append(inputs, plan.Input{Role: "from", Path: o.From, SHA256: digest(data)})
		flags["from"], flags["mutable"] = o.From, strconv.FormatFloat(o.Mutable, 'g', -1, 64)
	}
	xp, err := xselect.Solve(oi.Problem, opt)
	if err != nil {
		return err
	}
	if opt.From != nil {
		err = xselect.CheckIncremental(oi.Problem, opt.From, xp, opt.Mutable)
	} else {
		err = xselect.Check(oi.Problem, xp)
	}
	if err != nil {
		return fmt.Errorf("internal error: the plan failed its independent check: %w", err)
	}
	seed := int64(o.Seed)
	h := plan.Header{Generator: generator(), Inputs: inputs, Seed: &seed, Flags: flags}
	return o.writePlan(plan.NewOwnershipPlan(h, oi, xp, opt.From != nil, gone))
}

// sizingRun is `capplan pack --min-nodes`.
func sizingRun(o *packOptions, args []string) error {
	var (
		inst   *vbp.Instance
		dims   []string
		items  []plan.SizingItem
		units  []float64
		inputs []plan.Input
	)
	flags := map[string]string{"minNodes": "true"}
	if len(args) == 1 {
		data, err := readInput(args[0])
		if err != nil {
			return err
		}
		if inst, err = vbpfile.Parse(args[0], strings.NewReader(string(data))); err != nil {
			return err
		}
		for d := range inst.Capacity {
			dims = append(dims, "d"+strconv.Itoa(d))
		}
		inputs = []plan.Input{{Role: "vbp", Path: args[0], SHA256: digest(data)}}
	} else {
		types, _ := parseNodeTypes(o.NodeTypes) // checked by validate
		flags["nodeType"] = strings.Join(o.NodeTypes, ",")
		in, err := o.input.load()
		if err != nil {
			return err
		}
		if len(types) > 1 || types[0].Priced {
			return mixedSizingRun(o, in, types, flags)
		}
		if inst, dims, items, units, err = plan.NewSizingInstance(in.Cluster, in.Demand, types[0].Group); err != nil {
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
	h := plan.Header{Generator: generator(), Inputs: inputs, Seed: &seed, Flags: flags}
	return o.writePlan(plan.NewSizingPlan(h, dims, inst, res, items, units))
}

// mixedSizingRun sizes with several node types and costs.
func mixedSizingRun(o *packOptions, in *inputFiles, types []nodeTypeCost, flags map[string]string) error {
	groups := make([]string, len(types))
	costs := make([]float64, len(types))
	for i, t := range types {
		groups[i], costs[i] = t.Group, t.Cost
	}
	mi, err := plan.NewMixedSizingInstance(in.Cluster, in.Demand, groups, costs)
	if err != nil {
		if errors.Is(err, plan.ErrNoSuchGroup) {
			return &usageError{err}
		}
		return err
	}
	res, err := vbp.SolveMixed(mi.Instance, vbp.Options{Seed: o.Seed})
	if err != nil {
		return err
	}
	if err := vbp.CheckMixed(mi.Instance, res); err != nil {
		return fmt.Errorf("internal error: %w", err)
	}
	seed := int64(o.Seed)
	h := plan.Header{Generator: generator(), Inputs: in.Inputs, Seed: &seed, Flags: flags}
	return o.writePlan(plan.NewMixedSizingPlan(h, mi, res))
}
