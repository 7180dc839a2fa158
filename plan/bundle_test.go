package plan

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

// bundleFS is a small valid bundle: a FairShare and a sizing PackingPlan.
func bundleFS(t *testing.T) (fstest.MapFS, *Plan) {
	t.Helper()
	fs := []byte(`{"apiVersion": "capplan/v1", "kind": "FairShare", "method": "flow", "shares": [{"application": "a", "machines": 2}]}`)
	pp := []byte(`{"apiVersion": "capplan/v1", "kind": "PackingPlan", "mode": "sizing", "nodesUsed": 3}`)
	report := []byte("<html></html>")
	p := &Plan{
		Header:      Header{APIVersion: APIVersion, Kind: KindPlan, Generator: "capplan test", Inputs: []Input{{Role: "cluster", Path: "c.yaml", SHA256: Digest([]byte("c"))}}},
		CommandLine: []string{"capplan", "plan", "-c", "c.yaml"},
		Steps: []PlanStep{
			{Name: StepFairShare, Kind: KindFairShare, File: "fairshare.json", SHA256: Digest(fs)},
			{Name: StepSizing, Kind: KindPackingPlan, File: "steps/sizing.json", SHA256: Digest(pp)},
		},
		Warnings:    []PlanWarning{},
		Files:       []PlanFileRef{{File: "report.html", SHA256: Digest(report)}},
		SizingCurve: []SizingPoint{{Nodes: 3, Cost: 3, LowerBound: 2.5}},
	}
	index, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return fstest.MapFS{
		PlanFile:            {Data: index},
		"fairshare.json":    {Data: fs},
		"steps/sizing.json": {Data: pp},
		"report.html":       {Data: report},
	}, p
}

func TestOpenBundle(t *testing.T) {
	fsys, _ := bundleFS(t)
	b, err := OpenBundle(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if b.FairShare == nil || b.FairShare.Shares[0].Machines != 2 || b.Sizing == nil || b.Sizing.NodesUsed != 3 || b.Ownership != nil || b.Shapes != nil {
		t.Errorf("bundle decoded as %+v", b)
	}
	if len(b.Plan.SizingCurve) != 1 || b.Plan.CommandLine[1] != "plan" {
		t.Errorf("index decoded as %+v", b.Plan)
	}
}

func TestOpenBundleErrors(t *testing.T) {
	tests := []struct {
		name   string
		change func(fstest.MapFS, *Plan)
		want   string
		is     error
	}{
		{"tampered", func(m fstest.MapFS, _ *Plan) { m["fairshare.json"].Data[len(m["fairshare.json"].Data)-1] = ' ' }, "fairshare.json has sha256", ErrDigest},
		{"missing", func(m fstest.MapFS, _ *Plan) { delete(m, "steps/sizing.json") }, "steps/sizing.json is listed in plan.json", nil},
		{"no index", func(m fstest.MapFS, _ *Plan) { delete(m, PlanFile) }, "reading the bundle index", nil},
		{"second fair share", func(m fstest.MapFS, p *Plan) {
			p.Steps = append(p.Steps, PlanStep{Name: "again", Kind: KindFairShare, File: "fs2.json", SHA256: p.Steps[0].SHA256})
			m["fs2.json"] = m["fairshare.json"]
		}, `step "again" is a second FairShare document`, nil},
		{"kind mismatch", func(m fstest.MapFS, p *Plan) { p.Steps[0].Kind = KindShapeCatalog }, `fairshare.json: kind is "FairShare", want "ShapeCatalog"`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys, p := bundleFS(t)
			tc.change(fsys, p)
			index, _ := json.Marshal(p)
			if _, ok := fsys[PlanFile]; ok {
				fsys[PlanFile] = &fstest.MapFile{Data: index}
			}
			_, err := OpenBundle(fsys)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
		})
	}
}

func TestVerifyFiles(t *testing.T) {
	fsys, p := bundleFS(t)
	if err := p.VerifyFiles(fsys); err != nil {
		t.Fatal(err)
	}
	fsys["report.html"] = &fstest.MapFile{Data: []byte("restyled")}
	if _, err := OpenBundle(fsys); err != nil {
		t.Errorf("a re-rendered report makes the bundle unreadable: %v", err)
	}
	if err := p.VerifyFiles(fsys); !errors.Is(err, ErrDigest) || !strings.Contains(err.Error(), "report.html has sha256") {
		t.Errorf("VerifyFiles of a changed report: %v", err)
	}
}

