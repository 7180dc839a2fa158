package policies_test

import (
	"os"
	"testing"

	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/datasets/workloads"
	"github.com/capplan/capplan/internal/testdatasets"
	"github.com/capplan/capplan/sim"
)

// wali returns W-ALI@load (SIMULATE.md §2.3): the Alibaba v2018 sample on
// 100 machines of 96 cores, Poisson arrivals at the offered load (seed 1),
// 1 s ticks, the first n accepted jobs (0: all).
func wali(tb testing.TB, load float64, n int) (*sim.Cluster, []sim.User, []sim.Job) {
	tb.Helper()
	path := testdatasets.Need(tb, "alibaba-v2018/batch_task_dag_sample_hliangzhao.csv")
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	rows, err := workloads.ReadAlibaba(path, f)
	if err != nil {
		tb.Fatal(err)
	}
	q := rows.Quanta()
	cl := workloads.Uniform(workloads.AlibabaResources, q, dags.AlibabaMachine, workloads.AlibabaMachines, "ali")
	conv := &sim.DAGConversion{Resources: cl.Resources, Quanta: q, TickSeconds: 1}
	jobs := rows.Jobs(conv, 0)
	if n > 0 && n < len(jobs) {
		jobs = jobs[:n]
	}
	total := make(sim.Vec, len(cl.Resources))
	for _, m := range cl.Machines {
		for d, x := range m.Cap {
			total[d] += x
		}
	}
	workloads.PoissonArrivals(jobs, total, load, 1, 1)
	return cl, workloads.AlibabaUserList(), jobs
}
