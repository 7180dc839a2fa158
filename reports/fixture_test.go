package reports

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/capplan/capplan/plan"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// gib is 2^30 bytes: capacities are in base units (bytes) in documents.
const gib = 1 << 30

// choosyFigure1 is a FairShare document modelled on Figure 1 of Ghodsi et
// al., "Choosy" (EuroSys'13): four unit-weight applications on ten
// single-machine types m1..m10, with placement constraints
//
//	spark    may use m1, m2          (cap 2 machines, not binding)
//	presto   may use m1, m2, m3
//	ml-train may use m4, m5, m6      (the GPU machines)
//	batch    may use m4 .. m10
//
// The CMMF shares are 1.5, 1.5, 3 and 4 machines:
//
//	round 1: {spark, presto} can only use {m1,m2,m3}: 3 machines / 2 = 1.5
//	         each (spark takes ¾ of m1 and m2, presto ¼ of each plus m3);
//	round 2: ml-train can only use {m4,m5,m6}: level 3;
//	round 3: batch gets the rest, {m7..m10}: level 4.
//
// The independent-allocation baseline splits each machine equally among
// the applications that may use it: spark ½+½ = 1, presto ½+½+1 = 2,
// ml-train 3×½ = 1.5, batch 3×½+4 = 5.5; its minimum level is 1 < 1.5.
func choosyFigure1() *plan.FairShare {
	two := int64(2)
	small := map[string]float64{"cpu": 16, "memory": 64 * gib}
	gpu := map[string]float64{"cpu": 32, "memory": 128 * gib, "gpu": 4}
	big := map[string]float64{"cpu": 64, "memory": 256 * gib}
	var types []plan.MachineType
	for i, capacity := range []map[string]float64{small, small, small, gpu, gpu, gpu, big, big, big, big} {
		name := "m" + itoa(i+1)
		types = append(types, plan.MachineType{
			Name: name, Count: 1, Capacity: capacity,
			Labels: map[string]string{"machine": name},
			Groups: []string{name},
		})
	}
	nodes := []plan.NodeAssignment{
		{Node: "m1-0", Type: "m1", Users: []plan.NodeShare{{Application: "spark", Fraction: 0.75}, {Application: "presto", Fraction: 0.25}}},
		{Node: "m2-0", Type: "m2", Users: []plan.NodeShare{{Application: "spark", Fraction: 0.75}, {Application: "presto", Fraction: 0.25}}},
		{Node: "m3-0", Type: "m3", Users: []plan.NodeShare{{Application: "presto", Fraction: 1}}},
	}
	for i := 4; i <= 10; i++ {
		app := "ml-train"
		if i >= 7 {
			app = "batch"
		}
		nodes = append(nodes, plan.NodeAssignment{Node: "m" + itoa(i) + "-0", Type: "m" + itoa(i), Users: []plan.NodeShare{{Application: app, Fraction: 1}}})
	}
	return &plan.FairShare{
		Header: plan.Header{
			APIVersion: plan.APIVersion,
			Kind:       plan.KindFairShare,
			Generator:  "capplan v0.1.0",
			Inputs: []plan.Input{
				{Role: "cluster", Path: "examples/choosy-fig1/cluster.yaml", SHA256: "3f1c9a0e5b7d2c4a6e8f0b1d3c5e7a9b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c"},
				{Role: "demand", Path: "examples/choosy-fig1/demand.yaml", SHA256: "a7e2c4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f3a5c7e9b2d4f6a8c0e1b3d5f7a9c2"},
			},
			Flags: map[string]string{"method": "flow", "per-node": "true"},
		},
		Method:       "flow",
		Integral:     false,
		Resources:    []string{"cpu", "memory", "gpu"},
		MachineTypes: types,
		Shares: []plan.Share{
			{
				Application: "spark", Weight: 1, MaxMachines: &two,
				Machines: 1.5, MachinesExact: "3/2", Level: 1.5, LevelExact: "3/2",
				EligibleMachines: 2, Fraction: 0.75, Round: 1,
				ByType:      map[string]float64{"m1": 0.75, "m2": 0.75},
				Independent: 1,
			},
			{
				Application: "presto", Weight: 1,
				Machines: 1.5, MachinesExact: "3/2", Level: 1.5, LevelExact: "3/2",
				EligibleMachines: 3, Fraction: 0.5, Round: 1,
				ByType:      map[string]float64{"m1": 0.25, "m2": 0.25, "m3": 1},
				Independent: 2,
			},
			{
				Application: "ml-train", Weight: 1,
				Machines: 3, MachinesExact: "3", Level: 3, LevelExact: "3",
				EligibleMachines: 3, Fraction: 1, Round: 2,
				ByType:      map[string]float64{"m4": 1, "m5": 1, "m6": 1},
				Independent: 1.5,
			},
			{
				Application: "batch", Weight: 1,
				Machines: 4, MachinesExact: "4", Level: 4, LevelExact: "4",
				// 4 of its 7 eligible machines.
				EligibleMachines: 7, Fraction: 4.0 / 7, Round: 3,
				ByType:      map[string]float64{"m7": 1, "m8": 1, "m9": 1, "m10": 1},
				Independent: 5.5,
			},
		},
		Certificate: plan.Certificate{
			Kind:     "tightSets",
			Verified: true,
			Pieces: []plan.Piece{
				{Round: 1, Level: 1.5, LevelExact: "3/2", Applications: []string{"spark", "presto"}, MachineTypes: []string{"m1", "m2", "m3"}, Machines: 3, Allocated: 3},
				{Round: 2, Level: 3, LevelExact: "3", Applications: []string{"ml-train"}, MachineTypes: []string{"m4", "m5", "m6"}, Machines: 3, Allocated: 3},
				{Round: 3, Level: 4, LevelExact: "4", Applications: []string{"batch"}, MachineTypes: []string{"m7", "m8", "m9", "m10"}, Machines: 4, Allocated: 4},
			},
		},
		Summary: plan.Summary{
			Applications: 4, MachineTypes: 10, Machines: 10,
			Allocated: 10, Idle: 0, Rounds: 3,
			MinLevel: 1.5, IndependentMin: 1,
		},
		Nodes: nodes,
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// golden compares got with testdata/name, or rewrites the file with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test -update to accept):\n%s", path, lineDiff(string(want), string(got)))
	}
}

// lineDiff lists the lines that differ, as (-want +got).
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	b.WriteString("(-want +got)\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("line " + itoa(i+1) + ":\n-" + wl + "\n+" + gl + "\n")
		}
	}
	return b.String()
}
