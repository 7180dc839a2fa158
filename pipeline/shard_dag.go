package pipeline

import (
	"cmp"
	"encoding/json"
	"fmt"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/plan"
)

// Commands that write parts, as Part.Command names them.
const (
	CommandSweep       = "sweep"
	CommandDAGSchedule = "dag schedule"
	CommandDAGBounds   = "dag bounds"
	CommandDAGCheck    = "dag check"
)

// dagShard is the shard a DAG job runs (DAGInput.shard): which shard, the
// cost model of the command, and, once the jobs are known, the split.
type dagShard struct {
	shard plan.Shard
	cost  func(d *dag.DAG) int64
	items int
	split shardPlan
	slice []int
}

// takeShard returns the items of shard s (nil: all items), splitting them
// by the estimated cost of their DAGs (splitLPT, ties by input order) and
// recording the split in s.
func takeShard[T any](s *dagShard, items []T, dagOf func(T) *dag.DAG) []T {
	if s == nil {
		return items
	}
	costs := make([]int64, len(items))
	for i := range items {
		if d := dagOf(items[i]); d != nil { // nil: a job that fails to build, left to its shard to report
			costs[i] = s.cost(d)
		}
	}
	s.items = len(items)
	s.split = splitLPT(costs, s.shard.Count, cmp.Compare[int])
	s.slice = s.split.slice(s.shard.Index)
	out := make([]T, len(s.slice))
	for k, i := range s.slice {
		out[k] = items[i]
	}
	return out
}

// DAGSchedulePart runs shard sh of DAGSchedule: every shard reads the whole
// input, splits the jobs by their estimated cost (dagScheduleCost) and
// schedules its slice.
func DAGSchedulePart(o DAGScheduleOptions, sh plan.Shard) (*plan.Part, error) {
	s := &dagShard{shard: sh, cost: func(d *dag.DAG) int64 { return dagScheduleCost(o.Method, len(o.Compare), d) }}
	o.Input.shard = s
	res, err := DAGSchedule(o)
	if err != nil {
		return nil, err
	}
	return newPart(CommandDAGSchedule, res.Doc.Header, s, res.Doc)
}

// DAGBoundsPart runs shard sh of DAGBounds.
func DAGBoundsPart(o DAGBoundsOptions, sh plan.Shard) (*plan.Part, error) {
	s := &dagShard{shard: sh, cost: dagBoundsCost}
	o.Input.shard = s
	doc, err := DAGBounds(o)
	if err != nil {
		return nil, err
	}
	return newPart(CommandDAGBounds, doc.Header, s, doc)
}

// DAGCheckPart runs shard sh of DAGCheck.
func DAGCheckPart(o DAGCheckOptions, sh plan.Shard) (*plan.Part, error) {
	s := &dagShard{shard: sh, cost: dagBoundsCost}
	o.Input.shard = s
	doc, err := DAGCheck(o)
	if err != nil {
		return nil, err
	}
	return newPart(CommandDAGCheck, doc.Header, s, doc)
}

// newPart wraps the partial document of a DAG shard.
func newPart(command string, h plan.Header, s *dagShard, doc any) (*plan.Part, error) {
	data, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("internal error: encoding the part: %w", err)
	}
	return &plan.Part{
		Header:   plan.Header{APIVersion: plan.APIVersion, Kind: plan.KindPart, Generator: h.Generator, Inputs: h.Inputs, Flags: h.Flags, Seed: h.Seed},
		Command:  command,
		Document: h.Kind,
		Run:      plan.RunDigest(command, h.Kind, h, s.items),
		Shard:    s.shard,
		Items:    s.items,
		Slice:    s.slice,
		Cost:     s.split.cost(s.shard.Index, costUnit),
		Result:   data,
	}, nil
}
