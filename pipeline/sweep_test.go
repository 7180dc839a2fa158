package pipeline

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/plan"
)

// memStore is an in-memory CellStore that counts what it stores.
type memStore struct {
	mu    sync.Mutex
	m     map[string][]byte
	saves int
}

func newMemStore() *memStore { return &memStore{m: map[string][]byte{}} }

func (s *memStore) Load(id string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.m[id]
	return d, ok, nil
}

func (s *memStore) Save(id string, doc *plan.SimulationResult) error {
	data, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[id] = data
	s.saves++
	return nil
}

// exampleSweep is a small sweep of the example workload: 3 policies × 3
// seeds × 2 loads = 18 cells.
func exampleSweep(t *testing.T, text string) *datasets.Sweep {
	t.Helper()
	if text == "" {
		text = `apiVersion: capplan/v1
kind: Sweep
baseline: drf
workloads: [{example: true}]
policies: [fifo, drf, srtf]
seeds: 1..3
loads: [0.6, 0.9]
`
	}
	s, err := datasets.ParseSweep("sweep.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSweepStat(t *testing.T) {
	// 1, 2, 3, 4, 5: mean 3; s² = (4+1+0+1+4)/4 = 2.5; t(0.975, 4) =
	// 2.776445 (Student's t table); half-width 2.776445·√2.5/√5 =
	// 2.776445·0.707107 = 1.963243.
	st := sweepStat([]float64{5, 1, 4, 2, 3})
	want := plan.SweepStat{N: 5, Mean: 3, SD: math.Sqrt(2.5), CI95: 1.963243, Median: 3, Min: 1, Max: 5}
	if st.N != want.N || st.Mean != want.Mean || st.Median != want.Median || st.Min != want.Min || st.Max != want.Max ||
		math.Abs(st.SD-want.SD) > 1e-12 || math.Abs(st.CI95-want.CI95) > 1e-6 {
		t.Errorf("got %+v, want %+v", st, want)
	}
	if st.Low != st.Mean-st.CI95 || st.High != st.Mean+st.CI95 {
		t.Errorf("interval [%v, %v] is not mean ∓ half-width", st.Low, st.High)
	}
	one := sweepStat([]float64{7})
	if one.CI95 != 0 || one.SD != 0 || one.Low != 7 || one.High != 7 {
		t.Errorf("one value: %+v, want no interval", one)
	}
	// The 0.975 quantiles of Student's t from a printed table, through
	// the half-width of two values d apart: s = d/√2, half-width = t·s/√2
	// = t·d/2.
	for _, tc := range []struct {
		n int
		t float64
	}{{2, 12.7062}, {5, 2.7764}, {10, 2.2622}, {20, 2.0930}, {30, 2.0452}} {
		xs := make([]float64, tc.n)
		xs[0] = 1 // one value 1, the rest 0: s² = (1 − 1/n)/(n − 1)·1 = 1/n
		st := sweepStat(xs)
		got := st.CI95 * math.Sqrt(float64(tc.n)) / math.Sqrt(1/float64(tc.n))
		if math.Abs(got-tc.t) > 5e-5 {
			t.Errorf("n = %d: t = %.5f, want %.4f", tc.n, got, tc.t)
		}
	}
}

// TestSweepOrder checks that cells enumerate the axes in file order, the
// first varying slowest, with the parameter axis expanding its policy in
// place.
func TestSweepOrder(t *testing.T) {
	s := exampleSweep(t, `apiVersion: capplan/v1
kind: Sweep
loads: [0.5, 0.7]
workloads: [{example: true}]
policies: [drf, tetris]
params: {tetris.f: [0, 1]}
seeds: [4, 2]
`)
	o := SweepOptions{Spec: s, Store: newMemStore(), Generator: "test"}
	p, err := planSweep(&o)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range p.cells {
		got = append(got, c.v.label+"@"+trimFloat(c.spec.Load)+"#"+trimFloat(float64(c.spec.Seed)))
	}
	// loads (slowest), workloads, policy variants (drf, tetris f=0,
	// tetris f=1), seeds (fastest).
	want := []string{
		"drf@0.5#4", "drf@0.5#2", "tetris f=0@0.5#4", "tetris f=0@0.5#2", "tetris f=1@0.5#4", "tetris f=1@0.5#2",
		"drf@0.7#4", "drf@0.7#2", "tetris f=0@0.7#4", "tetris f=0@0.7#2", "tetris f=1@0.7#4", "tetris f=1@0.7#2",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("cells\n%v\nwant\n%v", got, want)
	}
	names := []string{}
	for _, a := range p.info.Axes {
		names = append(names, a.Name)
	}
	if strings.Join(names, ",") != "load,workload,policy,tetris.f,seed" {
		t.Errorf("axes %v", names)
	}
}

// TestSweepCellIDs checks that a cell's id is a function of its spec: the
// same spec gives the same id, and changing any parameter, the capplan
// version or an input's content gives another.
func TestSweepCellIDs(t *testing.T) {
	base := cellSpec{Version: sweepCellVersion, Generator: "capplan v1", Inputs: []cellInput{{Role: "workload", Name: "w.yaml", SHA256: "aa"}},
		Workload: cellLoad{Kind: "file"}, Policy: plan.SimPolicy{Name: "drf"}, Seed: 1, Load: 0.8, NoiseMode: "mean", Tick: "1ms"}
	same := base
	if base.id() != same.id() || len(base.id()) != 64 {
		t.Fatalf("ids %s and %s of equal specs", base.id(), same.id())
	}
	changes := map[string]func(c *cellSpec){
		"seed":      func(c *cellSpec) { c.Seed = 2 },
		"load":      func(c *cellSpec) { c.Load = 0.9 },
		"noise":     func(c *cellSpec) { c.Noise = 0.1 },
		"policy":    func(c *cellSpec) { c.Policy.Name = "fifo" },
		"param":     func(c *cellSpec) { c.Policy.Params = map[string]string{"entity": "job"} },
		"wparam":    func(c *cellSpec) { c.Workload.Params = map[string]string{"machines": "5"} },
		"generator": func(c *cellSpec) { c.Generator = "capplan v2" },
		"input":     func(c *cellSpec) { c.Inputs = []cellInput{{Role: "workload", Name: "w.yaml", SHA256: "ab"}} },
		"tick":      func(c *cellSpec) { c.Tick = "1s" },
	}
	seen := map[string]string{base.id(): "base"}
	for name, change := range changes {
		c := base
		change(&c)
		if prev, dup := seen[c.id()]; dup {
			t.Errorf("changing the %s gives the id of %s", name, prev)
		}
		seen[c.id()] = name
	}
}

// TestSweepShardsMerge runs a sweep whole, then in N = 1, 2, 3 and 7
// shards sharing one cell store, and merges the parts: the merged
// document must encode to the same bytes, and every shard must reuse the
// cells the whole run stored.
func TestSweepShardsMerge(t *testing.T) {
	store := newMemStore()
	whole, err := Sweep(SweepOptions{Spec: exampleSweep(t, ""), Store: store, Generator: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if whole.Cells != 18 || whole.Ran != 18 || whole.Reused != 0 {
		t.Errorf("whole run: %+v, want 18 cells simulated", whole)
	}
	want, _ := json.Marshal(whole.Doc)
	for _, n := range []int{1, 2, 3, 7} {
		dir := t.TempDir()
		var paths []string
		for i := range n {
			sh := plan.Shard{Index: i, Count: n}
			res, err := Sweep(SweepOptions{Spec: exampleSweep(t, ""), Store: store, Generator: "test", Shard: &sh, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			if res.Ran != 0 {
				t.Errorf("N=%d shard %d simulated %d cells the store holds", n, i, res.Ran)
			}
			path := filepath.Join(dir, PartFileName(res.Part.Command, sh))
			data, _ := json.Marshal(res.Part)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, path)
		}
		// Parts in reverse order: merging does not depend on it.
		for i, j := 0, len(paths)-1; i < j; i, j = i+1, j-1 {
			paths[i], paths[j] = paths[j], paths[i]
		}
		m, err := Merge(MergeOptions{Paths: paths})
		if err != nil {
			t.Fatalf("N=%d: %v", n, err)
		}
		got, _ := json.Marshal(m.Doc)
		if string(got) != string(want) {
			t.Errorf("N=%d: merged document differs from the whole run's", n)
		}
	}
	if store.saves != 18 {
		t.Errorf("%d cells stored, want 18 (each once)", store.saves)
	}
}

// TestSweepPairsAsSimulate checks a cell's comparison against `capplan
// simulate --compare --baseline` on the same inputs: the same FI
// quantiles, ratios and share slowed.
func TestSweepPairsAsSimulate(t *testing.T) {
	res, err := Sweep(SweepOptions{Spec: exampleSweep(t, ""), Store: newMemStore(), Generator: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Doc.Cells {
		if c.Policy.Name != "srtf" || c.Seed != 2 || c.Load != 0.9 {
			continue
		}
		set, err := Simulate(SimulateOptions{Example: true, Policies: []string{"srtf"}, Baseline: "drf", Seed: 2, Load: 0.9})
		if err != nil {
			t.Fatal(err)
		}
		want := set.Runs[0].Compare
		got := c.Compare
		if got == nil || got.FI != want.FI || got.AvgJCTRatio != want.AvgJCTRatio || got.Slowed != want.Slowed ||
			got.MinFI != want.MinFI || got.Gap != want.Gap || got.Paired != want.Paired {
			t.Errorf("cell %d compare %+v, simulate %+v", c.Index, got, want)
		}
		if base := res.Doc.Cells[got.Baseline]; base.Policy.Name != "drf" || base.Seed != 2 || base.Load != 0.9 {
			t.Errorf("baseline cell %d is %s seed %d load %v", got.Baseline, base.Policy.Name, base.Seed, base.Load)
		}
		return
	}
	t.Fatal("no srtf cell at seed 2, load 0.9")
}

// TestSweepResumes checks that a second run reuses every stored cell and
// stores nothing, and that a stored result of another cell is not reused.
func TestSweepResumes(t *testing.T) {
	store := newMemStore()
	first, err := Sweep(SweepOptions{Spec: exampleSweep(t, ""), Store: store, Generator: "test"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := Sweep(SweepOptions{Spec: exampleSweep(t, ""), Store: store, Generator: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if again.Reused != 18 || again.Ran != 0 || store.saves != 18 {
		t.Errorf("second run %+v, %d saves; want all 18 reused", again, store.saves)
	}
	a, _ := json.Marshal(first.Doc)
	b, _ := json.Marshal(again.Doc)
	if string(a) != string(b) {
		t.Error("the resumed run's document differs")
	}
	// Swap two cells' results: neither matches its cell (other policy or
	// seed), so both are simulated again.
	ids := []string{first.Doc.Cells[0].ID, first.Doc.Cells[4].ID}
	store.m[ids[0]], store.m[ids[1]] = store.m[ids[1]], store.m[ids[0]]
	third, err := Sweep(SweepOptions{Spec: exampleSweep(t, ""), Store: store, Generator: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if third.Ran != 2 {
		t.Errorf("swapped results: %d cells simulated, want 2", third.Ran)
	}
}

func TestSweepBadSpec(t *testing.T) {
	cases := []struct{ name, spec, want string }{
		{"unknown policy", "policies: [fifo, nosuch]", `policies[1]: unknown policy "nosuch"`},
		{"bad parameter", "policies: [{name: tetris, params: {nosuch: 1}}]", "policies[0]"},
		{"baseline absent", "policies: [fifo]\nbaseline: drf", "baseline: policy drf is not among the policies"},
		{"baseline with variants", "policies: [drf]\nbaseline: drf\nparams: {drf.entity: [user, job]}", "baseline: policy drf appears in 2 variants"},
		{"param of an absent policy", "policies: [fifo]\nparams: {tetris.f: [0, 1]}", `params["tetris.f"]: policy tetris is not among the policies`},
		{"altruism without a taker", "policies: [fifo]\naltruism: [0, 1]", "none of the policies (fifo) takes an altruism parameter"},
		{"sizes of a workload file", "policies: [fifo]\nsizes: [4]", "sizes set the machines of generated workloads"},
		{"repeated policy", "policies: [fifo, fifo]", "policies[1]: policy fifo repeats policies[0]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := exampleSweep(t, "apiVersion: capplan/v1\nkind: Sweep\nworkloads: [{example: true}]\n"+tc.spec+"\n")
			_, err := Sweep(SweepOptions{Spec: s, Store: newMemStore(), Generator: "test"})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "sweep.yaml: ") {
				t.Errorf("error %v, want one naming sweep.yaml and containing %q", err, tc.want)
			}
			if !IsOptionError(err) {
				t.Errorf("%v is not an option error", err)
			}
		})
	}
}

// TestSweepInputChanged checks the content addressing: a changed input
// file changes every cell's id, so nothing stored for the old content is
// reused.
func TestSweepInputChanged(t *testing.T) {
	dir := t.TempDir()
	files := datasets.SimulateExampleFiles()
	for _, n := range []string{"cluster.yaml", "workload.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, n), files[n], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	spec := "apiVersion: capplan/v1\nkind: Sweep\ncluster: cluster.yaml\nworkloads: [workload.yaml]\npolicies: [fifo]\nseeds: 1..2\n"
	parse := func() *datasets.Sweep {
		s := exampleSweep(t, spec)
		s.Dir = dir
		return s
	}
	store := newMemStore()
	first, err := Sweep(SweepOptions{Spec: parse(), Store: store, Generator: "test"})
	if err != nil {
		t.Fatal(err)
	}
	w := append(append([]byte{}, files["workload.yaml"]...), "\n# edited\n"...)
	if err := os.WriteFile(filepath.Join(dir, "workload.yaml"), w, 0o644); err != nil {
		t.Fatal(err)
	}
	second, err := Sweep(SweepOptions{Spec: parse(), Store: store, Generator: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if second.Ran != 2 || second.Doc.Cells[0].ID == first.Doc.Cells[0].ID || second.Doc.Inputs[1].SHA256 == first.Doc.Inputs[1].SHA256 {
		t.Errorf("after the edit: %d cells simulated (want 2), ids %s → %s", second.Ran, first.Doc.Cells[0].ID, second.Doc.Cells[0].ID)
	}
}

// TestSweepMixedWorkloads runs a workload file on the sweep's cluster
// beside a generated workload, which brings its own.
func TestSweepMixedWorkloads(t *testing.T) {
	dir := t.TempDir()
	files := datasets.SimulateExampleFiles()
	for _, n := range []string{"cluster.yaml", "workload.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, n), files[n], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := exampleSweep(t, "apiVersion: capplan/v1\nkind: Sweep\ncluster: cluster.yaml\n"+
		"workloads: [workload.yaml, {generator: googlelike, params: {jobs: 20, machines: 40}}]\npolicies: [fifo]\n")
	s.Dir = dir
	res, err := Sweep(SweepOptions{Spec: s, Store: newMemStore(), Generator: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Doc.Cells) != 2 || res.Doc.Cells[0].Workload != "workload.yaml" || res.Doc.Cells[1].Workload != "googlelike" || res.Doc.Cells[1].Jobs != 20 {
		t.Errorf("cells %+v", res.Doc.Cells)
	}
}
