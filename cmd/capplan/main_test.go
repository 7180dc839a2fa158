package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capplan/capplan/plan"
)

// runCapplan runs the CLI in-process with captured streams.
func runCapplan(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &ioStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	return code, out.String(), errOut.String()
}

const fixtures = "../../datasets/testdata/"

// TestFairSharePaperExamples runs `capplan fairshare --json` on the Choosy
// paper's examples (written as Cluster and Demand files) and checks the
// paper's answers end to end.
func TestFairSharePaperExamples(t *testing.T) {
	cases := []struct {
		fig      string
		want     []float64 // divisible machines
		rounds   []int
		integral []float64 // sorted integral machines
	}{
		{"fig1", []float64{1.5, 1.5, 3, 4}, []int{1, 1, 2, 3}, []float64{1, 2, 3, 4}},
		{"fig3", []float64{3, 7}, []int{1, 2}, []float64{3, 7}},
		{"sec5", []float64{2, 3}, []int{1, 2}, []float64{2, 3}},
		{"fig5", []float64{2, 3, 4}, []int{1, 2, 3}, []float64{2, 3, 4}},
	}
	for _, tc := range cases {
		t.Run(tc.fig, func(t *testing.T) {
			c, d := fixtures+tc.fig+"-cluster.yaml", fixtures+tc.fig+"-demand.yaml"
			doc := fairShareJSON(t, "-c", c, "-d", d, "--json")
			if !doc.Certificate.Verified || doc.Certificate.Kind != "tightSets" {
				t.Errorf("certificate %s verified=%v", doc.Certificate.Kind, doc.Certificate.Verified)
			}
			for i, s := range doc.Shares {
				if s.Machines != tc.want[i] || s.Round != tc.rounds[i] {
					t.Errorf("%s: %v machines in round %d, want %v in round %d", s.Application, s.Machines, s.Round, tc.want[i], tc.rounds[i])
				}
			}
			idoc := fairShareJSON(t, "-c", c, "-d", d, "--json", "--integral", "--per-node")
			var got []float64
			for _, s := range idoc.Shares {
				got = append(got, s.Machines)
			}
			sortFloats(got)
			for i := range got {
				if got[i] != tc.integral[i] {
					t.Fatalf("integral machines %v, want %v", got, tc.integral)
				}
			}
			// Per node: every node hosts at most one application, and the
			// node counts per application equal the shares.
			count := map[string]float64{}
			for _, n := range idoc.Nodes {
				if len(n.Users) > 1 {
					t.Errorf("node %s shared by %d applications with whole machines", n.Node, len(n.Users))
				}
				for _, u := range n.Users {
					count[u.Application] += u.Fraction
				}
			}
			for _, s := range idoc.Shares {
				if count[s.Application] != s.Machines {
					t.Errorf("%s: %v nodes assigned, share %v", s.Application, count[s.Application], s.Machines)
				}
			}
		})
	}
}

func fairShareJSON(t *testing.T, args ...string) *plan.FairShare {
	t.Helper()
	code, out, errOut := runCapplan(t, append([]string{"fairshare"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc plan.FairShare
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	return &doc
}

func sortFloats(s []float64) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j-1] > s[j]; j-- {
			s[j-1], s[j] = s[j], s[j-1]
		}
	}
}

// TestFairShareMethodsAgree checks that --method lp reproduces the flow
// shares on the example and records the agreement.
func TestFairShareMethodsAgree(t *testing.T) {
	f := fairShareJSON(t, "--example", "--json")
	l := fairShareJSON(t, "--example", "--json", "--method", "lp")
	if l.Certificate.LPMaxRelDiff == nil || *l.Certificate.LPMaxRelDiff > 1e-9 {
		t.Fatalf("lp agreement %v", l.Certificate.LPMaxRelDiff)
	}
	for i := range f.Shares {
		if d := f.Shares[i].Machines - l.Shares[i].Machines; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: flow %v, lp %v", f.Shares[i].Application, f.Shares[i].Machines, l.Shares[i].Machines)
		}
	}
}

