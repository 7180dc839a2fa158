package policies_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"hash"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/capplan/capplan/datasets/workloads"
	"github.com/capplan/capplan/sim"
)

// updateGolden rewrites testdata/golden.sha256 from the current code
// instead of comparing with it: run it only when a change of results is
// intended, and say why in the commit.
var updateGolden = flag.Bool("golden-update", false, "rewrite testdata/golden.sha256")

// goldenPolicies are the policies and variants the golden digests cover:
// a fixed list, so that a policy added later does not need a digest.
var goldenPolicies = []struct {
	name string
	args map[string]string
}{
	{"fifo", nil}, {"fifo-strict", nil}, {"capacity", nil}, {"drf", nil}, {"sjf", nil}, {"srtf", nil},
	{"cp", nil}, {"tetris", nil}, {"tetrisfair", nil},
	{"capacity", map[string]string{"preempt": "true", "wait": "0.000001", "max": "0.75"}},
	{"capacity", map[string]string{"preempt": "true", "wait": "5", "intra": "cp"}},
	{"drf", map[string]string{"entity": "job", "place": "align", "k": "all"}},
	{"fifo", map[string]string{"place": "best", "k": "3"}},
	{"sjf", map[string]string{"place": "align", "k": "8", "intra": "id"}},
	{"tetris", map[string]string{"f": "0.5", "intra": "cp"}},
	{"carbyne", nil},
	{"carbyne", map[string]string{"leftover": "pack", "altruism": "0.5"}},
}

func goldenLabel(name string, args map[string]string) string {
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		name += "," + k + "=" + args[k]
	}
	return name
}

// digestObserver feeds every observer call (arrivals, task starts with
// their machine, task ends with their kind, job completions, each with
// the time) into a SHA-256: two runs with the same digest made the same
// placements at the same times in the same order.
type digestObserver struct {
	h   hash.Hash
	buf [40]byte
}

func (o *digestObserver) rec(s *sim.State, kind uint64, a, b, c, d int64) {
	binary.LittleEndian.PutUint64(o.buf[0:], kind)
	binary.LittleEndian.PutUint64(o.buf[8:], uint64(s.Now()))
	binary.LittleEndian.PutUint32(o.buf[16:], uint32(a))
	binary.LittleEndian.PutUint32(o.buf[20:], uint32(b))
	binary.LittleEndian.PutUint64(o.buf[24:], uint64(c))
	binary.LittleEndian.PutUint64(o.buf[32:], uint64(d))
	o.h.Write(o.buf[:])
}

func (o *digestObserver) JobArrived(s *sim.State, j sim.JobID)  { o.rec(s, 1, int64(j), 0, 0, 0) }
func (o *digestObserver) JobFinished(s *sim.State, j sim.JobID) { o.rec(s, 2, int64(j), 0, 0, 0) }
func (o *digestObserver) TaskStarted(s *sim.State, t sim.TaskRef, m sim.MachineID) {
	o.rec(s, 3, int64(t.Job), int64(t.Task), int64(m), 0)
}
func (o *digestObserver) TaskEnded(s *sim.State, t sim.TaskRef, m sim.MachineID, k sim.EndKind) {
	o.rec(s, 4, int64(t.Job), int64(t.Task), int64(m), int64(k))
}

// goldenRun runs one cell and writes its Result (as JSON) and the digest
// of its observer calls into h.
func goldenRun(t *testing.T, h hash.Hash, cfg sim.Config, jobs []sim.Job) {
	t.Helper()
	obs := &digestObserver{h: sha256.New()}
	cfg.Observers = append(cfg.Observers, obs)
	res, err := sim.Run(cfg, sim.NewSliceSource(jobs))
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	h.Write(data)
	h.Write(obs.h.Sum(nil))
}

