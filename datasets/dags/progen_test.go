package dags

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/internal/testdatasets"
)

// progenStats are the measures of a project that ProGen's parameters set.
type progenStats struct {
	nc      float64 // arcs per activity, dummies and their arcs counted
	uses    float64 // resources requested per activity
	tight   float64 // capacity over the largest request, mean over resources
	mpm     float64 // critical-path length
	maxIn   int
	maxOut  int
	starts  int // activities without predecessors
	finishs int // activities without successors
}

func statsOf(p *PSPLIB) progenStats {
	d := p.DAG
	n := len(d.Tasks)
	in := make([]int, n)
	var st progenStats
	arcs := 0
	for i := range d.Tasks {
		out := d.Succs(i)
		arcs += len(out)
		st.maxOut = max(st.maxOut, len(out))
		for _, j := range out {
			in[j]++
		}
		if len(out) == 0 {
			st.finishs++
		}
	}
	for i := range in {
		st.maxIn = max(st.maxIn, in[i])
		if in[i] == 0 {
			st.starts++
		}
	}
	st.nc = float64(arcs+st.starts+st.finishs) / float64(n+2)
	K := len(p.Capacity)
	kmin := make([]float64, K)
	for i := range d.Tasks {
		for k, r := range d.Tasks[i].Demand {
			if r > 0 {
				st.uses++
			}
			kmin[k] = max(kmin[k], r)
		}
	}
	st.uses /= float64(n)
	for k, c := range p.Capacity {
		st.tight += c / math.Max(1, kmin[k]) / float64(K)
	}
	st.mpm = float64(p.MPM)
	return st
}

// TestProGenNetwork checks the generated networks' invariants on every
// combination of the four PSPLIB sets: 3 start and 3 finish activities,
// at most 3 predecessors and successors, no redundant arc, arcs reaching
// NC from 60 activities up, exactly round(RF·4) requests per activity, the file's MPM equal to
// the critical path, and, at RS = 1, the earliest-start schedule
// feasible.
func TestProGenNetwork(t *testing.T) {
	for _, n := range []int{30, 60, 90, 120} {
		for pi, p := range ProGenSet(n) {
			inst, err := p.Generate(fmt.Sprintf("g%d_%d", n, pi+1), uint64(pi))
			if err != nil {
				t.Fatal(err)
			}
			d := inst.DAG
			st := statsOf(inst)
			if st.starts != 3 || st.finishs != 3 || st.maxIn > 3 || st.maxOut > 3 {
				t.Fatalf("J%d P%d: %d start and %d finish activities, in-degree ≤ %d, out-degree ≤ %d; want 3, 3, 3, 3", n, pi+1, st.starts, st.finishs, st.maxIn, st.maxOut)
			}
			if n >= 60 && math.Abs(st.nc-p.NC) > 0.02 { // J30 networks may saturate first (ProGen.Generate)
				t.Errorf("J%d P%d: NC %.3f, want %.2f", n, pi+1, st.nc, p.NC)
			}
			if st.uses != math.Round(p.RF*4) {
				t.Errorf("J%d P%d: %.2f requests per activity, want %v", n, pi+1, st.uses, math.Round(p.RF*4))
			}
			if cp := dag.CPLength(d); cp != inst.MPM {
				t.Errorf("J%d P%d: MPM %d, critical path %d", n, pi+1, inst.MPM, cp)
			}
			// no arc i → j is implied by a longer path
			for i := range d.Tasks {
				for _, j := range d.Succs(i) {
					if reachesAvoiding(d, i, j) {
						t.Fatalf("J%d P%d: arc %d → %d is redundant", n, pi+1, i, j)
					}
				}
			}
			if p.RS == 1 && !esFits(inst) {
				t.Errorf("J%d P%d: at RS = 1 the earliest-start schedule is infeasible", n, pi+1)
			}
		}
	}
}

// esFits reports whether the earliest-start schedule of p keeps within
// its capacities.
func esFits(p *PSPLIB) bool {
	d := p.DAG
	es := dag.Critical(d, 0).ES
	for k, c := range p.Capacity {
		use := make([]float64, p.MPM)
		for i := range d.Tasks {
			for t := es[i]; t < es[i]+d.Tasks[i].Duration; t++ {
				use[t] += d.Tasks[i].Demand[k]
			}
		}
		for _, u := range use {
			if u > c {
				return false
			}
		}
	}
	return true
}

// reachesAvoiding reports whether j follows i other than by arc i → j.
func reachesAvoiding(d *dag.DAG, i, j int) bool {
	seen := make([]bool, len(d.Tasks))
	var stack []int
	for _, s := range d.Succs(i) {
		if s != j {
			stack = append(stack, s)
		}
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v == j {
			return true
		}
		if seen[v] {
			continue
		}
		seen[v] = true
		stack = append(stack, d.Succs(v)...)
	}
	return false
}

