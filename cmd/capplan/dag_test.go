package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/internal/testdatasets"
	"github.com/capplan/capplan/plan"
)

// dagSharedData returns a path under the shared benchmark data sets; when
// it is absent the test is skipped, or fails under CI=true.
func dagSharedData(t *testing.T, rel string) string {
	t.Helper()
	return testdatasets.Need(t, rel)
}

// dagJSON runs a dag subcommand that must succeed and decodes its JSON.
func dagJSON[T any](t *testing.T, args ...string) (*T, string) {
	t.Helper()
	code, out, errOut := runCapplan(t, append([]string{"dag"}, args...)...)
	if code != 0 {
		t.Fatalf("capplan dag %v: exit %d: %s", args, code, errOut)
	}
	var doc T
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("capplan dag %v: %v\n%s", args, err, out)
	}
	return &doc, out
}

// dagScheduleOf rebuilds the dag.Schedule of a job of a document, in ticks.
func dagScheduleOf(t *testing.T, d *dag.DAG, j plan.DAGJob) *dag.Schedule {
	t.Helper()
	if len(j.Tasks) != d.N() {
		t.Fatalf("%s: %d tasks in the document, %d in the DAG", j.Name, len(j.Tasks), d.N())
	}
	s := dag.NewSchedule(d.N())
	for _, task := range j.Tasks {
		i, ok := d.Index(task.ID)
		if !ok {
			t.Fatalf("%s: unknown task %q", j.Name, task.ID)
		}
		s.Start[i] = int64(math.Round(task.Start / d.Unit))
		s.End[i] = int64(math.Round(task.End / d.Unit))
		s.Machine[i] = task.Machine
	}
	return s
}

