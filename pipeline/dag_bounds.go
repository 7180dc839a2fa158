package pipeline

import (
	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/plan"
)

// DAGBoundsOptions are the options of DAGBounds (`capplan dag bounds`).
type DAGBoundsOptions struct {
	Input DAGInput
	// Generator names the tool in the document header.
	Generator string
}

// DAGBounds computes, for every job DAG of the input on the machines, the
// lower bounds on the makespan of any schedule (dag.LowerBounds: critical
// path, TWork, energy, NewLB, node packing, bin; best is the largest),
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
	flags := map[string]string{}
	o.Input.flags(flags)
	doc := &plan.DAGBounds{
		Header: header(plan.KindDAGBounds, o.Generator, ld.inputs, flags, nil),
		Format: ld.src.format, Pooled: ld.machines.pooled, Machines: ld.machines.docGroups(),
		Jobs: make([]plan.DAGJobInfo, len(ld.jobs)), Rejected: ld.rejected,
	}
	ld.machines.annotate(&doc.Header)
	err = o.Input.forEachJob(len(ld.jobs), func(i int) error {
		j := &ld.jobs[i]
		d, err := j.dag()
		if err != nil {
			return err
		}
		b := dag.LowerBounds(d, j.machines)
		info := newDAGJobInfo(d, b)
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
