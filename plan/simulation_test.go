package plan

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func f(x float64) *float64 { return &x }

// run is a small run: jobs a (arrival 0, finish 10), b (2 → 6), c
// unfinished.
func testRun(policy string, fa, fb float64) SimulationRun {
	r := SimulationRun{Policy: SimPolicy{Name: policy}, Jobs: []SimJob{
		{Name: "a", Arrival: 0, Start: f(0), Finish: f(fa), JCT: f(fa)},
		{Name: "b", Arrival: 2, Start: f(2), Finish: f(2 + fb), JCT: f(fb)},
		{Name: "c", Arrival: 3},
	}}
	SummarizeJCT(&r.Summary, r.Jobs)
	r.Summary.Makespan = max(fa, 2+fb)
	return r
}

func TestQuantile(t *testing.T) {
	cases := []struct {
		xs   []float64
		q    float64
		want float64
	}{
		{nil, .5, 0},
		{[]float64{7}, .95, 7},
		// sorted 1 2 3 4: h = 3·0.5 = 1.5 → 2 + 0.5·(3−2) = 2.5
		{[]float64{4, 1, 3, 2}, .5, 2.5},
		// h = 3·0.25 = 0.75 → 1 + 0.75·1 = 1.75
		{[]float64{4, 1, 3, 2}, .25, 1.75},
		{[]float64{4, 1, 3, 2}, 1, 4},
	}
	for _, c := range cases {
		if got := Quantile(c.xs, c.q); got != c.want {
			t.Errorf("Quantile(%v, %v) = %v, want %v", c.xs, c.q, got, c.want)
		}
	}
}

// TestCompare: baseline JCTs a = 10, b = 4; policy a = 5, b = 8. FI_a =
// 10/5 = 2, FI_b = 4/8 = 0.5: mean 1.25, one of two slowed, and below 0.8;
// min 0.5; gaps (10−5)/10 = 0.5 and (4−8)/4 = −1. Avg JCT 7 vs 6.5:
// ratio 7/6.5. c is unfinished in both: not paired.
func TestCompare(t *testing.T) {
	base, run := testRun("drf", 10, 4), testRun("x", 5, 8)
	c := Compare("drf", &base, &run)
	if c.Paired != 2 || c.FI.Mean != 1.25 || c.Slowed != .5 || c.SlowedBelow0_8 != .5 || c.MinFI != .5 {
		t.Fatalf("compare %+v", c)
	}
	// FI sorted 0.5, 2: p50 = 1.25; gap sorted −1, 0.5: p50 = −0.25
	if c.FI.P50 != 1.25 || c.Gap.P50 != -0.25 || math.Abs(c.AvgJCTRatio-7/6.5) > 1e-12 || c.PerJob[0].FI != 2 {
		t.Errorf("compare %+v", c)
	}
}

// TestSimulationDocument round-trips a set through JSON and checks
// validation errors.
func TestSimulationDocument(t *testing.T) {
	seed := int64(3)
	set := &SimulationSet{Header: Header{APIVersion: APIVersion, Kind: KindSimulationSet, Seed: &seed},
		SimulationContext: SimulationContext{Tick: 0.001, Contention: "off", NoiseMode: "mean"},
		Baseline:          "drf", Runs: []SimulationRun{testRun("drf", 10, 4), testRun("x", 5, 8)}}
	set.Runs[1].Compare = Compare("drf", &set.Runs[0], &set.Runs[1])
	if err := set.Validate(); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	var back SimulationSet
	if err := DecodeDocument("set.json", data, KindSimulationSet, &back); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(&back)
	if string(again) != string(data) {
		t.Errorf("round trip changed the document")
	}
	one := back.Result(1)
	if one.Kind != KindSimulationResult || one.Policy.Name != "x" || one.Validate() != nil {
		t.Errorf("Result(1) = %+v", one.Header)
	}
	for _, s := range []string{`"apiVersion":"capplan/v1"`, `"kind":"SimulationSet"`, `"results":[`, `"avgJCT":`, `"jct":null`, `"compare":{"baseline":"drf"`} {
		if !strings.Contains(string(data), s) {
			t.Errorf("JSON lacks %s", s)
		}
	}
	bad := back
	bad.Runs = append([]SimulationRun(nil), back.Runs...)
	bad.Runs[0].Jobs = append([]SimJob(nil), back.Runs[0].Jobs...)
	bad.Runs[0].Jobs[0].JCT = f(3)
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "jct") {
		t.Errorf("inconsistent jct accepted: %v", err)
	}
	bad.Runs[0] = back.Runs[0]
	bad.Baseline = "nope"
	if err := bad.Validate(); err == nil {
		t.Error("unknown baseline accepted")
	}
}

func TestSizeBin(t *testing.T) {
	for _, c := range []struct {
		s    float64
		want string
	}{{0, "<30s"}, {29.9, "<30s"}, {30, "30-120s"}, {120, "120-600s"}, {600, "120-600s"}, {601, ">600s"}} {
		if got := SizeBin(c.s); got != c.want {
			t.Errorf("SizeBin(%v) = %s, want %s", c.s, got, c.want)
		}
	}
}
