package datasets

import (
	"slices"
	"testing"
)

const workloadHead = "apiVersion: capplan/v1\nkind: Workload\njobs:\n"

func TestParseWorkloadRejects(t *testing.T) {
	// stage writes a one-line stage with the given extra fields.
	stage := func(name, extra string) string {
		return "{name: " + name + ", tasks: 4, duration: 10, demand: {cpu: 1}" + extra + "}"
	}
	job := func(stages ...string) string {
		s := "- name: j\n  stages:\n"
		for _, st := range stages {
			s += "  - " + st + "\n"
		}
		return s
	}
	cases := []struct {
		name string
		in   string
		want []wantProblem
	}{
		{"no jobs field", "apiVersion: capplan/v1\nkind: Workload\n", []wantProblem{{"jobs", "missing required field"}}},
		{"no jobs", "apiVersion: capplan/v1\nkind: Workload\njobs: []\n", []wantProblem{{"jobs", "the workload has no jobs"}}},
		{"job name missing", workloadHead + "- {stages: [" + stage("a", "") + "]}\n", []wantProblem{{"jobs[0].name", "missing required field"}}},
		{"duplicate job names", workloadHead + job(stage("a", "")) + job(stage("a", "")), []wantProblem{{"jobs[1].name", `duplicate job name "j" (first used by jobs[0])`}}},
		{"arrival negative", workloadHead + "- {name: j, arrival: -5, stages: [" + stage("a", "") + "]}\n", []wantProblem{{"jobs[0].arrival", "must be ≥ 0 seconds, got -5"}}},
		{"group not a string", workloadHead + "- {name: j, group: [a], stages: [" + stage("a", "") + "]}\n", []wantProblem{{"jobs[0].group", "must be a string"}}},
		{"stages and tasks", workloadHead + "- {name: j, stages: [" + stage("a", "") + "], tasks: [{id: 1, duration: 1, demand: {cpu: 1}}]}\n",
			[]wantProblem{{"jobs[0]", "give stages or tasks, not both"}}},
		{"neither stages nor tasks", workloadHead + "- {name: j}\n", []wantProblem{{"jobs[0]", "give the job's stages (or its tasks)"}}},
		{"no stages", workloadHead + "- {name: j, stages: []}\n", []wantProblem{{"jobs[0].stages", "the job has no stages"}}},
		{"stage fields", workloadHead + job("{name: a, tasks: 0, duration: 0, demand: {cpu: -1}, edge: star}"), []wantProblem{
			{"jobs[0].stages[0].tasks", "must be between 1 and 10000000, got 0"},
			{"jobs[0].stages[0].duration", "must be > 0 seconds, got 0"},
			{"jobs[0].stages[0].demand.cpu", "must not be negative"},
			{"jobs[0].stages[0].edge", `got "star", want barrier or one-to-one`},
		}},
		{"stage demand missing", workloadHead + job("{name: a, tasks: 1, duration: 1}"), []wantProblem{{"jobs[0].stages[0].demand", "missing required field"}}},
		{"stage demand empty", workloadHead + job("{name: a, tasks: 1, duration: 1, demand: {}}"), []wantProblem{{"jobs[0].stages[0].demand", "is empty"}}},
		{"duplicate stage names", workloadHead + job(stage("a", ""), stage("a", "")), []wantProblem{{"jobs[0].stages[1].name", `duplicate stage "a" (also jobs[0].stages[0])`}}},
		{"after an unknown stage", workloadHead + job(stage("scan", ""), stage("join", ", after: [scna]")),
			[]wantProblem{{"jobs[0].stages[1].after", `unknown stage "scna"; did you mean "scan"?`}}},
		{"after not a name", workloadHead + job(stage("a", ", after: [[x]]")), []wantProblem{{"jobs[0].stages[0].after[0]", "must be a name or a whole number"}}},
		{"one-to-one with unequal task counts", workloadHead + job(stage("a", ""), "{name: b, tasks: 3, duration: 1, demand: {cpu: 1}, after: [a], edge: one-to-one}"),
			[]wantProblem{{"jobs[0].stages[1].edge", "one-to-one needs equal task counts: a has 4 tasks, b has 3"}}},
		{"self cycle", workloadHead + job(stage("a", ", after: [a]")), []wantProblem{{"jobs[0].stages[0].after", "cycle: stage a -> a"}}},
		{"two-stage cycle", workloadHead + job(stage("a", ", after: [b]"), stage("b", ", after: [a]")),
			[]wantProblem{{"jobs[0].stages[0].after", "cycle: stage a -> b -> a"}}},
		// c runs after b, b after a, a after c: a -> b -> c -> a.
		{"three-stage cycle behind a source", workloadHead + job(stage("src", ""), stage("a", ", after: [src, c]"), stage("b", ", after: [a]"), stage("c", ", after: [b]")),
			[]wantProblem{{"jobs[0].stages[1].after", "cycle: stage a -> b -> c -> a"}}},
		{"two independent cycles", workloadHead + job(stage("a", ", after: [b]"), stage("b", ", after: [a]"), stage("c", ", after: [d]"), stage("d", ", after: [c]")),
			[]wantProblem{{"jobs[0].stages[0].after", "cycle: stage a -> b -> a"}, {"jobs[0].stages[2].after", "cycle: stage c -> d -> c"}}},
		{"task fields", workloadHead + "- {name: j, tasks: [{duration: 0, demand: {gpu: x}}, {id: '', duration: 1, demand: {cpu: 1}}]}\n", []wantProblem{
			{"jobs[0].tasks[0].id", "missing required field"},
			{"jobs[0].tasks[0].duration", "must be > 0 seconds"},
			{"jobs[0].tasks[0].demand.gpu", `invalid quantity "x"`},
			{"jobs[0].tasks[1].id", "must be a non-empty string or a whole number"},
		}},
		{"duplicate task ids, numbers and strings alike", workloadHead + "- {name: j, tasks: [{id: 7, duration: 1, demand: {cpu: 1}}, {id: '7', duration: 1, demand: {cpu: 1}}]}\n",
			[]wantProblem{{"jobs[0].tasks[1].id", `duplicate task "7" (also jobs[0].tasks[0])`}}},
		{"task cycle and unknown task", workloadHead + "- {name: j, tasks: [{id: 1, duration: 1, demand: {cpu: 1}, after: [2]}, {id: 2, duration: 1, demand: {cpu: 1}, after: [1, 9]}]}\n",
			[]wantProblem{{"jobs[0].tasks[1].after", `unknown task "9"`}, {"jobs[0].tasks[0].after", "cycle: task 1 -> 2 -> 1"}}},
		{"unknown stage field", workloadHead + job("{name: a, tasks: 1, duration: 1, demand: {cpu: 1}, afer: [b]}"),
			[]wantProblem{{"jobs[0].stages[0].afer", `did you mean "after"?`}}},
		{"every problem of a file", workloadHead + job(stage("a", ", after: [b]"), stage("b", ", after: [a, zz]")) + "- {name: k, arrival: -1, stages: [{name: x, tasks: 1, duration: 1, demand: {cpu: 1}}], tasks: []}\n",
			[]wantProblem{
				{"jobs[0].stages[1].after", `unknown stage "zz"`},
				{"jobs[0].stages[0].after", "cycle: stage a -> b -> a"},
				{"jobs[1].arrival", "must be ≥ 0 seconds"},
				{"jobs[1]", "give stages or tasks, not both"},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, err := ParseWorkload("w.yaml", []byte(tc.in))
			if w != nil {
				t.Errorf("got a workload despite problems")
			}
			checkProblems(t, err, "w.yaml", tc.want)
		})
	}
}

