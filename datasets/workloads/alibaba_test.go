package workloads

import (
	"os"
	"testing"

	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/internal/testdatasets"
	"github.com/capplan/capplan/sim"
)

// TestReadAlibabaMatchesDags cross-checks the stage-level simulator jobs
// with the task-level DAGs of dags.ParseAlibaba (capped at 200,000 edges
// per job to bound its memory): every job both accept converts to the
// same simulator job, and every job dags rejects for another reason than
// the cap is rejected here too.
func TestReadAlibabaMatchesDags(t *testing.T) {
	path := testdatasets.Need(t, "alibaba-v2018/batch_task_dag_sample_hliangzhao.csv")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := dags.ParseAlibaba("sample", f, dags.AlibabaOptions{MaxEdges: 200_000})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	f, _ = os.Open(path)
	rows, err := ReadAlibaba("sample", f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	q := rows.Quanta()
	conv := &sim.DAGConversion{Resources: AlibabaResources, Quanta: q, TickSeconds: 1}
	mine := rows.Jobs(conv, 0)
	byName := map[string]*sim.Job{}
	for i := range mine {
		byName[mine[i].Name] = &mine[i]
	}
	rejected := map[string]bool{}
	for _, r := range rows.Rejected {
		rejected[r.Job] = true
	}
	if len(mine)+len(rows.Rejected) != 2120 {
		t.Errorf("%d jobs and %d rejections, want 2,120 in all", len(mine), len(rows.Rejected))
	}
	compared := 0
	for _, aj := range ref.Jobs {
		want, _, err := conv.Job(aj.DAG, AlibabaUser(aj.Name), 0)
		if err != nil {
			t.Fatal(err)
		}
		got := byName[aj.Name]
		if got == nil {
			t.Fatalf("job %s accepted by dags, rejected here", aj.Name)
		}
		if len(got.Stages) != len(want.Stages) || len(got.Links) != len(want.Links) || len(want.Edges) != 0 {
			t.Fatalf("job %s: %d stages %d links here, %d stages %d links %d edges from dags", aj.Name,
				len(got.Stages), len(got.Links), len(want.Stages), len(want.Links), len(want.Edges))
		}
		for s := range want.Stages {
			a, b := &got.Stages[s], &want.Stages[s]
			if a.Name != b.Name || a.Tasks != b.Tasks || a.Duration != b.Duration || a.Demand[0] != b.Demand[0] || a.Demand[1] != b.Demand[1] {
				t.Fatalf("job %s stage %d: %+v here, %+v from dags", aj.Name, s, *a, *b)
			}
		}
		for k := range want.Links {
			if got.Links[k] != want.Links[k] {
				t.Fatalf("job %s: links %v here, %v from dags", aj.Name, got.Links, want.Links)
			}
		}
		compared++
	}
	for _, r := range ref.Rejected {
		if r.Job != "" && !rejected[r.Job] && byName[r.Job] == nil {
			t.Errorf("job %s rejected by dags (%s) but unknown here", r.Job, r.Reason)
		}
	}
	t.Logf("%d jobs compared; %d accepted here, %d rejected", compared, len(mine), len(rows.Rejected))
}
