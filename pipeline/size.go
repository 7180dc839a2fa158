package pipeline

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/capplan/capplan/binpack/vbp"
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/datasets/vbpfile"
	"github.com/capplan/capplan/internal/kvlist"
	"github.com/capplan/capplan/plan"
)

// SizeOptions are the options of Size (`capplan pack --min-nodes`).
type SizeOptions struct {
	// VBPPath is a vector bin packing instance (.vbp: one node type of
	// the file's capacity; dimensions d0, d1, … in the file's order).
	// Without it, Inputs' demand is packed onto nodes shaped like the
	// node groups of NodeTypes.
	VBPPath string
	Inputs  Inputs
	// NodeTypes lists the node groups to buy, each optionally with a cost
	// per node: "std" or "std=1,highmem=3.5". One group without a cost
	// minimises the number of nodes; several, or a cost, the cost of the
	// mix.
	NodeTypes string
	// Seed drives the randomised heuristics.
	Seed uint64
	// MaxItems bounds the containers (items of a .vbp file) sized at
	// once (0: DefaultMaxMixedItems with several node types,
	// DefaultMaxOneTypeItems with one).
	MaxItems int
	// Generator names the tool in the document header.
	Generator string
}

// DefaultMaxMixedItems is the default SizeOptions.MaxItems with several
// node types.
const DefaultMaxMixedItems = vbp.DefaultMaxMixedItems

// DefaultMaxOneTypeItems is the default SizeOptions.MaxItems with one node
// type or a .vbp file. Its heuristics hold every item and node: measured,
// 1,000,000 containers of one class peaked at 435 MB and 3,000,000 of
// three classes at 1.5 GB (make bench's process sizes aside), so the
// default keeps a sizing near 1 GB.
const DefaultMaxOneTypeItems = 2_000_000

// checkOneTypeItems refuses a one-type sizing of more than limit items
// (0: DefaultMaxOneTypeItems) before it is solved; name is the input.
func checkOneTypeItems(name string, inst *vbp.Instance, limit int) error {
	if limit == 0 {
		limit = DefaultMaxOneTypeItems
	}
	if n := inst.NumItems(); n > limit {
		return fmt.Errorf("%s: %d containers, more than the %d sized at once (--max-items): raise --max-items (and --max-memory: about 500 bytes per container), or size part of the demand", name, n, limit)
	}
	return nil
}

// nodeTypeCost is one NodeTypes entry: a node group and its cost.
type nodeTypeCost struct {
	Group string
	Cost  float64
	// Priced is true when the entry gave the cost.
	Priced bool
}

// maxNodeCost bounds a node type's cost, so that costs of whole clusters
// stay exact in float64.
const maxNodeCost = 1e15

// parseNodeTypes reads a NodeTypes list: entries GROUP or GROUP=COST.
func parseNodeTypes(s string) ([]nodeTypeCost, error) { return parseNodeTypeList("--node-type", s) }

// parseNodeTypeList reads a list of GROUP or GROUP=COST entries given by
// flag (named in errors).
func parseNodeTypeList(flag, s string) ([]nodeTypeCost, error) {
	pairs, err := kvlist.Parse(s, false)
	if err != nil {
		return nil, optionErrorf("invalid %s %q: %v", flag, s, err)
	}
	if len(pairs) == 0 {
		return nil, optionErrorf("%s is required with a cluster and demand", flag)
	}
	out := make([]nodeTypeCost, len(pairs))
	for i, p := range pairs {
		out[i] = nodeTypeCost{Group: p.Key, Cost: 1}
		if p.HasValue {
			cost, err := strconv.ParseFloat(p.Value, 64)
			if err != nil || !(cost > 0) || cost > maxNodeCost {
				return nil, optionErrorf("invalid %s %s=%s: the cost must be a positive number", flag, p.Key, p.Value)
			}
			out[i].Cost, out[i].Priced = cost, true
		}
	}
	return out, nil
}

