package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/flow"
	"github.com/capplan/capplan/lp"
	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/reports"
)

func main() {
	quick := flag.Bool("quick", false, "smaller sizes only")
	only := flag.String("only", "", "comma-separated groups to run: fairshare, lp, process, shapes, dag, progen, pack, vbp, sim, online, constraints, limits (default all)")
	proof := flag.String("dag-proof", "", "comma-separated work budgets of the J60 proof table (default 10× and 160× dag.DefaultSearchWork)")
	flag.Parse()
	if *proof != "" {
		dagProofBudgets = nil
		for _, f := range strings.Split(*proof, ",") {
			w, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
			if err != nil || w <= 0 {
				fmt.Fprintf(os.Stderr, "benchtables: -dag-proof: %q is not a positive number of work units\n", f)
				os.Exit(2)
			}
			dagProofBudgets = append(dagProofBudgets, w)
		}
	}
	if err := run(*quick, *only); err != nil {
		fmt.Fprintln(os.Stderr, "benchtables:", err)
		os.Exit(1)
	}
}

func run(quick bool, only string) error {
	fmt.Printf("capplan benchmark tables — %s/%s, %d CPUs, %s\n\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	groups := []struct {
		name  string
		table func(bool) error
	}{
		{"fairshare", fairShareTable}, {"lp", lpTable}, {"process", processTable},
		{"shapes", shapesTables}, {"dag", dagTables}, {"progen", dagProGenTable}, {"pack", packTable}, {"vbp", vbpTables},
		{"sim", simTables}, {"online", onlineTables}, {"constraints", constraintTables}, {"limits", limitsTables},
	}
	var selected []func(bool) error
	for _, g := range groups {
		if only == "" || slices.Contains(strings.Split(only, ","), g.name) {
			selected = append(selected, g.table)
		}
	}
	if len(selected) == 0 {
		return fmt.Errorf("-only %q names no table group (fairshare, lp, process, shapes, dag, progen, pack, vbp, sim, online, constraints, limits)", only)
	}
	return inOrder(quick, selected...)
}

type instance struct {
	family                 string
	users, types, machines int
	p                      *flow.Problem
}

func (in instance) name() string {
	return fmt.Sprintf("%s %d×%d×%d", in.family, in.users, in.types, in.machines)
}

func instances(quick bool) []instance {
	sizes := []instance{
		{family: "google", users: 500, types: 50, machines: 10_000},
		{family: "google", users: 5000, types: 100, machines: 100_000},
		{family: "nested", users: 5000, types: 100, machines: 100_000},
		{family: "random", users: 5000, types: 100, machines: 100_000},
	}
	if quick {
		sizes = sizes[:1]
	}
	for i := range sizes {
		sizes[i].p = generate(sizes[i])
	}
	return sizes
}