// TestFairShareDeterministic: same inputs and flags give byte-identical
// JSON, CSV and xlsx outputs.
func TestFairShareDeterministic(t *testing.T) {
	dir := t.TempDir()
	for _, ext := range []string{"json", "csv", "xlsx"} {
		var first []byte
		for i := 0; i < 2; i++ {
			path := filepath.Join(dir, "out."+ext)
			if code, _, errOut := runCapplan(t, "fairshare", "--example", "--integral", "--per-node", "-o", path); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				first = b
			} else if !bytes.Equal(first, b) {
				t.Errorf("%s output differs between runs", ext)
			}
		}
	}
}

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("apiVersion: capplan/v1\nkind: Cluster\nresources: [cpu]\nnodes:\n  - {name: a, count: -3, capacity: {cpu: 0, gpu: 1}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.json")
	cases := []struct {
		name    string
		args    []string
		code    int
		stderr  []string // substrings
		noFiles bool
	}{
		{"unknown command", []string{"frobnicate"}, exitUsage, []string{"unknown command"}, false},
		{"unknown flag", []string{"fairshare", "--bogus"}, exitUsage, []string{"unknown flag", "Usage:"}, false},
		{"missing inputs", []string{"fairshare"}, exitUsage, []string{"--cluster and --demand are required"}, false},
		{"bad method", []string{"fairshare", "--example", "--method", "magic"}, exitUsage, []string{`invalid --method "magic"`}, false},
		{"lp integral", []string{"fairshare", "--example", "--method", "lp", "--integral"}, exitUsage, []string{"divisible shares only"}, false},
		{"bad extension", []string{"fairshare", "--example", "-o", "x.pdf"}, exitUsage, []string{"cannot tell the format"}, false},
		{"missing file", []string{"fairshare", "-c", filepath.Join(dir, "nope.yaml"), "-d", "x", "-o", out}, exitFailure, []string{"nope.yaml"}, true},
		{"bad cluster", []string{"fairshare", "-c", bad, "-d", fixtures + "fig1-demand.yaml", "-o", out}, exitFailure,
			[]string{"bad.yaml", "nodes[0].count", "nodes[0].capacity.cpu", "nodes[0].capacity.gpu"}, true},
		{"validate all problems", []string{"validate", bad}, exitFailure, []string{"nodes[0].count", "nodes[0].capacity.cpu", "nodes[0].capacity.gpu"}, false},
		{"example needs dir", []string{"example"}, exitUsage, []string{"accepts 1 arg"}, false},
		{"progen set", []string{"example", "--progen", "j45", filepath.Join(dir, "pg")}, exitUsage, []string{`--progen "j45": want j30, j60, j90 or j120`}, true},
		{"progen per", []string{"example", "--progen", "j30", "--per", "0", filepath.Join(dir, "pg")}, exitUsage, []string{"--per 0: want at least 1"}, true},
		{"progen and xflex", []string{"example", "--progen", "j30", "--xflex", filepath.Join(dir, "pg")}, exitUsage, []string{"give one"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCapplan(t, tc.args...)
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
			if tc.noFiles {
				if _, err := os.Stat(out); !os.IsNotExist(err) {
					t.Errorf("output file exists after a failure")
				}
				entries, _ := os.ReadDir(dir)
				for _, e := range entries {
					if e.Name() != "bad.yaml" {
						t.Errorf("stray file %s after a failure", e.Name())
					}
				}
			}
		})
	}
}

func TestExampleAndValidate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	if code, _, errOut := runCapplan(t, "example", dir); code != 0 {
		t.Fatalf("example: exit %d: %s", code, errOut)
	}
	code, out, errOut := runCapplan(t, "validate", filepath.Join(dir, "cluster.yaml"), filepath.Join(dir, "demand.yaml"), filepath.Join(dir, "workload.yaml"))
	if code != 0 {
		t.Fatalf("validate: exit %d: %s", code, errOut)
	}
	if strings.Count(out, ": ok") != 3 {
		t.Errorf("validate output:\n%s", out)
	}
	if code, _, _ := runCapplan(t, "example", dir); code != exitFailure {
		t.Errorf("example over existing files: exit %d, want %d", code, exitFailure)
	}
	// The files written are the embedded example: same shares either way.
	a := fairShareJSON(t, "--example", "--json")
	b := fairShareJSON(t, "-c", filepath.Join(dir, "cluster.yaml"), "-d", filepath.Join(dir, "demand.yaml"), "--json")
	for i := range a.Shares {
		if a.Shares[i].MachinesExact != b.Shares[i].MachinesExact {
			t.Errorf("%s: %s vs %s", a.Shares[i].Application, a.Shares[i].MachinesExact, b.Shares[i].MachinesExact)
		}
	}
}

// TestExampleProGen writes a PSPLIB-like J30 set (one project per
// combination) and schedules one of its files; writing it again over the
// same directory fails and names the files.
func TestExampleProGen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "j30")
	if code, _, errOut := runCapplan(t, "example", "--progen", "j30", "--per", "1", dir); code != 0 {
		t.Fatalf("example --progen: exit %d: %s", code, errOut)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 48 {
		t.Fatalf("example --progen j30 --per 1 wrote %d files (%v), want 48", len(entries), err)
	}
	code, out, errOut := runCapplan(t, "dag", "schedule", filepath.Join(dir, "j3048_1.sm"))
	if code != 0 || !strings.Contains(out, "j3048_1\t30\t") {
		t.Fatalf("dag schedule on a generated project: exit %d: %s%s", code, out, errOut)
	}
	code, _, errOut = runCapplan(t, "example", "--progen", "j30", "--per", "1", dir)
	if code != exitFailure || !strings.Contains(errOut, "and 45 more already exist") {
		t.Errorf("example --progen over its own files: exit %d: %s", code, errOut)
	}
}

func TestVersionAndCompletion(t *testing.T) {
	if code, out, _ := runCapplan(t, "version"); code != 0 || !strings.HasPrefix(out, "capplan ") {
		t.Errorf("version: exit %d, %q", code, out)
	}
	if code, out, _ := runCapplan(t, "completion", "bash"); code != 0 || !strings.Contains(out, "capplan") {
		t.Errorf("completion: exit %d", code)
	}
}