func TestParseWorkloadModel(t *testing.T) {
	w, err := ParseWorkload("workload.yaml", ExampleFiles()["workload.yaml"])
	if err != nil {
		t.Fatal(err)
	}
	q17 := w.Jobs[0]
	if q17.Name != "q17" || q17.Group != "spark-analytics" || q17.Arrival != 0 || len(q17.Stages) != 5 || q17.Tasks != nil {
		t.Fatalf("q17 = %+v", q17)
	}
	join, agg := q17.Stages[2], q17.Stages[3]
	if !slices.Equal(join.After, []string{"scan", "scan-dim"}) || join.Edge != Barrier || join.Tasks != 40 || join.Duration != 90 {
		t.Errorf("join = %+v", join)
	}
	if agg.Edge != OneToOne || agg.Edge.String() != "one-to-one" {
		t.Errorf("aggregate edge = %v", agg.Edge)
	}
	train := w.Jobs[2]
	if train.Arrival != 300 || len(train.Tasks) != 4 || !slices.Equal(train.Tasks[3].After, []string{"train-a", "train-b"}) {
		t.Errorf("train-pipeline = %+v", train)
	}
	gpu := train.Tasks[1].Demand["gpu"]
	if m, _ := Milli(gpu); m != 4000 {
		t.Errorf("train-a gpu demand milli = %d, want 4000", m)
	}
}

func TestParseWorkloadNumericIDsAndRepeats(t *testing.T) {
	in := workloadHead + "- {name: j, tasks: [{id: 1, duration: 1, demand: {cpu: 0}}, {id: 2, duration: 2.5, demand: {cpu: 1}, after: [1, '1']}]}\n"
	w, err := ParseWorkload("w.yaml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	tasks := w.Jobs[0].Tasks
	// 1 and '1' are the same task, listed once; zero demand is allowed.
	if tasks[0].ID != "1" || !slices.Equal(tasks[1].After, []string{"1"}) || tasks[1].Duration != 2.5 {
		t.Errorf("tasks = %+v", tasks)
	}
}
