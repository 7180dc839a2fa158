package export

import (
	"bytes"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/capplan/capplan/pipeline/pipelinetest"
	"github.com/capplan/capplan/plan"
)

// gib is 2^30 bytes: documents hold capacities in base units.
const gib = 1 << 30

// twoTypes is a small hand-made FairShare: 3 "cpu" machines (16 cores,
// 64Gi) and 2 "gpu" machines (32 cores, 256Gi, 4 GPUs), shared by
//
//	etl   weight 2, cap 3 machines: 2 cpu machines           (level 1)
//	svc   weight 1:                 1 cpu machine + 1/2 gpu  (level 1.5)
//	train weight 1.5:               1 1/2 gpu machines       (level 1)
//
// so per resource (exact):
//
//	etl:   cpu 32,  memory 128Gi, gpu 0
//	svc:   cpu 16 + 16 = 32, memory 64Gi + 128Gi = 192Gi, gpu 2
//	train: cpu 48, memory 384Gi, gpu 6
func twoTypes() *plan.FairShare {
	three := int64(3)
	return &plan.FairShare{
		Header:    plan.Header{APIVersion: plan.APIVersion, Kind: plan.KindFairShare, Generator: "capplan test"},
		Method:    "flow",
		Resources: []string{"cpu", "memory", "gpu"},
		MachineTypes: []plan.MachineType{
			{Name: "cpu", Count: 3, Capacity: map[string]float64{"cpu": 16, "memory": 64 * gib}, Labels: map[string]string{"pool": "cpu"}, Groups: []string{"cpu"}},
			{Name: "gpu", Count: 2, Capacity: map[string]float64{"cpu": 32, "memory": 256 * gib, "gpu": 4}, Labels: map[string]string{"pool": "gpu"}, Groups: []string{"gpu"}},
		},
		Shares: []plan.Share{
			{Application: "etl", Weight: 2, MaxMachines: &three, Machines: 2, MachinesExact: "2", ByType: map[string]float64{"cpu": 2}},
			{Application: "svc", Weight: 1, Machines: 1.5, MachinesExact: "3/2", ByType: map[string]float64{"cpu": 1, "gpu": 0.5}},
			{Application: "train", Weight: 1.5, Machines: 1.5, MachinesExact: "3/2", ByType: map[string]float64{"gpu": 1.5}},
		},
	}
}

// exampleInput is the embedded example's FairShare with its demand.
func exampleInput(t *testing.T, perNode bool) Input {
	t.Helper()
	fs := pipelinetest.FairShare(t)
	if perNode {
		fs = pipelinetest.FairSharePerNode(t)
	}
	return Input{FairShare: fs, Demand: pipelinetest.Demand(t)}
}

// fileData returns the content of the export's file path.
func fileData(t *testing.T, e *Export, path string) []byte {
	t.Helper()
	for _, f := range e.Files {
		if f.Path == path {
			return f.Data
		}
	}
	t.Fatalf("export has no file %s", path)
	return nil
}

// yamlDocuments splits a YAML stream into its documents, dropping any
// that hold only comments.
func yamlDocuments(data []byte) [][]byte {
	var out [][]byte
	for _, doc := range bytes.Split(data, []byte("\n---\n")) {
		var v any
		if err := yaml.Unmarshal(doc, &v); err == nil && v == nil {
			continue
		}
		out = append(out, doc)
	}
	return out
}
