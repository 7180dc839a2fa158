package datasets

import (
	"slices"
	"strings"
	"testing"
)

const sweepHead = "apiVersion: capplan/v1\nkind: Sweep\n"

func TestParseSweep(t *testing.T) {
	text := sweepHead + `cluster: c.yaml
baseline: drf
tick: 10ms
noiseMode: median
params:
  tetris.f: [0, 0.5]
  drf.entity: [user]
loads: [0.6, 0.8]
workloads:
  - jobs.yaml
  - {generator: fb, params: {jobs: 500, users: 4}, name: small}
  - {example: true, demand: d.yaml}
policies: [drf, {name: tetris, params: {m: 0.1}}]
seeds: 3..5
noise: 0.2
sizes: [10, 20]
altruism: [0, 1]
`
	s, err := ParseSweep("sweep.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	// Axes nest in file order; the parameter axes keep theirs.
	wantOrder := []string{AxisParams, AxisLoads, AxisWorkloads, AxisPolicies, AxisSeeds, AxisNoise, AxisSizes, AxisAltruism}
	if !slices.Equal(s.Order, wantOrder) {
		t.Errorf("order %v, want %v", s.Order, wantOrder)
	}
	if len(s.Params) != 2 || s.Params[0].Policy != "tetris" || s.Params[0].Key != "f" || !slices.Equal(s.Params[0].Values, []string{"0", "0.5"}) ||
		s.Params[1].Policy != "drf" {
		t.Errorf("params %+v", s.Params)
	}
	if s.Baseline != "drf" || s.Tick != "10ms" || s.TickSeconds != 0.01 || s.NoiseMode != "median" {
		t.Errorf("settings %+v", s)
	}
	if !slices.Equal(s.Seeds, []uint64{3, 4, 5}) || !slices.Equal(s.Loads, []float64{0.6, 0.8}) || !slices.Equal(s.Noise, []float64{0.2}) ||
		!slices.Equal(s.Sizes, []int{10, 20}) || !slices.Equal(s.Altruism, []float64{0, 1}) {
		t.Errorf("axes %v %v %v %v %v", s.Seeds, s.Loads, s.Noise, s.Sizes, s.Altruism)
	}
	w := s.Workloads
	if len(w) != 3 || w[0].File != "jobs.yaml" || w[0].Cluster != "c.yaml" || w[0].Path != "workloads[0]" ||
		w[1].Generator != "fb" || w[1].Name != "small" || w[1].Params["jobs"] != "500" || w[1].Params["users"] != "4" ||
		w[1].Cluster != "" || !w[2].Example || w[2].Demand != "d.yaml" || w[2].Cluster != "" {
		t.Errorf("workloads %+v", w)
	}
	if p := s.Policies; len(p) != 2 || p[0].Name != "drf" || p[1].Name != "tetris" || p[1].Params["m"] != "0.1" {
		t.Errorf("policies %+v", p)
	}
	// Defaults: seed 1, tick 1ms, noise of mean 1.
	d, err := ParseSweep("d.yaml", []byte(sweepHead+"workloads: [{generator: fb}]\npolicies: [fifo]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Seeds, []uint64{1}) || d.Tick != "1ms" || d.NoiseMode != "mean" || !slices.Equal(d.Order, []string{AxisWorkloads, AxisPolicies, AxisSeeds}) {
		t.Errorf("defaults %+v", d)
	}
	// JSON reads the same.
	j, err := ParseSweep("s.json", []byte(`{"apiVersion": "capplan/v1", "kind": "Sweep", "seeds": [2, 1], "policies": ["fifo"], "workloads": [{"generator": "fb"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(j.Order, []string{AxisSeeds, AxisPolicies, AxisWorkloads}) || !slices.Equal(j.Seeds, []uint64{2, 1}) {
		t.Errorf("JSON: order %v seeds %v", j.Order, j.Seeds)
	}
}

func TestParseSweepErrors(t *testing.T) {
	ok := "workloads: [{generator: fb}]\npolicies: [fifo]\n"
	cases := []struct {
		name, text string
		want       []wantProblem
	}{
		{"no axes", "", []wantProblem{{"workloads", "missing required field"}, {"policies", "missing required field"}}},
		{"typo", ok + "seed: [1]\n", []wantProblem{{"seed", `unknown field; did you mean "seeds"?`}}},
		{"two kinds", "workloads: [{generator: fb, file: x.yaml}]\npolicies: [fifo]\n", []wantProblem{{"workloads[0]", "exactly one of file, generator and example"}}},
		{"empty range", ok + "seeds: 9..2\n", []wantProblem{{"seeds", `the range "9..2" is empty`}}},
		{"bad range", ok + "seeds: one..two\n", []wantProblem{{"seeds", "want a range FIRST..LAST"}}},
		{"negative seed", ok + "seeds: [1, -2]\n", []wantProblem{{"seeds[1]", "must be at least 0, got -2"}}},
		{"negative load", ok + "loads: [0.5, -1]\n", []wantProblem{{"loads[1]", "must be a number ≥ 0, got -1"}}},
		{"repeated load", ok + "loads: [0.5, 0.5]\n", []wantProblem{{"loads[1]", "repeats the value 0.5"}}},
		{"quoted number", ok + "noise: ['0.1']\n", []wantProblem{{"noise[0]", `must be a number, got the string "0.1"`}}},
		{"altruism above 1", ok + "altruism: [2]\n", []wantProblem{{"altruism[0]", "must be a number in [0, 1], got 2"}}},
		{"fractional size", ok + "sizes: [1.5]\n", []wantProblem{{"sizes[0]", "must be a whole number of machines"}}},
		{"param key", ok + "params: {f: [1]}\n", []wantProblem{{"params.f", "want POLICY.KEY"}}},
		{"param value", ok + "params: {tetris.f: [[1]]}\n", []wantProblem{{`params["tetris.f"][0]`, "must be a number, a string or a boolean"}}},
		{"tick", ok + "tick: 5ms\n", []wantProblem{{"tick", `got "5ms", want 1ms, 10ms, 100ms or 1s`}}},
		{"empty lists", "workloads: []\npolicies: []\n", []wantProblem{{"workloads", "list at least one workload"}, {"policies", "list at least one policy"}}},
		{"kind", "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			head := sweepHead
			if tc.name == "kind" {
				head = "apiVersion: capplan/v1\nkind: Workload\n"
				tc.want = []wantProblem{{"kind", `got "Workload", want "Sweep"`}}
			}
			_, err := ParseSweep("sweep.yaml", []byte(head+tc.text))
			checkProblems(t, err, "sweep.yaml", tc.want)
		})
	}
}

func FuzzParseSweep(f *testing.F) {
	f.Add([]byte(sweepHead + "workloads: [{generator: fb, params: {jobs: 5}}]\npolicies: [fifo, {name: drf}]\nseeds: 1..3\nloads: [0.5]\nparams: {drf.entity: [job]}\n"))
	f.Add([]byte(`{"apiVersion": "capplan/v1", "kind": "Sweep", "workloads": ["w.yaml"], "policies": ["x"], "sizes": [2]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSweep("fuzz", data)
		checkOutcome(t, s != nil, err)
		if s == nil {
			return
		}
		if len(s.Workloads) == 0 || len(s.Policies) == 0 || len(s.Seeds) == 0 || s.TickSeconds <= 0 {
			t.Fatalf("accepted a sweep without axes: %+v", s)
		}
		for _, a := range s.Order {
			if !slices.Contains(sweepAxes, a) || strings.Contains(a, ".") {
				t.Fatalf("order %v", s.Order)
			}
		}
	})
}