// TestProGenLikePSPLIB compares generated projects with PSPLIB's own J60,
// combination by combination (10 instances each side): NC, the
// requests per activity, the capacity over the largest request (RS's
// effect) and the critical-path length must agree, so that what capplan
// measures on generated J90 and J120 projects speaks for PSPLIB's.
func TestProGenLikePSPLIB(t *testing.T) {
	for _, set := range []string{"j60"} {
		dir := testdatasets.Need(t, filepath.Join("psplib", set))
		n := 60
		var tightReal, tightGen, mpmReal, mpmGen float64
		for pi, p := range ProGenSet(n) {
			var real, gen progenStats
			for i := 1; i <= 10; i++ {
				name := filepath.Join(dir, fmt.Sprintf("%s%d_%d.sm", set, pi+1, i))
				f, err := os.Open(name)
				if err != nil {
					t.Fatal(err)
				}
				inst, err := ParsePSPLIB(name, f)
				f.Close()
				if err != nil {
					t.Fatal(err)
				}
				g, err := p.Generate("g", uint64(1000*pi+i))
				if err != nil {
					t.Fatal(err)
				}
				r, s := statsOf(inst), statsOf(g)
				real.nc, gen.nc = real.nc+r.nc/10, gen.nc+s.nc/10
				real.uses, gen.uses = real.uses+r.uses/10, gen.uses+s.uses/10
				real.tight, gen.tight = real.tight+r.tight/10, gen.tight+s.tight/10
				real.mpm, gen.mpm = real.mpm+r.mpm/10, gen.mpm+s.mpm/10
			}
			if math.Abs(real.nc-gen.nc) > 0.05 || math.Abs(real.uses-gen.uses) > 0.05 {
				t.Errorf("%s P%d: NC %.2f and %.2f requests per activity, generated %.2f and %.2f", set, pi+1, real.nc, real.uses, gen.nc, gen.uses)
			}
			if math.Abs(gen.tight/real.tight-1) > 0.25 || math.Abs(gen.mpm/real.mpm-1) > 0.25 {
				t.Errorf("%s P%d: capacity/largest request %.2f, critical path %.1f; generated %.2f, %.1f", set, pi+1, real.tight, real.mpm, gen.tight, gen.mpm)
			}
			tightReal, tightGen = tightReal+real.tight, tightGen+gen.tight
			mpmReal, mpmGen = mpmReal+real.mpm, mpmGen+gen.mpm
		}
		t.Logf("%s: capacity/largest request %.3f real, %.3f generated; critical path %.2f real, %.2f generated (means over the 48 combinations)",
			set, tightReal/48, tightGen/48, mpmReal/48, mpmGen/48)
		if math.Abs(tightGen/tightReal-1) > 0.05 || math.Abs(mpmGen/mpmReal-1) > 0.05 {
			t.Errorf("%s: generated projects differ from PSPLIB's by more than 5%% on average", set)
		}
	}
}

// TestWritePSPLIBRoundTrip writes projects as .sm files and reads them
// back: generated J30 and J120 projects and the hand-written tiny file
// give the same tasks, durations, requests, arcs, capacities, horizon
// and MPM.
func TestWritePSPLIBRoundTrip(t *testing.T) {
	tiny, err := ParsePSPLIB("tiny.sm", strings.NewReader(tinySM))
	if err != nil {
		t.Fatal(err)
	}
	cases := []*PSPLIB{tiny}
	for _, n := range []int{30, 120} {
		for _, pi := range []int{0, 17, 47} {
			g, err := ProGenSet(n)[pi].Generate(fmt.Sprintf("j%d%d_1", n, pi+1), uint64(pi))
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, g)
		}
	}
	for _, want := range cases {
		var buf bytes.Buffer
		if err := WritePSPLIB(&buf, want); err != nil {
			t.Fatal(err)
		}
		got, err := ParsePSPLIB(want.DAG.Name, &buf)
		if err != nil {
			t.Fatalf("%s: written file does not parse: %v", want.DAG.Name, err)
		}
		a, b := want.DAG, got.DAG
		if len(a.Tasks) != len(b.Tasks) || !slices.Equal(want.Capacity, got.Capacity) || want.MPM != got.MPM || want.Horizon != got.Horizon {
			t.Fatalf("%s: %d tasks, capacity %v, MPM %d, horizon %d; read back %d, %v, %d, %d", a.Name,
				len(a.Tasks), want.Capacity, want.MPM, want.Horizon, len(b.Tasks), got.Capacity, got.MPM, got.Horizon)
		}
		for i := range a.Tasks {
			if a.Tasks[i].ID != b.Tasks[i].ID || a.Tasks[i].Duration != b.Tasks[i].Duration || !slices.Equal(a.Tasks[i].Demand, b.Tasks[i].Demand) ||
				!slices.Equal(a.Succs(i), b.Succs(i)) {
				t.Fatalf("%s: task %s differs after the round trip", a.Name, a.Tasks[i].ID)
			}
		}
	}
	bad := &PSPLIB{DAG: tiny.DAG, Capacity: []float64{5.5, 3}}
	if err := WritePSPLIB(io.Discard, bad); err == nil || !strings.Contains(err.Error(), "whole numbers") {
		t.Errorf("a fractional capacity: %v, want an error asking for whole numbers", err)
	}
}
