package main

import (
	"github.com/spf13/pflag"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/pipeline"
)

// bindInputs binds the input flags of the commands that read a cluster and
// a demand to in.
func bindInputs(f *pflag.FlagSet, in *pipeline.Inputs) {
	f.StringVarP(&in.ClusterPath, "cluster", "c", "", "cluster inventory `file` (capplan Cluster or kubectl get nodes -o json)")
	f.StringVarP(&in.DemandPath, "demand", "d", "", "demand `file` (capplan Demand)")
	f.BoolVar(&in.Example, "example", false, "use the embedded example cluster and demand")
	f.StringVar(&in.RackLabel, "rack-label", datasets.RackLabel, "node label holding the rack, for kubectl node lists")
}

// validateInputs checks that the flags name a cluster and a demand, or the
// example.
func validateInputs(in *pipeline.Inputs) error {
	switch {
	case in.Example && (in.ClusterPath != "" || in.DemandPath != ""):
		return usageErrorf("--example cannot be combined with --cluster or --demand")
	case !in.Example && (in.ClusterPath == "" || in.DemandPath == ""):
		return usageErrorf("both --cluster and --demand are required (or --example)")
	}
	return nil
}
