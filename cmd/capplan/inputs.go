package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/plan"
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

// load reads the cluster and demand and checks the demand against the
// cluster.
func (o *inputOptions) load() (*inputFiles, error) {
	in, err := loadClusterDemand(o.ClusterPath, o.DemandPath, o.Example, datasets.LoadOptions{RackLabel: o.RackLabel})
	if err != nil {
		return nil, err
	}
	if err := datasets.CheckDemand(in.Cluster, in.Demand); err != nil {
		return nil, err
	}
	return in, nil
}

// inputFiles reads the cluster and demand named by flags, or the embedded
// example when example is set, and returns them with their digests.
type inputFiles struct {
	Cluster   *datasets.Cluster
	Demand    *datasets.Demand
	Inputs    []plan.Input
	RackLabel string
}

func loadClusterDemand(clusterPath, demandPath string, example bool, opts datasets.LoadOptions) (*inputFiles, error) {
	var in inputFiles
	if example {
		files := datasets.ExampleFiles()
		for _, f := range []struct{ role, name string }{{"cluster", "cluster.yaml"}, {"demand", "demand.yaml"}} {
			data := files[f.name]
			in.Inputs = append(in.Inputs, plan.Input{Role: f.role, Path: "example:" + f.name, SHA256: digest(data)})
			var err error
			if f.role == "cluster" {
				in.Cluster, err = datasets.ParseCluster("example:"+f.name, data, opts)
			} else {
				in.Demand, err = datasets.ParseDemand("example:"+f.name, data)
			}
			if err != nil {
				return nil, fmt.Errorf("embedded example is invalid: %w", err)
			}
		}
		return &in, nil
	}
	cdata, err := readInput(clusterPath)
	if err != nil {
		return nil, err
	}
	ddata, err := readInput(demandPath)
	if err != nil {
		return nil, err
	}
	if in.Cluster, err = datasets.ParseCluster(clusterPath, cdata, opts); err != nil {
		return nil, err
	}
	if in.Demand, err = datasets.ParseDemand(demandPath, ddata); err != nil {
		return nil, err
	}
	in.Inputs = []plan.Input{
		{Role: "cluster", Path: clusterPath, SHA256: digest(cdata)},
		{Role: "demand", Path: demandPath, SHA256: digest(ddata)},
	}
	return &in, nil
}

func readInput(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading input: %w", err)
	}
	return data, nil
}

func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
