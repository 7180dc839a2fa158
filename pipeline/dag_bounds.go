package pipeline

import (
	"fmt"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/internal/par"
	"github.com/capplan/capplan/plan"
)

// DAGBoundsOptions are the options of DAGBounds (`capplan dag bounds`).
type DAGBoundsOptions struct {
	Input DAGInput
	// Budget bounds the destructive bounds per job.
	Budget DAGBudget
	// Timings records each bound's wall-clock seconds (the one
	// machine-dependent field of the document).
	Timings bool
	// Generator names the tool in the document header.
	Generator string
}

// DAGBounds computes, for every job DAG of the input on the machines, the
// lower bounds on the makespan of any schedule (dag.AllBounds: critical
// path, TWork, energy, NewLB, node packing, bin, then within the budget the
// destructive stage, energetic, LP and search bounds; best is the largest
// and bestBy names it),
// with the observed run time and its gap for Alibaba traces. Jobs are read
// and paired with their machines as for DAGSchedule.
func DAGBounds(o DAGBoundsOptions) (*plan.DAGBounds, error) {
	if err := o.Input.validate(); err != nil {
		return nil, err
	}
	ld, err := o.Input.load()
	if err != nil {
		return nil, err
	}
	if err := o.Budget.validate(); err != nil {
		return nil, err
	}
	flags := map[string]string{}
	o.Input.flags(flags)
	o.Budget.flags(flags)
	if o.Timings {
		flags["timings"] = "true"
	}
	doc := &plan.DAGBounds{
		Header: header(plan.KindDAGBounds, o.Generator, ld.inputs, flags, nil),
		Format: ld.src.format, Pooled: ld.machines.pooled, Machines: ld.machines.docGroups(),
		Jobs: make([]plan.DAGJobInfo, len(ld.jobs)), Rejected: ld.rejected,
	}
	ld.machines.annotate(&doc.Header)
	inner := par.Share(len(ld.jobs), o.Input.Workers)
	err = o.Input.forEachJob(len(ld.jobs), func(i int) error {
		j := &ld.jobs[i]
		d, err := j.dag()
		if err != nil {
			return err
		}
		b, err := dag.AllBounds(d, j.machines, 0, o.Budget.options(0, inner))
		if err != nil {
			return fmt.Errorf("job %s: %w", d.Name, err)
		}
		info := newDAGJobInfo(d, b, o.Timings)
		if j.observed != nil {
			span := d.Seconds(*j.observed)
			g := dag.Gap(*j.observed, b.Best)
			info.ObservedSpan, info.ObservedGap = &span, &g
		}
		doc.Jobs[i] = info
		return nil
	})
	if err != nil {
		return nil, err
	}
	return doc, nil
}
