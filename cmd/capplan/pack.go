package main

import (
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
)

// packOptions are the flags of `capplan pack`: the ownership packing
// options of the pipeline, bound straight to flags (sizing takes their
// inputs and seed), the sizing flags and the output flags.
type packOptions struct {
	io  *ioStreams
	run pipeline.PackOptions
	// Sizing.
	MinNodes  bool
	NodeTypes []string
	MaxItems  int
	output    outputOptions
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
mode); the plan says which changed and what share deviation remains. The
search counts work (--budget), so the same inputs and --seed give the same
plan on any machine; --time-limit adds an opt-in wall-clock limit, and the
plan says when it cut the search.

Sizing (--min-nodes): the fewest nodes that host every forecast request
(d-dimensional vector bin packing), with a lower bound. The forecast is a
.vbp file (one node type of the file's capacity; sizes in the JSON use d0,
d1, ... in the file's order) or a cluster and demand packed onto nodes shaped
like --node-type GROUP. With several types and costs (--node-type
std=1,highmem=3.5) it finds the cheapest mix and a lower bound on its cost.

Every plan is checked independently of the solver before it is written.`,
		Example: `  capplan shapes --example -k 8 -o catalog.json
  capplan pack --example --shapes catalog.json -o plan.json
  capplan pack -c cluster.yaml -d demand-next.yaml --shapes catalog.json --from plan.json --mutable 0.1 -o plan2.json
  capplan pack --min-nodes ../shared/datasets/vbp-mommessin/panigrahy/class1/class1_120_10_0.vbp --json
  capplan pack --min-nodes -c nodes.json -d nodes-demand.yaml --node-type r5.2xlarge -o sizing.json
  capplan pack --min-nodes --example --node-type std=1,std-b=1,highmem=3.5,gpu=9,spot=0.4`,
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
	bindInputs(f, &opts.run.Inputs)
	f.StringVar(&opts.run.ShapesPath, "shapes", "", "ownership packing: the container shapes, a ShapeCatalog `file` (capplan shapes -o)")
	f.StringVar(&opts.run.Shares, "shares", plan.SharesFair, "ownership packing: owners' target shares: "+strings.Join(plan.ShareSources, ", "))
	f.StringVar(&opts.run.FromPath, "from", "", "ownership packing: a previous ownership PackingPlan `file`; change at most --mutable of its nodes")
	f.Float64Var(&opts.run.Mutable, "mutable", 0.1, "with --from: the fraction of nodes that may change, in [0,1]")
	f.Int64Var(&opts.run.MaxWork, "budget", 0, "ownership packing: work budget of the λ search, in knapsack search nodes and improvement visits (default 3000000000)")
	f.DurationVar(&opts.run.TimeLimit, "time-limit", 0, "ownership packing: opt-in wall-clock limit after which no new λ probe starts, such as 60s (0: none); recorded in the plan when it cuts the search")
	f.BoolVar(&opts.MinNodes, "min-nodes", false, "size the cluster: the fewest nodes (cheapest mix) that host the forecast")
	f.StringSliceVar(&opts.NodeTypes, "node-type", nil, "sizing: node `group`(s) to buy, each optionally with a cost per node: std or std=1,highmem=3.5")
	f.IntVar(&opts.MaxItems, "max-items", 0, "sizing: refuse demands of more than `n` containers (0: "+strconv.Itoa(pipeline.DefaultMaxMixedItems)+" with several node types, "+strconv.Itoa(pipeline.DefaultMaxOneTypeItems)+" with one)")
	f.Uint64Var(&opts.run.Seed, "seed", 1, "random seed of the randomised heuristics")
	opts.output.bind(f, "PackingPlan")
	return cmd
}

func (o *packOptions) validate(cmd *cobra.Command, args []string) error {
	switch {
	case o.MinNodes && o.run.ShapesPath != "":
		return usageErrorf("--min-nodes (sizing) and --shapes (ownership packing) are different modes: give one")
	case !o.MinNodes && o.run.ShapesPath == "":
		return usageErrorf("give --shapes CATALOG (ownership packing) or --min-nodes (sizing)")
	case o.MinNodes:
		for _, name := range []string{"shares", "from", "mutable", "budget", "time-limit"} {
			if cmd.Flags().Changed(name) {
				return usageErrorf("--%s applies to ownership packing (--shapes), not to --min-nodes", name)
			}
		}
		if len(args) == 1 {
			if in := o.run.Inputs; in.ClusterPath != "" || in.DemandPath != "" || in.Example || len(o.NodeTypes) > 0 {
				return usageErrorf("a .vbp file cannot be combined with --cluster, --demand, --example or --node-type")
			}
			return o.output.validate()
		}
		if err := validateInputs(&o.run.Inputs); err != nil {
			return err
		}
		if len(o.NodeTypes) == 0 {
			return usageErrorf("--node-type is required with a cluster and demand")
		}
		return o.output.validate()
	}
	// Ownership packing.
	switch {
	case len(args) > 0:
		return usageErrorf("ownership packing takes no positional argument (got %q)", args[0])
	case len(o.NodeTypes) > 0:
		return usageErrorf("--node-type applies to sizing (--min-nodes)")
	case cmd.Flags().Changed("max-items"):
		return usageErrorf("--max-items applies to sizing (--min-nodes)")
	case cmd.Flags().Changed("mutable") && o.run.FromPath == "":
		return usageErrorf("--mutable needs --from PLAN")
	}
	if err := validateInputs(&o.run.Inputs); err != nil {
		return err
	}
	return o.output.validate()
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
	o.run.Generator = generator()
	res, err := pipeline.Pack(o.run)
	if err != nil {
		return err
	}
	return o.writePlan(res.Doc)
}

// sizingRun is `capplan pack --min-nodes`.
func sizingRun(o *packOptions, args []string) error {
	so := pipeline.SizeOptions{Seed: o.run.Seed, MaxItems: o.MaxItems, Generator: generator()}
	if len(args) == 1 {
		so.VBPPath = args[0]
	} else {
		so.Inputs, so.NodeTypes = o.run.Inputs, strings.Join(o.NodeTypes, ",")
	}
	doc, err := pipeline.Size(so)
	if err != nil {
		return err
	}
	return o.writePlan(doc)
}
