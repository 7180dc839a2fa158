package plan

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// fieldAt walks a decoded JSON value along path (object keys; "0" takes a
// list's first element) and reports whether the field exists.
func fieldAt(v any, path string) bool {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[k]; !ok {
				return false
			}
		case []any:
			if k != "0" || len(x) == 0 {
				return false
			}
			v = x[0]
		default:
			return false
		}
	}
	return true
}

// TestFixedFieldNames encodes one document of each kind and checks the
// field names other tools rely on (DESIGN.md, "Plan documents"), then
// decodes it back with DecodeDocument.
func TestFixedFieldNames(t *testing.T) {
	h := func(kind string) Header { return Header{APIVersion: APIVersion, Kind: kind, Generator: "test"} }
	search := &Search{WorkUnit: "schedules per job", WorkBudget: 10, WorkUsed: 7, TimeLimit: 2, CutByTimeLimit: true}
	for _, tc := range []struct {
		doc    any
		kind   string
		fields []string
	}{
		{&FairShare{Header: h(KindFairShare), Method: "flow", Shares: []Share{{Application: "a", Machines: 1, Level: 1, ByType: map[string]float64{"t": 1}}}},
			KindFairShare, []string{"apiVersion", "kind", "shares.0.application", "shares.0.machines", "shares.0.level", "shares.0.byType.t", "method", "integral", "certificate"}},
		{&ShapeCatalog{Header: h(KindShapeCatalog), Shapes: []Shape{{Name: "s1", Size: map[string]float64{"cpu": 1}}},
			Assignments: []Assignment{{Application: "a", Request: map[string]float64{"cpu": 1}, Shape: "s1"}}, Search: search},
			KindShapeCatalog, []string{"shapes.0.name", "shapes.0.size.cpu", "assignments.0.application", "assignments.0.request.cpu", "assignments.0.shape",
				"cost", "lowerBound", "epsilon", "search.workUnit", "search.workBudget", "search.workUsed", "search.timeLimit", "search.cutByTimeLimit"}},
		{&PackingPlan{Header: h(KindPackingPlan), Nodes: []PackedNode{{Name: "n", Containers: []PackedContainer{{Shape: "s1", Owner: "a", Size: map[string]float64{"cpu": 1}}}}},
			Unplaced: []UnplacedContainer{{Shape: "s1", Owner: "a", Reason: "r"}}, NodesUsed: 1, LowerBound: 1},
			KindPackingPlan, []string{"nodes.0.name", "nodes.0.containers.0.shape", "nodes.0.containers.0.owner", "nodes.0.containers.0.size.cpu",
				"lambda", "lambdaUpperBound", "unplaced.0.shape", "unplaced.0.owner", "unplaced.0.reason", "nodesUsed", "lowerBound"}},
		{&DAGSchedule{Header: h(KindDAGSchedule), Jobs: []DAGJob{{DAGJobInfo: DAGJobInfo{Name: "j"}, Makespan: 5, Order: []string{"a"},
			Tasks: []DAGTask{{ID: "a", Start: 0, End: 2, Machine: 0}}}}, Search: search},
			KindDAGSchedule, []string{"jobs.0.name", "jobs.0.makespan", "jobs.0.bounds.cpLength", "jobs.0.bounds.tWork", "jobs.0.bounds.newLB",
				"jobs.0.gap", "jobs.0.order", "jobs.0.tasks.0.id", "jobs.0.tasks.0.start", "jobs.0.tasks.0.end", "jobs.0.tasks.0.machine", "search.cutByTimeLimit"}},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			data, err := json.Marshal(tc.doc)
			if err != nil {
				t.Fatal(err)
			}
			var tree any
			if err := json.Unmarshal(data, &tree); err != nil {
				t.Fatal(err)
			}
			for _, f := range tc.fields {
				if !fieldAt(tree, f) {
					t.Errorf("no field %s in %s", f, data)
				}
			}
			var back map[string]any
			if err := DecodeDocument("doc.json", data, tc.kind, &back); err != nil {
				t.Errorf("decoding it back: %v", err)
			}
		})
	}
}

