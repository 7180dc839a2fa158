package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/plan"
)

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
