package main

import (
	"github.com/spf13/pflag"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/pipeline"
)

// inputOptions are the input flags of the commands that read a cluster and
// a demand.
type inputOptions struct {
	ClusterPath string
	DemandPath  string
	Example     bool
	RackLabel   string
}

func (o *inputOptions) bind(f *pflag.FlagSet) {
	f.StringVarP(&o.ClusterPath, "cluster", "c", "", "cluster inventory `file` (capplan Cluster or kubectl get nodes -o json)")
	f.StringVarP(&o.DemandPath, "demand", "d", "", "demand `file` (capplan Demand)")
	f.BoolVar(&o.Example, "example", false, "use the embedded example cluster and demand")
	f.StringVar(&o.RackLabel, "rack-label", datasets.RackLabel, "node label holding the rack, for kubectl node lists")
}

func (o *inputOptions) validate() error {
	switch {
	case o.Example && (o.ClusterPath != "" || o.DemandPath != ""):
		return usageErrorf("--example cannot be combined with --cluster or --demand")
	case !o.Example && (o.ClusterPath == "" || o.DemandPath == ""):
		return usageErrorf("both --cluster and --demand are required (or --example)")
	}
	return nil
}

// inputs are the pipeline's inputs named by the flags.
func (o *inputOptions) inputs() pipeline.Inputs {
	return pipeline.Inputs{ClusterPath: o.ClusterPath, DemandPath: o.DemandPath, Example: o.Example, RackLabel: o.RackLabel}
}
