package datasets

import (
	"errors"
	"math/big"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/labels"
)

const demandHead = "apiVersion: capplan/v1\nkind: Demand\napplications:\n"

func TestParseDemandRejects(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []wantProblem
	}{
		{"no applications field", "apiVersion: capplan/v1\nkind: Demand\n", []wantProblem{{"applications", "missing required field"}}},
		{"no applications", "apiVersion: capplan/v1\nkind: Demand\napplications: []\n", []wantProblem{{"applications", "the demand has no applications"}}},
		{"wrong kind", "apiVersion: capplan/v1\nkind: Cluster\n", []wantProblem{{"kind", `got "Cluster", want "Demand"`}}},
		{"name missing", demandHead + "- {weight: 2}\n", []wantProblem{{"applications[0].name", "missing required field"}}},
		{"duplicate names", demandHead + "- {name: a}\n- {name: b}\n- {name: a}\n", []wantProblem{{"applications[2].name", `duplicate application name "a" (first used by applications[0])`}}},
		{"weight zero", demandHead + "- {name: a, weight: 0}\n", []wantProblem{{"applications[0].weight", "must be > 0, got 0"}}},
		{"weight negative", demandHead + "- {name: a, weight: -1.5}\n", []wantProblem{{"applications[0].weight", "must be > 0, got -1.5"}}},
		{"weight too large", demandHead + "- {name: a, weight: 1e13}\n", []wantProblem{{"applications[0].weight", "must be at most 1e+12"}}},
		{"weight out of float range", `{"apiVersion": "capplan/v1", "kind": "Demand", "applications": [{"name": "a", "weight": 1e400}]}`,
			[]wantProblem{{"applications[0].weight", "number 1e400 is out of range"}}},
		{"weight quoted", demandHead + "- {name: a, weight: '2'}\n", []wantProblem{{"applications[0].weight", `must be a number, got the string "2" (remove the quotes)`}}},
		{"maxMachines zero", demandHead + "- {name: a, maxMachines: 0}\n", []wantProblem{{"applications[0].maxMachines", "must be at least 1, got 0"}}},
		{"maxMachines fractional", demandHead + "- {name: a, maxMachines: 1.5}\n", []wantProblem{{"applications[0].maxMachines", "must be a whole number"}}},
		{"selector unparsable", demandHead + "- {name: a, selector: 'zone in (a'}\n", []wantProblem{{"applications[0].selector", `invalid label selector "zone in (a"`}}},
		{"selector with a bad key", demandHead + "- {name: a, selector: '-x=1'}\n", []wantProblem{{"applications[0].selector", "invalid label selector"}}},
		{"selector not a string", demandHead + "- {name: a, selector: {zone: a}}\n", []wantProblem{{"applications[0].selector", "must be a string, got a mapping"}}},
		{"minCapacity zero and unparsable", demandHead + "- {name: a, minCapacity: {cpu: 0, memory: big}}\n",
			[]wantProblem{{"applications[0].minCapacity.cpu", "must be > 0"}, {"applications[0].minCapacity.memory", `invalid quantity "big"`}}},
		{"minCapacity not a mapping", demandHead + "- {name: a, minCapacity: 4}\n", []wantProblem{{"applications[0].minCapacity", "must be a mapping"}}},
		{"sharing both", demandHead + "- {name: a, sharing: {bound: 1, alone: true}}\n", []wantProblem{{"applications[0].sharing", "give bound or alone, not both"}}},
		{"sharing empty", demandHead + "- {name: a, sharing: {}}\n", []wantProblem{{"applications[0].sharing", "give {bound: NUMBER} or {alone: true}"}}},
		{"sharing bound negative", demandHead + "- {name: a, sharing: {bound: -0.1}}\n", []wantProblem{{"applications[0].sharing.bound", "must be ≥ 0, got -0.1"}}},
		{"sharing alone not a boolean", demandHead + "- {name: a, sharing: {alone: 1}}\n", []wantProblem{{"applications[0].sharing.alone", "must be true or false"}}},
		{"sharing unknown field", demandHead + "- {name: a, sharing: {bund: 1}}\n",
			[]wantProblem{{"applications[0].sharing.bund", `did you mean "bound"?`}, {"applications[0].sharing", "give {bound: NUMBER} or {alone: true}"}}},
		{"requests not a list", demandHead + "- {name: a, requests: {shape: {cpu: 1}, count: 1}}\n", []wantProblem{{"applications[0].requests", "must be a list"}}},
		{"colocateWith unknown and self", demandHead + "- {name: a, colocateWith: [b, a, zz]}\n- {name: b}\n",
			[]wantProblem{{"applications[0].colocateWith[1]", "cannot be colocated with itself"}, {"applications[0].colocateWith[2]", `names no application of the demand: "zz"`}}},
		{"exlocateWith self and repeat", demandHead + "- {name: a}\n- {name: b, exlocateWith: [b, a, a]}\n",
			[]wantProblem{{"applications[1].exlocateWith[0]", "use maxPerNode: 1"}, {"applications[1].exlocateWith[2]", `repeats "a"`}}},
		{"exlocateWith not strings", demandHead + "- {name: a, exlocateWith: [1]}\n", []wantProblem{{"applications[0].exlocateWith[0]", "must be a string"}}},
		{"maxPerNode zero", demandHead + "- {name: a, maxPerNode: 0}\n", []wantProblem{{"applications[0].maxPerNode", "must be between 1 and 2147483647, got 0"}}},
		{"request shape missing", demandHead + "- {name: a, requests: [{count: 3}]}\n", []wantProblem{{"applications[0].requests[0].shape", "missing required field"}}},
		{"request shape empty", demandHead + "- {name: a, requests: [{shape: {}, count: 3}]}\n", []wantProblem{{"applications[0].requests[0].shape", "is empty"}}},
		{"request shape zero", demandHead + "- {name: a, requests: [{shape: {cpu: 0}, count: 3}]}\n", []wantProblem{{"applications[0].requests[0].shape.cpu", "must be > 0"}}},
		{"request count and duration", demandHead + "- {name: a, requests: [{shape: {cpu: 1}, count: 0, duration: 0}]}\n",
			[]wantProblem{{"applications[0].requests[0].count", "must be at least 1, got 0"}, {"applications[0].requests[0].duration", "must be > 0 seconds, got 0"}}},
		{"request unknown field", demandHead + "- {name: a, requests: [{shape: {cpu: 1}, count: 1, cout: 2}]}\n",
			[]wantProblem{{"applications[0].requests[0].cout", `did you mean "count"?`}}},
		{"unknown application field", demandHead + "- {name: a, weigth: 2}\n", []wantProblem{{"applications[0].weigth", `did you mean "weight"?`}}},
		{"every problem of a file", demandHead + `- {name: web, weight: 0, selector: "zone in (a"}
- {name: web, maxMachines: -1, sharing: {bound: 1, alone: true}}
- {weight: 2, requests: [{shape: {cpu: 1Q}, count: 1}, {shape: {cpu: 1}}]}
`, []wantProblem{
			{"applications[0].weight", "must be > 0"},
			{"applications[0].selector", "invalid label selector"},
			{"applications[1].maxMachines", "got -1"},
			{"applications[1].sharing", "not both"},
			{"applications[1].name", "duplicate application name"},
			{"applications[2].name", "missing required field"},
			{"applications[2].requests[0].shape.cpu", "invalid quantity"},
			{"applications[2].requests[1].count", "missing required field"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ParseDemand("d.yaml", []byte(tc.in))
			if d != nil {
				t.Errorf("got a demand despite problems")
			}
			checkProblems(t, err, "d.yaml", tc.want)
		})
	}
}

