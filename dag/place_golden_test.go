package dag

import (
	"bufio"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// updatePlacement rewrites testdata/placement.golden from the current code.
var updatePlacement = flag.Bool("update-placement", false, "rewrite testdata/placement.golden")

// placementCorpus is the corpus of TestPlacementGolden: the hand-built
// instances, seeded random tiny and staged instances, and two seeded
// data-analytics DAGs on several machines.
func placementCorpus(t *testing.T) []instance {
	out := handBuilt(t)
	rng := newTestRand(2024)
	for i := 0; i < 150; i++ {
		in := randomTiny(t, rng, 9)
		in.name = fmt.Sprintf("tiny-%d", i)
		out = append(out, in)
	}
	for i := 0; i < 100; i++ {
		in := randomStaged(t, rng)
		in.name = fmt.Sprintf("staged-%d", i)
		out = append(out, in)
	}
	for i, size := range []struct{ n, m int }{{300, 4}, {800, 10}} {
		d, ms := genStageDAG(t, uint64(7+i), size.n, 12, size.m)
		out = append(out, instance{name: fmt.Sprintf("gen-%d", size.n), d: d, machines: ms})
	}
	return out
}

// placementMethods are the schedulers whose schedules depend on the
// placement code: Graphene (both placement directions), the serial SGS
// forward and backward, StripPart (forward fits), forward–backward
// improvement (fixed-machine fits both ways) and Best.
var placementMethods = []string{"graphene", "ssgs-lft", "bssgs-lft", "strippart", "fbi", "best"}

func placementRun(t *testing.T, method string, in instance) *Schedule {
	switch method {
	case "fbi":
		s, err := Run("psgs-lft", in.d, in.machines, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return Justify(in.d, in.machines, s)
	case "best":
		r, err := Best(in.d, in.machines, Options{Seed: 1, MaxWork: 40 * in.d.passWork()})
		if err != nil {
			t.Fatal(err)
		}
		return r.Schedule
	}
	s, err := Run(method, in.d, in.machines, Options{Seed: 1, MaxCandidates: 12})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fingerprint hashes every start, end and machine of a schedule.
func fingerprint(s *Schedule) string {
	h := fnv.New64a()
	for i := range s.Start {
		fmt.Fprintf(h, "%d,%d,%d;", s.Start[i], s.End[i], s.Machine[i])
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// TestPlacementGolden pins the schedules of the placement-dependent
// methods on a fixed corpus to fingerprints recorded before the forward
// and backward placers were merged into one placer parametrised by
// direction (testdata/placement.golden; -update-placement rewrites it).
// A change in any fingerprint means placement changed behaviour.
func TestPlacementGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("placement corpus") // a few seconds
	}
	var got []string
	for _, in := range placementCorpus(t) {
		for _, m := range placementMethods {
			s := placementRun(t, m, in)
			mustCheck(t, m, in, s)
			got = append(got, fmt.Sprintf("%s %s %d %s", in.name, m, s.Makespan(), fingerprint(s)))
		}
	}
	path := filepath.Join("testdata", "placement.golden")
	if *updatePlacement {
		if err := os.WriteFile(path, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var want []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		want = append(want, sc.Text())
	}
	if len(want) != len(got) {
		t.Fatalf("%d fingerprints, golden file has %d", len(got), len(want))
	}
	bad := 0
	for i := range got {
		if got[i] != want[i] {
			if bad++; bad <= 10 {
				t.Errorf("got %s, want %s", got[i], want[i])
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d schedules changed", bad, len(got))
	}
}
