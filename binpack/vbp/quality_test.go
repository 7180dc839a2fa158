package vbp

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestQualityReport solves a whole public set with Solve on two workers and
// prints a breakdown per class and per class and size: mean bins/OPT, the
// count at the optimum and missing it, the instances whose bound (raised
// to Bins when Solve proved it optimal) is below OPT, the count proven
// optimal, and the CPU time of the solving thread (wall time where the
// thread clock is not available), which does not depend on other load on
// the machine. It only runs when VBP_QUALITY names the set ("panigrahy" or
// "triplet"): it is a measuring tool for tuning, not a regression test.
// VBP_QUALITY_STRIDE samples every k-th instance, VBP_QUALITY_ONLY names a
// file listing the instances to keep, VBP_QUALITY_SEARCH sets
// Options.SearchIterations, and VBP_QUALITY_OUT writes one line per
// instance (name, bins, OPT, bound, summary LB, ms, method) to a file.
//
//	VBP_QUALITY=panigrahy go test -run TestQualityReport -v -timeout 1h ./binpack/vbp/
func TestQualityReport(t *testing.T) {
	set := os.Getenv("VBP_QUALITY")
	if set == "" {
		t.Skip("set VBP_QUALITY=panigrahy or triplet to run")
	}
	summary := map[string]string{"panigrahy": "Panigrahy_summary_known.csv", "triplet": "Triplet_summary_known.csv"}[set]
	stride := 1
	if s := os.Getenv("VBP_QUALITY_STRIDE"); s != "" {
		stride, _ = strconv.Atoi(s)
	}
	data := loadSet(t, set, summary, stride)
	if path := os.Getenv("VBP_QUALITY_ONLY"); path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{}
		for _, f := range strings.Fields(string(b)) {
			want[f] = true
		}
		keep := data[:0]
		for _, ki := range data {
			if want[ki.known.Name] {
				keep = append(keep, ki)
			}
		}
		data = keep
	}
	opt := Options{Seed: 1}
	if s := os.Getenv("VBP_QUALITY_SEARCH"); s != "" {
		opt.SearchIterations, _ = strconv.Atoi(s)
	}
	type out struct {
		bins, lb int
		took     time.Duration
		method   string
	}
	res := make([]out, len(data))
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := 0
	for w := 0; w < min(2, runtime.NumCPU()); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(data) {
					return
				}
				runtime.LockOSThread()
				c0, w0 := threadCPU(), time.Now()
				r, err := Solve(data[i].inst, opt)
				took := threadCPU() - c0
				if c0 < 0 {
					took = time.Since(w0)
				}
				runtime.UnlockOSThread()
				if err != nil {
					t.Error(err)
					return
				}
				lb := r.LowerBound.Best
				if r.Optimal {
					lb = r.Bins
				}
				res[i] = out{r.Bins, lb, took, r.Method}
			}
		}()
	}
	wg.Wait()
	type agg struct {
		n, opt, lbLow, proven int
		ratio                 float64
		sum, worst            time.Duration
	}
	classes := map[string]*agg{}
	total := &agg{}
	var lines []string
	for i, ki := range data {
		r := res[i]
		f := strings.Split(ki.known.Name, "_") // class_n_d_i
		keys := []string{f[0]}
		if len(f) == 4 {
			keys = append(keys, f[0]+"_n"+f[1])
		}
		var aggs []*agg
		for _, key := range keys {
			if classes[key] == nil {
				classes[key] = &agg{}
			}
			aggs = append(aggs, classes[key])
		}
		for _, a := range append(aggs, total) {
			a.n++
			a.ratio += float64(r.bins) / float64(ki.known.OPT)
			if r.bins == ki.known.OPT {
				a.opt++
			}
			if r.lb < ki.known.OPT {
				a.lbLow++
			}
			if r.bins == r.lb {
				a.proven++
			}
			a.sum += r.took
			a.worst = max(a.worst, r.took)
		}
		lines = append(lines, fmt.Sprintf("%s\t%d\t%d\t%d\t%d\t%.1f\t%s", ki.known.Name, r.bins, ki.known.OPT, r.lb, ki.known.LB, float64(r.took.Microseconds())/1000, r.method))
	}
	keys := make([]string, 0, len(classes))
	for k := range classes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	keys = append(keys, "TOTAL")
	classes["TOTAL"] = total
	for _, k := range keys {
		a := classes[k]
		t.Logf("%-16s n=%4d bins/OPT=%.4f opt=%4d miss=%3d lb<OPT=%3d proven=%4d mean=%6.1fms max=%6.1fms",
			k, a.n, a.ratio/float64(a.n), a.opt, a.n-a.opt, a.lbLow, a.proven,
			float64(a.sum.Microseconds())/1000/float64(a.n), float64(a.worst.Microseconds())/1000)
	}
	if path := os.Getenv("VBP_QUALITY_OUT"); path != "" {
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// threadCPU returns the CPU time used by the calling OS thread (Linux's
// RUSAGE_THREAD), or −1 where that is not available.
func threadCPU() time.Duration {
	const rusageThread = 1
	var ru syscall.Rusage
	if runtime.GOOS != "linux" || syscall.Getrusage(rusageThread, &ru) != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