func TestParseDemandModel(t *testing.T) {
	in := "---\n" + demandHead + `- {name: a}
- name: b
  weight: 2.25
  maxMachines: 30
  selector: "zone in (a,b),!spot"
  minCapacity: {memory: 64Gi}
  sharing: {bound: 0.05}
  requests:
  - {shape: {cpu: 2, memory: 4Gi}, count: 100, duration: 30.5}
- {name: c, weight: 0.5, sharing: {alone: true}, colocateWith: [b], exlocateWith: [a], maxPerNode: 3}
`
	d := mustDemand(t, "d.yaml", []byte(in))
	a, b, c := d.Applications[0], d.Applications[1], d.Applications[2]
	if a.Weight.Cmp(big.NewRat(1, 1)) != 0 || a.MaxMachines != 0 || a.SelectorText != "" || !a.Selector.Empty() {
		t.Errorf("defaults: weight %v, maxMachines %d, selector %q", a.Weight, a.MaxMachines, a.SelectorText)
	}
	// 2.25 is kept exactly as 9/4.
	if b.Weight.Cmp(big.NewRat(9, 4)) != 0 || b.MaxMachines != 30 {
		t.Errorf("b: weight %v, maxMachines %d", b.Weight, b.MaxMachines)
	}
	if !b.Selector.Matches(labels.Set{"zone": "b"}) || b.Selector.Matches(labels.Set{"zone": "b", "spot": "true"}) {
		t.Errorf("b: selector %v matches wrongly", b.Selector)
	}
	mem := b.MinCapacity["memory"]
	if m, _ := Milli(mem); m != 64<<30*1000 {
		t.Errorf("b: minCapacity memory milli %d", m)
	}
	if b.Sharing.Bound == nil || *b.Sharing.Bound != 0.05 || b.Sharing.Alone {
		t.Errorf("b: sharing %+v", b.Sharing)
	}
	r := b.Requests[0]
	if r.Count != 100 || r.Duration != 30.5 || formatQuantities(r.Shape) != "cpu=2, memory=4Gi" {
		t.Errorf("b: request %+v", r)
	}
	if c.Weight.Cmp(big.NewRat(1, 2)) != 0 || !c.Sharing.Alone || c.Sharing.Bound != nil {
		t.Errorf("c: weight %v sharing %+v", c.Weight, c.Sharing)
	}
	if !slices.Equal(c.ColocateWith, []string{"b"}) || !slices.Equal(c.ExlocateWith, []string{"a"}) || c.MaxPerNode != 3 {
		t.Errorf("c: colocateWith %v exlocateWith %v maxPerNode %d", c.ColocateWith, c.ExlocateWith, c.MaxPerNode)
	}
	if a.ColocateWith != nil || a.ExlocateWith != nil || a.MaxPerNode != 0 {
		t.Errorf("a: placement rules %v %v %d, want none", a.ColocateWith, a.ExlocateWith, a.MaxPerNode)
	}
}