// generate builds the CMMF problem of a benchmark family: "google" from
// datasets.GoogleLike (Choosy §7's constraint model), "nested" with
// nested eligible sets over 11 size thresholds (ALGORITHMS.md §5.6's hard
// case), "random" with unrelated random eligible sets and weights 1–100
// (nothing to compress).
func generate(in instance) *flow.Problem {
	if in.family == "google" {
		c, d := datasets.GoogleLike(datasets.GoogleParams{Users: in.users, Types: in.types, Machines: in.machines}, 1)
		inst, err := datasets.Coalesce(c, d)
		if err != nil {
			panic(err)
		}
		return pipeline.CMMFProblem(inst, d)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	p := &flow.Problem{Types: make([]int64, in.types), Users: make([]flow.User, in.users)}
	for t := range p.Types {
		p.Types[t] = 1
	}
	for left := in.machines - in.types; left > 0; left-- {
		p.Types[rng.IntN(in.types)]++
	}
	for u := range p.Users {
		var ts []int
		w := 1 + rng.Int64N(4)
		if in.family == "nested" {
			for t := rng.IntN(11) * in.types / 11; t < in.types; t++ {
				ts = append(ts, t)
			}
		} else {
			w = 1 + rng.Int64N(100)
			prob := 0.07 + 0.93*rng.Float64()
			for t := 0; t < in.types; t++ {
				if rng.Float64() < prob {
					ts = append(ts, t)
				}
			}
			if len(ts) == 0 {
				ts = []int{rng.IntN(in.types)}
			}
		}
		p.Users[u] = flow.User{Weight: w, Demand: flow.Unbounded, Types: ts}
	}
	return p
}

// timeIt returns the best of reps runs and the bytes allocated by one.
func timeIt(reps int, f func() error) (time.Duration, uint64, error) {
	best := time.Duration(math.MaxInt64)
	var alloc uint64
	for i := 0; i < reps; i++ {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		t0 := time.Now()
		if err := f(); err != nil {
			return 0, 0, err
		}
		d := time.Since(t0)
		runtime.ReadMemStats(&m1)
		alloc = m1.TotalAlloc - m0.TotalAlloc
		best = min(best, d)
	}
	return best, alloc, nil
}

func unweighted(p *flow.Problem) *flow.Problem {
	q := &flow.Problem{Types: p.Types, Users: append([]flow.User(nil), p.Users...)}
	for i := range q.Users {
		q.Users[i].Weight = 1
	}
	return q
}

func fairShareTable(quick bool) error {
	t := reports.Table{
		Title:  "CMMF solve (flow, exact): best of 3; every result passes flow.Verify",
		Header: []string{"instance", "method", "time", "allocated", "rounds", "max flows", "verified"},
		Align:  []reports.Align{reports.AlignLeft, reports.AlignLeft, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignLeft},
	}
	for _, in := range instances(quick) {
		for _, m := range []struct {
			name  string
			p     *flow.Problem
			solve func(*flow.Problem) (*flow.Result, error)
		}{
			{"divisible weighted", in.p, flow.Divisible},
			{"integral weighted", in.p, flow.Integral},
			{"integral unweighted", unweighted(in.p), flow.Integral},
		} {
			var r *flow.Result
			d, alloc, err := timeIt(3, func() (err error) { r, err = m.solve(m.p); return err })
			if err != nil {
				return err
			}
			ok := "yes"
			if err := flow.Verify(m.p, r); err != nil {
				ok = "NO: " + err.Error()
			}
			t.Rows = append(t.Rows, []string{in.name(), m.name, d.Round(time.Microsecond).String(), mib(alloc),
				fmt.Sprint(r.Rounds), fmt.Sprint(r.MaxFlows), ok})
		}
	}
	return render(t)
}

func lpTable(quick bool) error {
	t := reports.Table{
		Title:  "Iterative-LP CMMF vs exact flow (divisible, weighted): best of 2",
		Header: []string{"instance", "method", "backend", "time", "LPs", "max rel. diff vs flow"},
		Align:  []reports.Align{reports.AlignLeft, reports.AlignLeft, reports.AlignLeft, reports.AlignRight, reports.AlignRight, reports.AlignRight},
	}
	type size struct{ users, types, machines int }
	sizes := []size{{50, 10, 1000}, {500, 50, 10_000}}
	if quick {
		sizes = sizes[:1]
	}
	for _, sz := range sizes {
		in := instance{family: "google", users: sz.users, types: sz.types, machines: sz.machines}
		in.p = generate(in)
		exact, err := flow.Divisible(in.p)
		if err != nil {
			return err
		}
		for _, backend := range lp.Backends() {
			methods := []struct {
				name string
				f    func(*flow.Problem, lp.Solver) (*lp.CMMFResult, error)
			}{{"CMMF (one test LP per round)", lp.CMMF}}
			if sz.users <= 50 {
				methods = append(methods, struct {
					name string
					f    func(*flow.Problem, lp.Solver) (*lp.CMMFResult, error)
				}{"paper Algorithm 1 (LP per user)", lp.CMMFPaper})
			}
			if backend == lp.BackendSimplex && sz.users > 50 {
				t.Rows = append(t.Rows, []string{in.name(), "CMMF", backend, "skipped (dense simplex; use clp)", "-", "-"})
				continue
			}
			for _, m := range methods {
				s, err := lp.NewSolver(backend)
				if err != nil {
					return err
				}
				var r *lp.CMMFResult
				d, _, err := timeIt(2, func() (err error) { r, err = m.f(in.p, s); return err })
				if err != nil {
					return err
				}
				worst := 0.0
				for u := range in.p.Users {
					e := exact.Amount[u].Float64()
					worst = math.Max(worst, math.Abs(r.Amount[u]-e)/math.Max(1, e))
				}
				t.Rows = append(t.Rows, []string{in.name(), m.name, backend, d.Round(time.Microsecond).String(), fmt.Sprint(r.LPs), fmt.Sprintf("%.1e", worst)})
			}
		}
	}
	return render(t)
}

// processTable runs the capplan binary end to end on generated input files
// (read, solve, verify, write JSON) and reports wall time and peak RSS.
func processTable(quick bool) error {
	bin, dir, err := buildCapplan("capplan-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	t := reports.Table{
		Title:  "Whole process: capplan fairshare -c cluster.yaml -d demand.yaml -o out.json (best of 3)",
		Header: []string{"instance", "flags", "wall time", "peak RSS"},
		Align:  []reports.Align{reports.AlignLeft, reports.AlignLeft, reports.AlignRight, reports.AlignRight},
	}
	sizes := [][3]int{{500, 50, 10_000}, {5000, 100, 100_000}}
	if quick {
		sizes = sizes[:1]
	}
	for _, sz := range sizes {
		c, d := datasets.GoogleLike(datasets.GoogleParams{Users: sz[0], Types: sz[1], Machines: sz[2]}, 1)
		cpath, dpath := filepath.Join(dir, "cluster.yaml"), filepath.Join(dir, "demand.yaml")
		if err := writeYAML(cpath, c); err != nil {
			return err
		}
		if err := writeYAML(dpath, d); err != nil {
			return err
		}
		for _, flags := range [][]string{nil, {"--integral"}, {"--integral", "--per-node"}} {
			args := append([]string{"fairshare", "-c", cpath, "-d", dpath, "-o", filepath.Join(dir, "out.json")}, flags...)
			best, peak := time.Duration(math.MaxInt64), int64(0)
			for i := 0; i < 3; i++ {
				cmd := exec.Command(bin, args...)
				cmd.Stderr = os.Stderr
				t0 := time.Now()
				if err := cmd.Run(); err != nil {
					return fmt.Errorf("capplan %v: %w", args, err)
				}
				best = min(best, time.Since(t0))
				if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					peak = max(peak, ru.Maxrss*1024)
				}
			}
			t.Rows = append(t.Rows, []string{fmt.Sprintf("google %d×%d×%d", sz[0], sz[1], sz[2]), fmt.Sprint(flags),
				best.Round(time.Millisecond).String(), mib(uint64(peak))})
		}
	}
	return render(t)
}

func writeYAML(path string, v any) error {
	b, err := datasets.MarshalYAML(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

func mib(b uint64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func render(t reports.Table) error {
	if err := t.Render(os.Stdout, true); err != nil {
		return err
	}
	fmt.Println()
	return nil
}
