package dags

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/internal/testdatasets"

	"github.com/capplan/capplan/datasets"
)

func TestFromJobExample(t *testing.T) {
	w, err := datasets.ParseWorkload("workload.yaml", datasets.ExampleFiles()["workload.yaml"])
	if err != nil {
		t.Fatal(err)
	}
	ds, err := FromWorkload(w, nil, WorkloadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	q17 := ds[0]
	// 200 scan + 20 scan-dim + 40 join + 40 aggregate + 1 write tasks.
	// Edges: join waits for all of scan and scan-dim (200·40 + 20·40),
	// aggregate[i] for join[i] (40), write for every aggregate (40).
	if q17.N() != 301 || q17.Edges() != 8000+800+40+40 {
		t.Fatalf("q17: %v", q17)
	}
	if q17.Unit != 1 || !slices.Equal(q17.Resources, []string{"cpu", "memory"}) {
		t.Fatalf("q17 unit %v resources %v", q17.Unit, q17.Resources)
	}
	join, _ := q17.Index("join[7]")
	agg, _ := q17.Index("aggregate[7]")
	if p := q17.Preds(agg); len(p) != 1 || p[0] != join {
		t.Fatalf("aggregate[7] preds %v, want [join[7]]", p)
	}
	if got := q17.Tasks[join].Demand; got[0] != 4 || got[1] != 8<<30 {
		t.Fatalf("join demand %v", got)
	}
	kinds := map[dag.EdgeKind]int{}
	for _, e := range q17.StageEdges {
		kinds[e.Kind]++
	}
	if kinds[dag.Barrier] != 3 || kinds[dag.OneToOne] != 1 {
		t.Fatalf("stage edge kinds %v", kinds)
	}
	// train-pipeline is task-level: one stage per task; 24 cpus ... gpu.
	tp := ds[2]
	if tp.N() != 4 || len(tp.Stages) != 4 || tp.K() != 3 {
		t.Fatalf("train-pipeline: %v %v", tp, tp.Resources)
	}
	// A cluster gives one capacity vector per node, in the dag.DAG's order.
	c, err := datasets.ParseCluster("cluster.yaml", datasets.ExampleFiles()["cluster.yaml"], datasets.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := Machines(c, q17.Resources)
	if err != nil || len(ms) != c.NumNodes() {
		t.Fatalf("machines: %d, %v", len(ms), err)
	}
	if _, err := Machines(c, []string{"cpu", "quantum"}); !errors.Is(err, dag.ErrInvalid) {
		t.Fatalf("unknown resource: %v", err)
	}
}

func TestFromJobUnitsAndLimits(t *testing.T) {
	job := &datasets.Job{Name: "j", Stages: []datasets.Stage{
		{Name: "a", Tasks: 3, Duration: 1.5},
		{Name: "b", Tasks: 4, Duration: 0.25, After: []string{"a"}},
	}}
	d, err := FromJob(job, []string{"cpu"}, WorkloadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// 1.5 s and 0.25 s are whole in 0.01 s ticks, not in 0.1 s.
	if d.Unit != 0.01 || d.Tasks[0].Duration != 150 || d.Tasks[3].Duration != 25 {
		t.Fatalf("unit %v durations %d %d", d.Unit, d.Tasks[0].Duration, d.Tasks[3].Duration)
	}
	// 3·4 = 12 barrier edges exceed a limit of 10.
	if _, err := FromJob(job, nil, WorkloadOptions{MaxEdges: 10}); !errors.Is(err, dag.ErrTooLarge) {
		t.Fatalf("limit: %v", err)
	}
}

const abHeader = "task_name,instance_num,job_name,task_type,status,start_time,end_time,plan_cpu,plan_mem\n"

func TestParseAlibaba(t *testing.T) {
	in := abHeader +
		"M1,2.0,j_ok,1,Terminated,100,110,100.0,0.2\n" +
		"R2_1,1.0,j_ok,1,Terminated,110,115,50.0,0.3\n" +
		"J3_1_2,3.0,j_ok,1,Terminated,115,130,200.0,0.4\n" +
		"M1_2,1.0,j_cycle,1,Terminated,1,2,100,1\n" +
		"R2_1,1.0,j_cycle,1,Terminated,1,2,100,1\n" +
		"J3_1_,1.0,j_odd,1,Terminated,1,2,100,1\n" +
		"task_Nzg3ODAw,1.0,j_indep,1,Terminated,1,2,100,1\n" +
		"M1,1.0,j_missing,1,Running,1,2,,\n" +
		"R2_7,1.0,j_unknown,1,Terminated,1,2,100,1\n" +
		"M1,1.0,j_back,1,Terminated,5,2,100,1\n" +
		"M1,1.0,j_dup,1,Terminated,1,2,100,1\n" +
		"R1,1.0,j_dup,1,Terminated,1,2,100,1\n"
	tr, err := ParseAlibaba("rows", strings.NewReader(in), AlibabaOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Jobs) != 1 || tr.Jobs[0].Name != "j_ok" {
		t.Fatalf("jobs %v", tr.Jobs)
	}
	ok := tr.Jobs[0]
	// Stages M1 (2 tasks), R2_1 (1), J3_1_2 (3); barriers M1->R2_1 (2),
	// M1->J3 (6), R2_1->J3 (3): 11 edges.
	if ok.DAG.N() != 6 || ok.DAG.Edges() != 11 || ok.ObservedSpan() != 30 {
		t.Fatalf("j_ok: %v span %d", ok.DAG, ok.ObservedSpan())
	}
	j3, _ := ok.DAG.Index("J3_1_2[2]")
	if got := ok.DAG.Tasks[j3]; got.Duration != 15 || got.Demand[0] != 2 || got.Demand[1] != 0.4 {
		t.Fatalf("J3_1_2[2] = %+v", got)
	}
	want := map[string]string{
		"j_cycle":   "cycle: ",
		"j_odd":     "not a dag.DAG task name",
		"j_indep":   "not a dag.DAG task name",
		"j_missing": "is not a number",
		"j_unknown": "which the job does not have",
		"j_back":    "before start_time",
		"j_dup":     "task id 1 used by",
	}
	if len(tr.Rejected) != len(want) {
		t.Fatalf("rejected %+v", tr.Rejected)
	}
	for _, r := range tr.Rejected {
		if !strings.Contains(r.Reason, want[r.Job]) {
			t.Errorf("%s: reason %q, want it to contain %q", r.Job, r.Reason, want[r.Job])
		}
	}
	// Limits reject the job, not the file.
	tr, _ = ParseAlibaba("rows", strings.NewReader(in), AlibabaOptions{MaxTasks: 5})
	if len(tr.Jobs) != 0 || !strings.Contains(tr.Rejected[0].Reason, "exceed the limit") {
		t.Fatalf("limit: %+v", tr.Rejected[0])
	}
}

// TestParseAlibabaSample loads the 2120-job sample: every job is either
// accepted or rejected with a reason, and the odd truncated names are
// among the rejected.
func TestParseAlibabaSample(t *testing.T) {
	p := testdatasets.Need(t, filepath.Join("alibaba-v2018", "batch_task_dag_sample_hliangzhao.csv"))
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := ParseAlibaba(filepath.Base(p), f, AlibabaOptions{MaxTasks: 20_000, MaxEdges: 50_000})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(tr.Jobs) + len(tr.Rejected); n != 2120 {
		t.Fatalf("%d accepted + %d rejected != 2120 jobs", len(tr.Jobs), len(tr.Rejected))
	}
	reasons := map[string]int{}
	for _, r := range tr.Rejected {
		if r.Job == "" || r.Reason == "" {
			t.Fatalf("rejection without job or reason: %+v", r)
		}
		reasons[reasonClass(r.Reason)]++
	}
	if odd := reasons["name"]; odd < 80 {
		t.Errorf("only %d rejections for odd names", odd)
	}
	t.Logf("accepted %d jobs, rejected %d; reasons by first word: %v", len(tr.Jobs), len(tr.Rejected), reasons)
}

// reasonClass buckets rejection reasons for the sample's summary.
func reasonClass(reason string) string {
	for _, c := range []string{"cycle", "not a dag.DAG task name", "limit", "before start", "not a number", "does not have", "used by"} {
		if strings.Contains(reason, c) {
			if c == "not a dag.DAG task name" {
				return "name"
			}
			return c
		}
	}
	return "other"
}