func TestIntegerWeights(t *testing.T) {
	rat := func(a, b int64) *big.Rat { return big.NewRat(a, b) }
	cases := []struct {
		name    string
		weights []*big.Rat
		want    []int64
		wantErr error
	}{
		// LCM of denominators 2, 4, 1 is 4: 0.5·4 = 2, 2.25·4 = 9, 1·4 = 4; GCD 1.
		{"decimals", []*big.Rat{rat(1, 2), rat(9, 4), rat(1, 1)}, []int64{2, 9, 4}, nil},
		// 2, 4, 6 divided by their GCD 2.
		{"common factor removed", []*big.Rat{rat(2, 1), rat(4, 1), rat(6, 1)}, []int64{1, 2, 3}, nil},
		// 1/3 and 1/6: LCM 6 gives 2 and 1.
		{"thirds", []*big.Rat{rat(1, 3), rat(1, 6)}, []int64{2, 1}, nil},
		{"nil weight counts as 1", []*big.Rat{nil, rat(3, 2)}, []int64{2, 3}, nil},
		{"one application", []*big.Rat{rat(7, 5)}, []int64{1}, nil},
		{"none", nil, []int64{}, nil},
		// 10^12 and 10^-1: ratio 10^13 cannot fit under 10^12.
		{"too large", []*big.Rat{rat(1_000_000_000_000, 1), rat(1, 10)}, nil, ErrWeightsTooLarge},
		// at the limit: 10^12 and 1.
		{"at the limit", []*big.Rat{rat(1_000_000_000_000, 1), rat(1, 1)}, []int64{1_000_000_000_000, 1}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			apps := make([]Application, len(tc.weights))
			for i, w := range tc.weights {
				apps[i] = Application{Name: string(rune('a' + i)), Weight: w}
			}
			got, err := IntegerWeights(apps)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			if err == nil && !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			// Ratios are exact: w_i · got_j = w_j · got_i.
			for i := range got {
				for j := range got {
					l := new(big.Rat).Mul(weightOf(&apps[i]), big.NewRat(got[j], 1))
					r := new(big.Rat).Mul(weightOf(&apps[j]), big.NewRat(got[i], 1))
					if l.Cmp(r) != 0 {
						t.Errorf("ratio %d:%d not kept", i, j)
					}
				}
			}
		})
	}
	if _, err := IntegerWeights([]Application{{Name: "z", Weight: rat(0, 1)}}); err == nil {
		t.Errorf("weight 0 accepted")
	}
}
