package pipeline

import (
	"fmt"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/inputerr"
	"github.com/capplan/capplan/plan"
)

// Inputs names the cluster and the demand of a job: two files, the
// embedded example, or values the caller has already loaded or generated.
type Inputs struct {
	// ClusterPath is a capplan Cluster or a `kubectl get nodes -o json`
	// list; DemandPath a capplan Demand.
	ClusterPath, DemandPath string
	// Example uses the embedded example cluster and demand.
	Example bool
	// RackLabel is the node label holding the rack in kubectl node lists
	// ("" = datasets.RackLabel).
	RackLabel string
	// Pods makes a kubectl node's pod limit a resource dimension.
	Pods bool
	// Cluster and Demand, when set, are used as they are and no file is
	// read; the document then lists no inputs.
	Cluster *datasets.Cluster
	Demand  *datasets.Demand
}

// loaded is a cluster and a demand with the digests of their files.
type loaded struct {
	Cluster *datasets.Cluster
	Demand  *datasets.Demand
	Inputs  []plan.Input
}

// load reads the cluster and the demand, checks the demand against the
// cluster (datasets.CheckDemand) and leaves out the nodes whose taints no
// application tolerates (datasets.Schedulable; they join the cluster's
// Excluded nodes).
func (in Inputs) load() (*loaded, error) {
	l, err := in.read()
	if err != nil {
		return nil, err
	}
	if err := datasets.CheckDemand(l.Cluster, l.Demand); err != nil {
		return nil, err
	}
	l.Cluster = datasets.Schedulable(l.Cluster, l.Demand)
	return l, nil
}

// annotate records in a document header the nodes of c left out of the
// plan and the notes on how c was read.
func annotate(h *plan.Header, c *datasets.Cluster) {
	h.Excluded = nil
	for _, x := range c.Excluded {
		h.Excluded = append(h.Excluded, plan.ExcludedNode{Node: x.Node, Reason: x.Reason})
	}
	h.Notes = c.Notes
}

func (in Inputs) read() (*loaded, error) {
	opts := datasets.LoadOptions{RackLabel: in.RackLabel, Pods: in.Pods}
	switch {
	case in.Cluster != nil || in.Demand != nil:
		if in.Cluster == nil || in.Demand == nil {
			return nil, fmt.Errorf("pipeline: a loaded cluster needs a loaded demand and the other way round")
		}
		return &loaded{Cluster: in.Cluster, Demand: in.Demand}, nil
	case in.Example:
		var l loaded
		files := datasets.ExampleFiles()
		for _, f := range []struct{ role, name string }{{"cluster", "cluster.yaml"}, {"demand", "demand.yaml"}} {
			data := files[f.name]
			l.Inputs = append(l.Inputs, plan.Input{Role: f.role, Path: "example:" + f.name, SHA256: plan.Digest(data)})
			var err error
			if f.role == "cluster" {
				l.Cluster, err = datasets.ParseCluster("example:"+f.name, data, opts)
			} else {
				l.Demand, err = datasets.ParseDemand("example:"+f.name, data)
			}
			if err != nil {
				return nil, fmt.Errorf("embedded example is invalid: %w", err)
			}
		}
		return &l, nil
	}
	cdata, err := datasets.ReadFile(in.ClusterPath, 0)
	if err != nil {
		return nil, err
	}
	ddata, err := datasets.ReadFile(in.DemandPath, 0)
	if err != nil {
		return nil, err
	}
	l := &loaded{Inputs: []plan.Input{
		{Role: "cluster", Path: in.ClusterPath, SHA256: plan.Digest(cdata)},
		{Role: "demand", Path: in.DemandPath, SHA256: plan.Digest(ddata)},
	}}
	if l.Cluster, err = datasets.ParseCluster(inputerr.FileName(in.ClusterPath), cdata, opts); err != nil {
		return nil, err
	}
	if l.Demand, err = datasets.ParseDemand(inputerr.FileName(in.DemandPath), ddata); err != nil {
		return nil, err
	}
	return l, nil
}

// header starts a document header: what made it and from what.
func header(kind, generator string, inputs []plan.Input, flags map[string]string, seed *int64) plan.Header {
	return plan.Header{APIVersion: plan.APIVersion, Kind: kind, Generator: generator, Inputs: inputs, Flags: flags, Seed: seed}
}