// dagJ30Optima reads the proven J30 optima.
func dagJ30Optima(t *testing.T) map[dags.PSPLIBKey][]int64 {
	f, err := os.Open(dagSharedData(t, "psplib/j30/j30opt.sm"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opt, err := dags.ParsePSPLIBTable("j30opt.sm", f)
	if err != nil {
		t.Fatal(err)
	}
	return opt
}

func dagLoadPSPLIB(t *testing.T, path string) *dags.PSPLIB {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	inst, err := dags.ParsePSPLIB(path, f)
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

// TestDAGSchedulePSPLIB schedules J30 instances from their .sm files:
// the DAGSchedule is valid, never beats the proven optimum, uses the PSPLIB
// job numbers as task ids and passes dag.Check; `dag check` accepts it,
// and rejects it, naming tasks and times, once tampered with.
func TestDAGSchedulePSPLIB(t *testing.T) {
	opt := dagJ30Optima(t)
	for _, key := range []dags.PSPLIBKey{{P: 1, I: 1}, {P: 13, I: 5}, {P: 29, I: 3}} {
		name := fmt.Sprintf("j30%d_%d", key.P, key.I)
		t.Run(name, func(t *testing.T) {
			path := dagSharedData(t, "psplib/j30/"+name+".sm")
			inst := dagLoadPSPLIB(t, path)
			doc, out := dagJSON[plan.DAGSchedule](t, "schedule", path, "--json")
			if doc.Kind != plan.KindDAGSchedule || doc.APIVersion != plan.APIVersion || doc.Format != "psplib" || len(doc.Jobs) != 1 {
				t.Fatalf("kind %s, format %s, %d jobs", doc.Kind, doc.Format, len(doc.Jobs))
			}
			if doc.Seed == nil || *doc.Seed != 1 || doc.Flags["method"] != "best" {
				t.Errorf("seed %v, flags %v", doc.Seed, doc.Flags)
			}
			j := doc.Jobs[0]
			best := opt[key][0]
			if j.Name != name || int64(j.Makespan) < best || int64(j.Bounds.Best) > best {
				t.Errorf("%s: makespan %v, bound %v, optimum %d", j.Name, j.Makespan, j.Bounds.Best, best)
			}
			if j.Optimal != (j.Makespan == j.Bounds.Best) || j.Gap != j.Makespan/j.Bounds.Best-1 {
				t.Errorf("optimal %v, gap %v for makespan %v, bound %v", j.Optimal, j.Gap, j.Makespan, j.Bounds.Best)
			}
			// Task ids are the PSPLIB job numbers 2 … 31 (1 and 32 are
			// the dummy source and sink), and the order lists each once.
			var ids []int
			for _, task := range j.Tasks {
				n, err := strconv.Atoi(task.ID)
				if err != nil {
					t.Fatalf("task id %q is not a job number", task.ID)
				}
				ids = append(ids, n)
			}
			slices.Sort(ids)
			for k, n := range ids {
				if n != k+2 {
					t.Fatalf("task ids %v, want 2 … 31", ids)
				}
			}
			if o := slices.Sorted(slices.Values(j.Order)); len(o) != 30 || len(slices.Compact(o)) != 30 {
				t.Errorf("order %v", j.Order)
			}
			s := dagScheduleOf(t, inst.DAG, j)
			if v := dag.Check(inst.DAG, inst.Machines(), s); len(v) > 0 {
				t.Fatalf("schedule fails the check: %v", v)
			}

			dir := t.TempDir()
			sched := filepath.Join(dir, "s.json")
			if err := os.WriteFile(sched, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			code, text, errOut := runCapplan(t, "dag", "check", "--schedule", sched, path)
			if code != 0 || !strings.Contains(text, "feasible") {
				t.Fatalf("check of the tool's own schedule: exit %d\n%s%s", code, text, errOut)
			}
			for _, b := range plan.BoundNames {
				if !regexp.MustCompile(`(?m)^` + name + `\t` + b + `\t[0-9.]+\t[0-9.]+\t-?[0-9.]+%$`).MatchString(text) {
					t.Errorf("no gap line for %s:\n%s", b, text)
				}
			}
			dagTamperedPrecedence(t, inst, j, path, dir)
			dagTamperedCapacity(t, inst, path, dir)
		})
	}
}

// dagTamperedPrecedence moves one task to start one period before its
// latest predecessor ends: `dag check` exits 1 naming both and the times.
func dagTamperedPrecedence(t *testing.T, inst *dags.PSPLIB, j plan.DAGJob, path, dir string) {
	t.Helper()
	d := inst.DAG
	s := dagScheduleOf(t, d, j)
	v := -1
	for i := range d.Tasks {
		if len(d.Preds(i)) > 0 && d.Tasks[i].Duration > 0 {
			v = i
			break
		}
	}
	p := d.Preds(v)[0]
	for _, q := range d.Preds(v) {
		if s.End[q] > s.End[p] {
			p = q
		}
	}
	start := s.End[p] - 1
	var b strings.Builder
	b.WriteString("job,task,start,end,machine\n")
	for i, task := range d.Tasks {
		st, en := s.Start[i], s.End[i]
		if i == v {
			st, en = start, start+task.Duration
		}
		fmt.Fprintf(&b, "%s,%s,%d,%d,%d\n", j.Name, task.ID, st, en, s.Machine[i])
	}
	csvPath := filepath.Join(dir, "tampered.csv")
	if err := os.WriteFile(csvPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCapplan(t, "dag", "check", "--schedule", csvPath, path)
	want := fmt.Sprintf("task %s starts at %d, before its predecessor %s ends at %d", d.Tasks[v].ID, start, d.Tasks[p].ID, s.End[p])
	if code != exitFailure || !strings.Contains(out, want) || !strings.Contains(errOut, "violation") {
		t.Errorf("tampered precedence: exit %d, want %d and %q\n%s%s", code, exitFailure, want, out, errOut)
	}
}

// dagTamperedCapacity writes a schedule that runs the tasks one at a
// time, except that two unrelated tasks whose demands together exceed the
// machine start together: `dag check --json` exits 1 with one capacity
// violation at their common start.
func dagTamperedCapacity(t *testing.T, inst *dags.PSPLIB, path, dir string) {
	t.Helper()
	d := inst.DAG
	anc := func(v int) map[int]bool {
		seen := map[int]bool{}
		stack := []int{v}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, p := range d.Preds(x) {
				if !seen[p] {
					seen[p] = true
					stack = append(stack, p)
				}
			}
		}
		return seen
	}
	a, b := -1, -1
	for x := 0; x < d.N() && a < 0; x++ {
		for y := x + 1; y < d.N(); y++ {
			if anc(x)[y] || anc(y)[x] || d.Tasks[x].Duration == 0 || d.Tasks[y].Duration == 0 {
				continue
			}
			for r := range inst.Capacity {
				if d.Tasks[x].Demand[r]+d.Tasks[y].Demand[r] > inst.Capacity[r] {
					a, b = x, y
				}
			}
			if a >= 0 {
				break
			}
		}
	}
	if a < 0 {
		t.Logf("no unrelated pair overloads a resource")
		return
	}
	// Order: ancestors of a and b, then a and b, then the rest, each part
	// in topological order; run one task at a time, b beside a.
	first := anc(a)
	for x := range anc(b) {
		first[x] = true
	}
	var order []int
	for _, part := range []func(int) bool{
		func(x int) bool { return first[x] },
		func(x int) bool { return x == a || x == b },
		func(x int) bool { return !first[x] && x != a && x != b },
	} {
		for _, x := range d.Topo() {
			if part(x) {
				order = append(order, x)
			}
		}
	}
	var now, startA int64
	var rows strings.Builder
	rows.WriteString("task,start,end,machine\n")
	for _, x := range order {
		st := now
		switch x {
		case a:
			startA = now
		case b:
			st = startA
		}
		fmt.Fprintf(&rows, "%s,%d,%d,0\n", d.Tasks[x].ID, st, st+d.Tasks[x].Duration)
		now = max(now, st+d.Tasks[x].Duration)
	}
	csvPath := filepath.Join(dir, "overload.csv")
	if err := os.WriteFile(csvPath, []byte(rows.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCapplan(t, "dag", "check", "--schedule", csvPath, path, "--json")
	if code != exitFailure {
		t.Fatalf("overload: exit %d, want %d\n%s", code, exitFailure, errOut)
	}
	var doc plan.DAGCheck
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	vs := doc.Jobs[0].Violations
	ids := []string{d.Tasks[a].ID, d.Tasks[b].ID}
	if doc.Kind != plan.KindDAGCheck || doc.Jobs[0].Feasible || len(vs) == 0 {
		t.Fatalf("overload of %v: %+v", ids, doc.Jobs[0])
	}
	for _, v := range vs {
		if v.Kind != "capacity" || v.Time != float64(startA) || !slices.Contains(ids, v.Task) || v.Used <= v.Capacity {
			t.Errorf("overload of %v at %d: violation %+v", ids, startA, v)
		}
	}
}

// TestDAGScheduleExample schedules the embedded example workload on
// identical machines and on the example cluster: jobs in input order,
// byte-identical JSON across runs and worker counts, no progress bar off
// a terminal, every schedule feasible.
func TestDAGScheduleExample(t *testing.T) {
	dir := t.TempDir()
	if err := datasets.WriteExamples(dir); err != nil {
		t.Fatal(err)
	}
	cluster := filepath.Join(dir, "cluster.yaml")
	w, err := datasets.ParseWorkload("workload.yaml", datasets.ExampleFiles()["workload.yaml"])
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := dags.FromWorkload(w, nil, dags.WorkloadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := datasets.LoadCluster(cluster, datasets.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		args     []string
		machines func(d *dag.DAG) [][]float64
	}{
		{"machines", []string{"--example", "--machines", "3", "--machine-capacity", "cpu=32,memory=256Gi"}, func(d *dag.DAG) [][]float64 {
			// gpu keeps its default: the largest task demand, 4.
			capacity := map[string]float64{"cpu": 32, "memory": 256 << 30, "gpu": 4}
			v := make([]float64, d.K())
			for k, r := range d.Resources {
				v[k] = capacity[r]
			}
			return [][]float64{v, v, v}
		}},
		{"cluster", []string{"--example", "-c", cluster}, func(d *dag.DAG) [][]float64 {
			ms, err := dags.Machines(c, d.Resources)
			if err != nil {
				t.Fatal(err)
			}
			return ms
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var first string
			for _, workers := range []string{"1", "4", "4"} {
				args := append(append([]string{"dag", "schedule"}, tc.args...), "--json", "--workers", workers)
				code, out, errOut := runCapplan(t, args...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				if errOut != "" {
					t.Errorf("stderr off a terminal: %q", errOut)
				}
				if first == "" {
					first = out
				} else if out != first {
					t.Fatalf("output differs between runs (--workers %s)", workers)
				}
			}
			var doc plan.DAGSchedule
			if err := json.Unmarshal([]byte(first), &doc); err != nil {
				t.Fatal(err)
			}
			var names []string
			for i, j := range doc.Jobs {
				names = append(names, j.Name)
				d := jobs[i]
				ms := tc.machines(d)
				if v := dag.Check(d, ms, dagScheduleOf(t, d, j)); len(v) > 0 {
					t.Errorf("%s: %v", j.Name, v)
				}
				if j.Makespan < j.Bounds.Best || j.Bounds.Best < j.Bounds.CPLength || j.Bounds.Best < j.Bounds.NewLB {
					t.Errorf("%s: makespan %v, bounds %+v", j.Name, j.Makespan, j.Bounds)
				}
			}
			if !slices.Equal(names, []string{"q17", "etl-nightly", "train-pipeline"}) {
				t.Errorf("jobs %v, want input order", names)
			}
		})
	}
	// --example without machine flags uses the example cluster: the same
	// schedules as -c with the example written out.
	a, _ := dagJSON[plan.DAGSchedule](t, "schedule", "--example", "--json")
	b, _ := dagJSON[plan.DAGSchedule](t, "schedule", "--example", "-c", cluster, "--json")
	for i := range a.Jobs {
		if !slices.Equal(a.Jobs[i].Order, b.Jobs[i].Order) || a.Jobs[i].Makespan != b.Jobs[i].Makespan {
			t.Errorf("%s: example cluster and -c differ", a.Jobs[i].Name)
		}
	}
}

// TestDAGOutputs covers the table, CSV and workbook views, pooled mode
// and --compare.
func TestDAGOutputs(t *testing.T) {
	dir := t.TempDir()
	xlsx := filepath.Join(dir, "dags.xlsx")
	code, out, errOut := runCapplan(t, "dag", "schedule", "--example", "--machines", "2", "--method", "graphene",
		"--pool", "--compare", "bfs,cp", "--xlsx", xlsx)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "# graphene schedules of 3 jobs") || !strings.Contains(lines[0], "pooled") {
		t.Errorf("summary %q", lines[0])
	}
	if !strings.Contains(out, "job\ttasks\tmakespan\tcpLength\ttWork\tenergy\tnewLB\tnodePacking\tbin\tbest bound\tgap\tmethod\toptimal\tcertificate\ton machines\tbfs\tcp\n") {
		t.Errorf("jobs table header:\n%s", out)
	}
	if !strings.Contains(out, "\tyes\toptimal (proved by newLB)\t") {
		t.Errorf("no proof in the jobs table:\n%s", out)
	}
	f, err := excelize.OpenFile(xlsx)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.GetSheetList(); !slices.Equal(got[:3], []string{"Summary", "Jobs", "Tasks"}) {
		t.Errorf("sheets %v", got)
	}
	if rows, _ := f.GetRows("Tasks"); len(rows) != 1+301+136+4 {
		t.Errorf("Tasks sheet: %d rows", len(rows))
	}
	code, out, _ = runCapplan(t, "dag", "schedule", "--example", "--machines", "2", "--method", "cp", "--csv")
	// --csv is the schedules, one row per task (what dag check reads).
	if code != 0 || !strings.HasPrefix(out, "job,task,start,end,machine\nq17,") || strings.Count(out, "\n") != 1+301+136+4 {
		t.Errorf("csv: exit %d\n%s", code, out)
	}
}

// TestDAGBounds: the bounds command reports every bound, best the largest.
func TestDAGBounds(t *testing.T) {
	doc, _ := dagJSON[plan.DAGBounds](t, "bounds", "--example", "--machines", "4", "--json")
	if doc.Kind != plan.KindDAGBounds || len(doc.Jobs) != 3 {
		t.Fatalf("kind %s, %d jobs", doc.Kind, len(doc.Jobs))
	}
	for _, j := range doc.Jobs {
		b := j.Bounds
		if b.Best != max(b.CPLength, b.Energy, b.NewLB, b.NodePacking, b.Bin) || b.Energy != math.Ceil(b.TWork) || b.Best <= 0 {
			t.Errorf("%s: %+v", j.Name, b)
		}
	}
	// q17: the critical path is scan 30 + join 90 + aggregate 20 + write
	// 15 = 155 s.
	if doc.Jobs[0].Bounds.CPLength != 155 {
		t.Errorf("q17 critical path %v, want 155", doc.Jobs[0].Bounds.CPLength)
	}
	code, out, _ := runCapplan(t, "dag", "bounds", dagSharedData(t, "psplib/j30/j301_1.sm"))
	if code != 0 || !strings.Contains(out, "j301_1\t30\t42\t30\t38\t") {
		t.Errorf("bounds j301_1: exit %d\n%s", code, out)
	}
}

// TestDAGCheckWorkload checks hand-written schedules of the example:
// machine names, times finer than the workload's tick, a missing task.
func TestDAGCheckWorkload(t *testing.T) {
	dir := t.TempDir()
	doc, _ := dagJSON[plan.DAGSchedule](t, "schedule", "--example", "--json", "--method", "cp")
	// Shift everything by half a second and name the machines: still
	// feasible, same makespan; the machines come from the example cluster.
	var b strings.Builder
	b.WriteString("job,task,start,end,machine\n")
	for _, j := range doc.Jobs {
		for _, task := range j.Tasks {
			fmt.Fprintf(&b, "%s,%s,%v,%v,%s\n", j.Name, task.ID, task.Start+0.5, task.End+0.5, plan.MachineName(doc.Machines, task.Machine))
		}
	}
	shifted := filepath.Join(dir, "shifted.csv")
	if err := os.WriteFile(shifted, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	chk, _ := dagJSON[plan.DAGCheck](t, "check", "--schedule", shifted, "--example", "--json")
	for i, j := range chk.Jobs {
		if !j.Feasible || j.Makespan != doc.Jobs[i].Makespan || j.Unit != 0.1 {
			t.Errorf("%s: feasible %v, makespan %v (want %v), unit %v", j.Name, j.Feasible, j.Makespan, doc.Jobs[i].Makespan, j.Unit)
		}
	}
	// Drop the last task: an error naming it, not a verdict.
	rows := strings.Split(strings.TrimSpace(b.String()), "\n")
	last := strings.Split(rows[len(rows)-1], ",")[1]
	missing := filepath.Join(dir, "missing.csv")
	if err := os.WriteFile(missing, []byte(strings.Join(rows[:len(rows)-1], "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCapplan(t, "dag", "check", "--schedule", missing, "--example")
	if code != exitFailure || !strings.Contains(errOut, "1 of 4 tasks have no schedule: "+last) {
		t.Errorf("missing task: exit %d: %s", code, errOut)
	}
}

// TestDAGAlibaba schedules a few jobs of the Alibaba sample, written to a
// small CSV with one job the loader rejects.
func TestDAGAlibaba(t *testing.T) {
	f, err := os.Open(dagSharedData(t, "alibaba-v2018/batch_task_dag_sample_hliangzhao.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	taskName := regexp.MustCompile(`^[A-Za-z]+[0-9]+(_[0-9]+)*$`)
	type job struct {
		rows  []string
		ok    bool
		tasks float64
	}
	jobs := map[string]*job{}
	var order []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ",")
		if len(fields) != 9 || fields[0] == "task_name" {
			continue
		}
		j := jobs[fields[2]]
		if j == nil {
			j = &job{ok: true}
			jobs[fields[2]] = j
			order = append(order, fields[2])
		}
		n, _ := strconv.ParseFloat(fields[1], 64)
		j.rows = append(j.rows, sc.Text())
		j.tasks += n
		j.ok = j.ok && taskName.MatchString(fields[0])
	}
	var keep, good []string
	rejected := ""
	for _, name := range order {
		j := jobs[name]
		switch {
		case j.ok && j.tasks <= 50 && len(j.rows) >= 2 && len(good) < 4:
			good = append(good, name)
			keep = append(keep, name)
		case !j.ok && rejected == "":
			rejected = name
			keep = append(keep, name)
		}
	}
	if len(good) < 4 || rejected == "" {
		t.Fatalf("sample has %d small jobs, rejected %q", len(good), rejected)
	}
	var b bytes.Buffer
	b.WriteString("task_name,instance_num,job_name,task_type,status,start_time,end_time,plan_cpu,plan_mem\n")
	for _, name := range keep {
		for _, r := range jobs[name].rows {
			b.WriteString(r + "\n")
		}
	}
	path := filepath.Join(t.TempDir(), "sample.csv")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCapplan(t, "dag", "schedule", path, "--json", "--method", "graphene", "--compare", "bfs")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "job "+rejected+" rejected: ") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("stderr lacks the rejection of %s:\n%s", rejected, errOut)
	}
	var doc plan.DAGSchedule
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, j := range doc.Jobs {
		names = append(names, j.Name)
		if j.ObservedSpan == nil || j.Compare["bfs"] < j.Makespan && j.Optimal {
			t.Errorf("%s: observed %v, bfs %v, makespan %v", j.Name, j.ObservedSpan, j.Compare["bfs"], j.Makespan)
		}
	}
	if !slices.Equal(names, good) || doc.Summary.Rejected != 1 || doc.Rejected[0].Job != rejected || doc.Rejected[0].Line < 2 {
		t.Errorf("jobs %v (want %v), rejected %+v", names, good, doc.Rejected)
	}
	if doc.Machines[0].Name != "alibaba" || doc.Machines[0].Count != 1 || doc.Machines[0].Capacity["cpu"] != 96 {
		t.Errorf("machines %+v", doc.Machines)
	}
}

func TestDAGErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	badCSV := write("bad.csv", "task,start,end,machine\n2,0,8,0\n3,x,4,0\n")
	badJSON := write("bad.json", "{\"tasks\": [\n  {\"id\": 2, \"start\": 0,, }\n]}\n")
	typeJSON := write("type.json", "{\"tasks\": [\n  {\"id\": 2, \"start\": \"soon\", \"end\": 8, \"machine\": 0}\n]}\n")
	noHeader := write("noheader.csv", "2,0,8,0\n")
	cases := []dagErrorCase{
		{"unknown method", []string{"schedule", "--example", "--method", "magic"}, exitUsage, []string{`invalid --method "magic": valid methods are best, sgs,`, "graphene", "tetris", "Usage:"}},
		{"unknown compare", []string{"schedule", "--example", "--compare", "cp,nope"}, exitUsage, []string{`"nope"`, "valid methods are"}},
		{"no input", []string{"schedule"}, exitUsage, []string{"give one input file"}},
		{"two inputs", []string{"schedule", "a.sm", "b.sm"}, exitUsage, []string{"accepts at most 1 arg"}},
		{"example and file", []string{"bounds", "--example", "x.yaml"}, exitUsage, []string{"--example cannot be combined"}},
		{"budget without best", []string{"schedule", "--example", "--method", "cp", "--budget", "10"}, exitUsage, []string{"--budget and --time-limit apply to --method best"}},
		{"time limit without best", []string{"schedule", "--example", "--method", "cp", "--time-limit", "2s"}, exitUsage, []string{"--budget and --time-limit apply to --method best"}},
		{"bad budget", []string{"schedule", "--example", "--budget", "soon"}, exitUsage, []string{`invalid argument "soon" for "--budget"`}},
		{"budget is work, not time", []string{"schedule", "--example", "--budget", "2s"}, exitUsage, []string{`invalid argument "2s" for "--budget"`}},
		{"negative budget", []string{"schedule", "--example", "--budget", "-3"}, exitUsage, []string{"invalid --budget -3"}},
		{"negative time limit", []string{"schedule", "--example", "--time-limit", "-1s"}, exitUsage, []string{"invalid --time-limit -1s"}},
		{"bounds negative budget", []string{"bounds", "--example", "--budget", "-3"}, exitUsage, []string{"invalid --budget -3"}},
		{"zero machines", []string{"schedule", "--example", "--machines", "0"}, exitUsage, []string{"invalid --machines 0"}},
		{"cluster and machines", []string{"schedule", "--example", "-c", "c.yaml", "--machines", "2"}, exitUsage, []string{"cannot be combined"}},
		{"bad capacity", []string{"schedule", "--example", "--machines", "2", "--machine-capacity", "cpu=lots"}, exitUsage, []string{"invalid --machine-capacity \"cpu=lots\"", "not a quantity"}},
		{"bad format", []string{"schedule", "--example", "--format", "xml"}, exitUsage, []string{`invalid --format "xml"`}},
		{"workload without machines", []string{"schedule", write("w.yaml", string(datasets.ExampleFiles()["workload.yaml"]))}, exitUsage, []string{"w.yaml: a workload needs machines"}},
		{"check without schedule", []string{"check", "--example"}, exitUsage, []string{"--schedule is required"}},
		{"missing file", []string{"schedule", filepath.Join(dir, "nope.sm")}, exitFailure, []string{"nope.sm"}},
		{"bad workload", []string{"schedule", write("bad.yaml", "apiVersion: capplan/v1\nkind: Workload\njobs:\n  - name: a\n    tasks:\n      - {id: x, duration: -3, demand: {cpu: 1}}\n"), "--machines", "2"}, exitFailure,
			[]string{"bad.yaml", "jobs[0].tasks[0].duration"}},
		{"no fit", []string{"schedule", "--example", "--machines", "2", "--machine-capacity", "cpu=2"}, exitFailure, []string{"job q17", "fit no machine", "join[0] (cpu 4 > 2)"}},
		{"bad csv schedule", []string{"check", "--schedule", badCSV, "--example"}, exitFailure, []string{"bad.csv:3: start \"x\" is not a number"}},
		{"bad json schedule", []string{"check", "--schedule", badJSON, "--example"}, exitFailure, []string{"bad.json:2:", "invalid JSON"}},
		{"json type", []string{"check", "--schedule", typeJSON, "--example"}, exitFailure, []string{"type.json:2:", "tasks.start"}},
		{"no header", []string{"check", "--schedule", noHeader, "--example"}, exitFailure, []string{"noheader.csv:1: no \"task\" column"}},
		{"no alibaba job", []string{"schedule", badCSV}, exitFailure, []string{"bad.csv: no job could be read (3 rejected; the first: line 1: job end: row has 4 fields, want 9)"}},
	}
	runDAGErrorCases(t, cases)
}

// dagErrorCase is a dag subcommand that must fail with an exit code and
// messages on stderr.
type dagErrorCase struct {
	name   string
	args   []string
	code   int
	stderr []string
}

func runDAGErrorCases(t *testing.T, cases []dagErrorCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCapplan(t, append([]string{"dag"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, errOut)
			}
			for _, s := range tc.stderr {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr lacks %q:\n%s", s, errOut)
				}
			}
			if strings.Contains(errOut, "panic") || strings.Contains(errOut, "goroutine") {
				t.Errorf("stderr shows a panic:\n%s", errOut)
			}
		})
	}
}

// TestDAGErrorsPSPLIB breaks a PSPLIB instance of the shared datasets
// (skipped without them, failing under CI=true).
func TestDAGErrorsPSPLIB(t *testing.T) {
	j30, err := os.ReadFile(testdatasets.Need(t, filepath.Join("psplib", "j30", "j301_1.sm")))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	unknown := write("unknown.csv", "task,start,end,machine\n99,0,8,0\n")
	// Line 57 is the request row of job 3; cut its demands.
	lines := strings.Split(string(j30), "\n")
	lines[56] = "  3      1     4      10"
	badSM := write("bad.sm", strings.Join(lines, "\n"))
	sm := write("j301_1.sm", string(j30))
	runDAGErrorCases(t, []dagErrorCase{
		{"bad sm", []string{"schedule", badSM}, exitFailure, []string{"bad.sm", "line 57", "request row"}},
		{"unknown task", []string{"check", "--schedule", unknown, sm}, exitFailure, []string{"unknown.csv: line 2: task \"99\" is not a task of job j301_1"}},
		{"psplib capacity", []string{"schedule", sm, "--machine-capacity", "R1=3"}, exitUsage, []string{"gives its own capacities"}},
	})
}