// goldenCells returns the cells of the golden test: name → a function
// that writes the cell's results into a hash.
func goldenCells(t *testing.T) ([]string, map[string]func(hash.Hash)) {
	fbSmall, err := workloads.NewFB(workloads.FBParams{Jobs: 150, Load: 0.9, Machines: 20, Seed: 3}, 0.001)
	if err != nil {
		t.Fatal(err)
	}
	google, err := workloads.NewGoogleLike(workloads.GoogleParams{Jobs: 120, Machines: 60, Types: 6, Slots: 2, Horizon: 600, Seed: 5}, 0.001)
	if err != nil {
		t.Fatal(err)
	}
	drain := func(next func() (sim.Job, bool)) []sim.Job {
		var jobs []sim.Job
		for j, ok := next(); ok; j, ok = next() {
			jobs = append(jobs, j)
		}
		return jobs
	}
	fbSmallJobs, googleJobs := drain(fbSmall.Next), drain(google.Next)
	var names []string
	cells := map[string]func(hash.Hash){}
	add := func(name string, fn func(hash.Hash)) {
		names = append(names, name)
		cells[name] = fn
	}
	for _, p := range goldenPolicies {
		label := goldenLabel(p.name, p.args)
		add("random/"+label, func(h hash.Hash) {
			for seed := uint64(1); seed <= 60; seed++ {
				c, us, jobs := randomCase(seed)
				noise := 0.0
				if seed%3 == 0 {
					noise = 0.4
				}
				goldenRun(t, h, sim.Config{Cluster: c, Users: us, Policy: mustPolicy(t, p.name, p.args), Seed: seed, Noise: noise,
					Check: true, JainWindows: []sim.Tick{10, 60}}, jobs)
			}
		})
		add("fbsmall/"+label, func(h hash.Hash) {
			goldenRun(t, h, sim.Config{Cluster: fbSmall.Cluster(), Users: fbSmall.Users(), Policy: mustPolicy(t, p.name, p.args), Seed: 3,
				Noise: 0.3, Check: true, TickSeconds: 0.001, JainWindows: []sim.Tick{1000, 60000}}, fbSmallJobs)
		})
		add("google/"+label, func(h hash.Hash) {
			goldenRun(t, h, sim.Config{Cluster: google.Cluster(), Users: google.Users(), Policy: mustPolicy(t, p.name, p.args), Seed: 5,
				Check: true, TickSeconds: 0.001, JainWindows: []sim.Tick{1000}}, googleJobs)
		})
	}
	if !testing.Short() {
		c, us, jobs := synthFB(t)
		for _, p := range goldenPolicies[:9] {
			add("synthfb/"+p.name, func(h hash.Hash) {
				goldenRun(t, h, sim.Config{Cluster: c, Users: us, Policy: mustPolicy(t, p.name, nil), Seed: 1, TickSeconds: 0.001,
					JainWindows: []sim.Tick{60000}}, jobs)
			})
		}
	}
	return names, cells
}

// TestGolden compares the SHA-256 of each cell's results (the Result as
// JSON and the sequence of observer calls) with testdata/golden.sha256:
// speed work on the core must not change a single placement. The cells
// cover every baseline policy and several variants on random DAGs (with
// noise, constraints, dummies, one-to-one links and task edges), a small
// W-FB with noise, a googlelike cluster with slots and constraints, and
// (without -short) the BenchmarkSim workload. The invariants are checked
// on all but the last.
func TestGolden(t *testing.T) {
	const file = "testdata/golden.sha256"
	want := map[string]string{}
	if !*updateGolden {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if hexsum, name, ok := strings.Cut(sc.Text(), "  "); ok {
				want[name] = hexsum
			}
		}
		f.Close()
	}
	names, cells := goldenCells(t)
	var out strings.Builder
	for _, name := range names {
		h := sha256.New()
		cells[name](h)
		got := hex.EncodeToString(h.Sum(nil))
		fmt.Fprintf(&out, "%s  %s\n", got, name)
		if *updateGolden {
			continue
		}
		if w, ok := want[name]; !ok {
			t.Errorf("%s: no golden digest", name)
		} else if w != got {
			t.Errorf("%s: digest %s, golden %s", name, got, w)
		}
	}
	if *updateGolden {
		if testing.Short() {
			t.Fatal("-golden-update needs the full set of cells (no -short)")
		}
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
