package main

import (
	"encoding/csv"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// TestFairShareForecastCap (issue 12, item 5): shares are reported in every
// resource of the inventory beside machines (JSON, text, CSV, xlsx), and
// an application never receives more than its forecast fills, the rest
// going to the others. On the example (hand arithmetic):
//
//   - reporting asks for 50 × (1 cpu, 1Gi) and 20 × (2 cpu, 8Gi) and may
//     use std-b only (32 cpu, 128Gi): 32 and 16 per machine, so ⌈50/32⌉ +
//     ⌈20/16⌉ = 2 + 2 = 4 machines, below its maxMachines of 8: it gets 4
//     (8 before the caps);
//   - cache asks for 24 × (4, 200Gi) and 8 × (8, 480Gi) on highmem (64,
//     1Ti): min(16, 5) = 5 and min(8, 2) = 2 per machine, so ⌈24/5⌉ +
//     ⌈8/2⌉ = 5 + 4 = 9 machines: it gets 9 (12.34 before);
//   - the 224 machines of std, std-b, highmem and spot less those 13 are
//     shared at one level by web, batch-etl, spark-analytics and ci.
func TestFairShareForecastCap(t *testing.T) {
	doc := fairShareJSON(t, "--example", "--json")
	if !doc.Certificate.Verified || doc.ForecastCap == "" {
		t.Fatalf("certificate verified %v, forecastCap %q", doc.Certificate.Verified, doc.ForecastCap)
	}
	want := map[string]string{"reporting": "4", "cache": "9"}
	for _, s := range doc.Shares {
		if w, ok := want[s.Application]; ok && s.MachinesExact != w {
			t.Errorf("%s: %s machines, want %s", s.Application, s.MachinesExact, w)
		}
		if s.ForecastMachines == nil || s.Machines > float64(*s.ForecastMachines)+1e-9 {
			t.Errorf("%s: %v machines over its forecast cap %v", s.Application, s.Machines, s.ForecastMachines)
		}
		for ty, m := range s.ByType {
			if c, ok := s.ForecastByType[ty]; !ok || m > float64(c)+1e-9 {
				t.Errorf("%s: %v machines of %s, cap %v", s.Application, m, ty, c)
			}
		}
		// Amounts are machines × capacity, summed over the types.
		for _, r := range doc.Resources {
			var sum float64
			for _, mt := range doc.MachineTypes {
				sum += s.ByType[mt.Name] * mt.Capacity[r]
			}
			if math.Abs(sum-s.Amounts[r]) > 1e-6*math.Max(1, sum) {
				t.Errorf("%s %s: amount %v, machines × capacity %v", s.Application, r, s.Amounts[r], sum)
			}
		}
		if s.Forecast["cpu"] <= 0 || s.Forecast["memory"] <= 0 {
			t.Errorf("%s: forecast %v", s.Application, s.Forecast)
		}
	}
	// The whole cluster is still handed out: what capped applications
	// leave goes to the others.
	if doc.Summary.Idle != 0 {
		t.Errorf("%v machines idle", doc.Summary.Idle)
	}
	// Without the caps, the former shares.
	uncapped := fairShareJSON(t, "--example", "--json", "--no-forecast-cap")
	for _, s := range uncapped.Shares {
		if s.Application == "reporting" && s.MachinesExact != "8" {
			t.Errorf("--no-forecast-cap: reporting %s machines, want its maxMachines 8", s.MachinesExact)
		}
	}
	// The LP agrees with the capped flow shares.
	lp := fairShareJSON(t, "--example", "--json", "--method", "lp")
	for i := range lp.Shares {
		if math.Abs(lp.Shares[i].Machines-doc.Shares[i].Machines) > 1e-9*math.Max(1, doc.Shares[i].Machines) {
			t.Errorf("%s: lp %v, flow %v", doc.Shares[i].Application, lp.Shares[i].Machines, doc.Shares[i].Machines)
		}
	}
	// Text: the shares by resource.
	code, out, _ := runCapplan(t, "fairshare", "--example")
	if code != 0 || !strings.Contains(out, "# Shares by resource\napplication\tcpu\tmemory\tgpu\tforecast cpu\tforecast memory\tforecast gpu\tmachines\tforecast cap\n") {
		t.Errorf("text: no shares by resource:\n%s", out)
	}
	// CSV: amount and forecast columns.
	_, out, _ = runCapplan(t, "fairshare", "--example", "--csv")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, col := range []string{"amount:cpu", "amount:memory", "amount:gpu", "forecast:cpu", "forecastMachines"} {
		if !slices.Contains(recs[0], col) {
			t.Errorf("CSV has no %s column: %v", col, recs[0])
		}
	}
	// xlsx: the Resources sheet, memory in GiB.
	path := filepath.Join(t.TempDir(), "fs.xlsx")
	if code, _, errOut := runCapplan(t, "fairshare", "--example", "--xlsx", path); code != 0 {
		t.Fatal(errOut)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("Resources")
	if err != nil || len(rows) != 1+len(doc.Shares) || rows[0][2] != "memory (GiB)" {
		t.Errorf("Resources sheet %v, %v", rows, err)
	}
}