// Size finds the fewest nodes that host every forecast request, with a
// lower bound (d-dimensional vector bin packing; binpack/vbp), or with
// several node types and costs the cheapest mix and a lower bound on its
// cost:
//
//  1. read the .vbp instance, or load the cluster and demand and build the
//     instance on nodes shaped like the node groups (sizes in exact
//     integer units; every application allowed on the groups it may use);
//  2. solve (vbp.Solve or vbp.SolveMixed);
//  3. check the packing independently (vbp.Check, vbp.CheckMixed) and
//     build the document.
func Size(o SizeOptions) (*plan.PackingPlan, error) {
	if o.MaxItems < 0 {
		return nil, optionErrorf("invalid --max-items %d: want a number of containers ≥ 1 (0: %d with several node types, %d with one)", o.MaxItems, DefaultMaxMixedItems, DefaultMaxOneTypeItems)
	}
	flags := map[string]string{"minNodes": "true"}
	seed := int64(o.Seed)
	h := plan.Header{Generator: o.Generator, Seed: &seed, Flags: flags}
	if o.VBPPath != "" {
		data, err := datasets.ReadFile(o.VBPPath, 0)
		if err != nil {
			return nil, err
		}
		inst, err := vbpfile.Parse(o.VBPPath, strings.NewReader(string(data)))
		if err != nil {
			return nil, err
		}
		dims := make([]string, len(inst.Capacity))
		for d := range dims {
			dims[d] = "d" + strconv.Itoa(d)
		}
		h.Inputs = []plan.Input{{Role: "vbp", Path: o.VBPPath, SHA256: plan.Digest(data)}}
		if err := checkOneTypeItems(o.VBPPath, inst, o.MaxItems); err != nil {
			return nil, err
		}
		return sizeOneType(h, o.Seed, inst, dims, nil, nil)
	}
	types, err := parseNodeTypes(o.NodeTypes)
	if err != nil {
		return nil, err
	}
	flags["nodeType"] = o.NodeTypes
	in, err := o.Inputs.load()
	if err != nil {
		return nil, err
	}
	h.Inputs = in.Inputs
	annotate(&h, in.Cluster)
	if len(types) > 1 || types[0].Priced {
		return sizeMixed(h, vbp.Options{Seed: o.Seed, MaxMixedItems: o.MaxItems}, in, types)
	}
	inst, dims, items, units, err := newSizingInstance(in.Cluster, in.Demand, types[0].Group)
	if err != nil {
		return nil, groupError(err)
	}
	if err := checkOneTypeItems(in.Demand.Source, inst, o.MaxItems); err != nil {
		return nil, err
	}
	return sizeOneType(h, o.Seed, inst, dims, items, units)
}

// groupError makes an unknown node group an option error.
func groupError(err error) error {
	if errors.Is(err, errNoSuchGroup) {
		return &OptionError{err}
	}
	return err
}

// sizeOneType solves and checks a one-type sizing instance.
func sizeOneType(h plan.Header, seed uint64, inst *vbp.Instance, dims []string, items []sizingItem, units []float64) (*plan.PackingPlan, error) {
	res, err := vbp.Solve(inst, vbp.Options{Seed: seed})
	if err != nil {
		return nil, err
	}
	if err := vbp.Check(inst, res.Packing); err != nil {
		return nil, fmt.Errorf("internal error: %w", err)
	}
	return newSizingPlan(h, dims, inst, res, items, units), nil
}

// sizeMixed sizes with several node types and costs.
func sizeMixed(h plan.Header, opt vbp.Options, in *loaded, types []nodeTypeCost) (*plan.PackingPlan, error) {
	groups := make([]string, len(types))
	costs := make([]float64, len(types))
	for i, t := range types {
		groups[i], costs[i] = t.Group, t.Cost
	}
	mi, err := newMixedSizingInstance(in.Cluster, in.Demand, groups, costs)
	if err != nil {
		return nil, groupError(err)
	}
	res, err := vbp.SolveMixed(mi.Instance, opt)
	var many *vbp.TooManyItemsError
	if errors.As(err, &many) {
		return nil, fmt.Errorf("%s: %d containers, more than the %d a mix of node types is sized for (--max-items; its constructions grow with nodes × containers): raise --max-items, or size one node type (--node-type GROUP), whose limit is "+strconv.Itoa(DefaultMaxOneTypeItems)+" containers",
			in.Demand.Source, many.Items, many.Max)
	}
	if err != nil {
		return nil, err
	}
	if err := vbp.CheckMixed(mi.Instance, res); err != nil {
		return nil, fmt.Errorf("internal error: %w", err)
	}
	return newMixedSizingPlan(h, mi, res), nil
}