func TestCheckCatalogDocument(t *testing.T) {
	resources := []string{"cpu", "memory"}
	shape := func(name string, size map[string]float64, cost float64) Shape {
		return Shape{Name: name, Size: size, Cost: cost}
	}
	for _, tc := range []struct {
		name   string
		shapes []Shape
		want   string // "" for a valid catalog
	}{
		{"valid", []Shape{shape("s1", map[string]float64{"cpu": 1, "memory": 2}, 0.5), shape("s2", map[string]float64{"cpu": 0}, 0)}, ""},
		{"no shapes", nil, "cat.json: shapes: the catalog has no shapes"},
		{"no name", []Shape{shape("", map[string]float64{"cpu": 1}, 0)}, "cat.json: shapes[0].name: missing"},
		{"duplicate", []Shape{shape("s", map[string]float64{"cpu": 1}, 0), shape("s", map[string]float64{"cpu": 2}, 0)},
			`cat.json: shapes[1].name: duplicate shape name "s" (first used by shapes[0])`},
		{"empty size", []Shape{shape("s", nil, 0)}, "cat.json: shapes[0].size: empty"},
		{"unknown resource", []Shape{shape("s", map[string]float64{"gpu": 1}, 0)}, `shapes[0].size.gpu: the cluster has no resource "gpu" (resources: cpu, memory)`},
		{"negative size", []Shape{shape("s", map[string]float64{"cpu": -1}, 0)}, "shapes[0].size.cpu: must be a finite number ≥ 0, got -1"},
		{"infinite size", []Shape{shape("s", map[string]float64{"cpu": math.Inf(1)}, 0)}, "shapes[0].size.cpu: must be a finite number ≥ 0"},
		{"NaN cost", []Shape{shape("s", map[string]float64{"cpu": 1}, math.NaN())}, "shapes[0].cost: must be a finite number ≥ 0, got NaN"},
	} {
		err := CheckCatalogDocument("cat.json", &ShapeCatalog{Shapes: tc.shapes}, resources)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrCatalog)):
			t.Errorf("%s: error %v, want %q wrapping ErrCatalog", tc.name, err, tc.want)
		}
	}
}

func TestDAGSummaries(t *testing.T) {
	// Gaps 0 and 0.5 over two jobs of 3 and 5 tasks, one optimal, one
	// rejected: mean gap 0.25, max 0.5.
	s := &DAGSchedule{
		Jobs: []DAGJob{
			{DAGJobInfo: DAGJobInfo{NumTasks: 3}, Gap: 0, Optimal: true},
			{DAGJobInfo: DAGJobInfo{NumTasks: 5}, Gap: 0.5},
		},
		Rejected: []DAGRejection{{Job: "x", Reason: "too large"}},
	}
	s.Summarize()
	if s.Summary != (DAGSummary{Jobs: 2, Tasks: 8, Rejected: 1, Optimal: 1, MeanGap: 0.25, MaxGap: 0.5}) {
		t.Errorf("schedule summary %+v", s.Summary)
	}
	empty := &DAGSchedule{}
	empty.Summarize()
	if empty.Summary != (DAGSummary{}) {
		t.Errorf("empty summary %+v", empty.Summary)
	}
	// Two jobs of 3 and 4 tasks, the second with 2 violations.
	c := &DAGCheck{Jobs: []DAGCheckJob{
		{DAGJobInfo: DAGJobInfo{NumTasks: 3}, Feasible: true},
		{DAGJobInfo: DAGJobInfo{NumTasks: 4}, Violations: []DAGViolation{{Kind: "capacity"}, {Kind: "precedence"}}},
	}}
	c.Summarize()
	if c.Summary != (DAGCheckSummary{Jobs: 2, Tasks: 7, Feasible: 1, Violations: 2}) {
		t.Errorf("check summary %+v", c.Summary)
	}
	b := DAGBoundSet{CPLength: 1, TWork: 2, Energy: 3, NewLB: 4, NodePacking: 5, Bin: 6, Best: 7}
	if v := b.Values(); len(v) != len(BoundNames) || v[0] != 1 || v[6] != 7 {
		t.Errorf("values %v for names %v", v, BoundNames)
	}
}