func TestOpenBundleKeepsUnknownKinds(t *testing.T) {
	fsys, p := bundleFS(t)
	sim := []byte(`{"apiVersion": "capplan/v1", "kind": "SimulationResult"}`)
	fsys["sim.json"] = &fstest.MapFile{Data: sim}
	p.Steps = append(p.Steps, PlanStep{Name: "simulate", Kind: "SimulationResult", File: "sim.json", SHA256: Digest(sim)})
	index, _ := json.Marshal(p)
	fsys[PlanFile] = &fstest.MapFile{Data: index}
	b, err := OpenBundle(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Other) != 1 || b.Other[0].Name != "simulate" {
		t.Errorf("Other = %+v", b.Other)
	}
}

func TestValidatePlan(t *testing.T) {
	digest := Digest(nil)
	valid := func() *Plan {
		return &Plan{
			CommandLine: []string{"capplan", "plan"},
			Steps:       []PlanStep{{Name: StepFairShare, Kind: KindFairShare, File: "fairshare.json", SHA256: digest}},
		}
	}
	tests := []struct {
		name   string
		change func(*Plan)
		want   []string
	}{
		{"valid", func(*Plan) {}, nil},
		{"no command line", func(p *Plan) { p.CommandLine = nil }, []string{"p.json: commandLine: missing"}},
		{"no steps", func(p *Plan) { p.Steps = nil }, []string{"p.json: steps: a bundle has at least one step"}},
		{"bad digest", func(p *Plan) { p.Steps[0].SHA256 = strings.ToUpper(digest) }, []string{"steps[0].sha256: want 64 lowercase hex digits"}},
		{"escaping path", func(p *Plan) { p.Steps[0].File = "../x.json" }, []string{`steps[0].file: "../x.json" is not a clean relative path`}},
		{"absolute path", func(p *Plan) { p.Steps[0].File = "/x.json" }, []string{`steps[0].file: "/x.json" is not a clean relative path`}},
		{"index as step", func(p *Plan) { p.Steps[0].File = PlanFile }, []string{`steps[0].file: "plan.json" is the bundle's index`}},
		{"duplicates", func(p *Plan) {
			p.Steps = append(p.Steps, p.Steps[0])
		}, []string{`steps[1].name: "fairshare" is also the name of steps[0]`, `steps[1].file: "fairshare.json" is also the file of steps[0]`}},
		{"input digest", func(p *Plan) { p.Inputs = []Input{{Role: "cluster", SHA256: "x"}} }, []string{"inputs[0].sha256"}},
		{"empty warning", func(p *Plan) { p.Warnings = []PlanWarning{{Step: "dag"}} }, []string{"warnings[0].message: missing"}},
		{"sizing point", func(p *Plan) { p.SizingCurve = []SizingPoint{{Nodes: -1, Cost: -2}} }, []string{"sizingCurve[0].nodes: negative", "sizingCurve[0].cost: want a finite number ≥ 0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := valid()
			tc.change(p)
			err := p.Validate("p.json")
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestDecodePlan(t *testing.T) {
	if _, err := DecodePlan("p.json", []byte(`{"apiVersion": "capplan/v1", "kind": "FairShare"}`)); err == nil || !strings.Contains(err.Error(), `kind is "FairShare", want "Plan"`) {
		t.Errorf("DecodePlan of a FairShare: %v", err)
	}
	if _, err := DecodePlan("p.json", []byte(`{"apiVersion": "capplan/v1", "kind": "Plan"}`)); err == nil || !strings.Contains(err.Error(), "commandLine: missing") {
		t.Errorf("DecodePlan of an empty plan: %v", err)
	}
}

// FuzzDecodePlan: any input decodes into a valid plan or gives an error
// naming the file; it never panics.
func FuzzDecodePlan(f *testing.F) {
	f.Add([]byte(`{"apiVersion": "capplan/v1", "kind": "Plan", "commandLine": ["capplan"], "steps": [{"name": "a", "kind": "FairShare", "file": "a.json", "sha256": "` + Digest(nil) + `"}]}`))
	f.Add([]byte(`{"apiVersion": "capplan/v1", "kind": "Plan", "sizingCurve": [{"nodes": -1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodePlan("f.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.json") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if err := p.Validate("f.json"); err != nil {
			t.Fatalf("decoded plan fails validation: %v", err)
		}
	})
}
