package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSuggestions (issue 12, item 9): an unknown command or flag names
// the nearest one.
func TestSuggestions(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"fairshar"}, `unknown command "fairshar" for "capplan"; did you mean fairshare?`},
		{[]string{"dag", "schedul", "x.sm"}, `unknown command "schedul" for "capplan dag"; did you mean schedule?`},
		{[]string{"import", "opnb"}, `unknown command "opnb" for "capplan import"; did you mean openb?`},
		{[]string{"fairshare", "--exampel"}, "unknown flag: --exampel; did you mean --example?"},
		{[]string{"pack", "--min-node"}, "unknown flag: --min-node; did you mean --min-nodes?"},
		{[]string{"simulate", "--polcy", "fifo"}, "unknown flag: --polcy; did you mean --policy?"},
	}
	for _, tc := range cases {
		code, _, errOut := runCapplan(t, tc.args...)
		if code != exitUsage || !strings.HasPrefix(errOut, "capplan: "+tc.want+"\n") {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant the line: capplan: %s", tc.args, code, errOut, tc.want)
		}
	}
}

// goPackageRE finds a Go package name used as a message prefix.
var goPackageRE = regexp.MustCompile(`(^|: |\n)(atomicfile|binpack|dag|dags|datasets|export|flow|inputerr|lp|pipeline|plan|reports|sim|vbp|vbpfile|workloads|xselect|xsize): `)

// TestErrorsInUsersWords (issue 12, item 9): failures name the user's
// file and field, never a Go package or a temporary file.
func TestErrorsInUsersWords(t *testing.T) {
	dir := t.TempDir()
	ex := filepath.Join(dir, "ex")
	if code, _, errOut := runCapplan(t, "example", ex); code != 0 {
		t.Fatal(errOut)
	}
	at := func(name string) string { return filepath.Join(ex, name) }
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("apiVersion: capplan/v1\nkind: Demand\napplications: [{name: a, weight: 0}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string // a part of the message
	}{
		{[]string{"example", ex}, "already exist; remove them or choose another directory"},
		{[]string{"fairshare", "-c", at("cluster.yaml"), "-d", bad}, "bad.yaml: applications[0].weight: must be > 0, got 0"},
		{[]string{"fairshare", "--example", "-o", filepath.Join(dir, "missing", "x.json")}, "cannot write " + filepath.Join(dir, "missing", "x.json") + ": no such file or directory"},
		{[]string{"simulate", "-c", filepath.Join(dir, "none.yaml"), "-w", at("workload.yaml"), "--policy", "fifo"}, "none.yaml: no such file"},
		{[]string{"simulate", "--workload", "fb", "--wparam", "jobs=x", "--policy", "fifo"}, "jobs"},
		{[]string{"pack", "--min-nodes", "-c", at("cluster.yaml"), "-d", at("demand.yaml"), "--node-type", "nosuch"}, `"nosuch" is not a node group`},
		{[]string{"dag", "schedule", at("cluster.yaml")}, "cluster.yaml"},
	}
	for _, tc := range cases {
		code, _, errOut := runCapplan(t, tc.args...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want it to contain %q", tc.args, code, errOut, tc.want)
		}
		if m := goPackageRE.FindString(strings.TrimPrefix(errOut, "capplan: ")); m != "" {
			t.Errorf("%v: stderr names a Go package (%q): %s", tc.args, m, errOut)
		}
		if strings.Contains(errOut, ".tmp-") {
			t.Errorf("%v: stderr names a temporary file: %s", tc.args, errOut)
		}
	}
}

// TestPlurals (issue 12, item 9): counts of one are singular.
func TestPlurals(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.yaml")
	if err := os.WriteFile(one, []byte("apiVersion: capplan/v1\nkind: Demand\napplications: [{name: a}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCapplan(t, "validate", one)
	if code != 0 || !strings.Contains(out, "ok (Demand: 1 application)") {
		t.Errorf("validate: exit %d: %s%s", code, out, errOut)
	}
	nodes := dagSharedData(t, "alibaba-gpu-v2023-openb/openb_node_list_all_node.csv")
	pods := dagSharedData(t, "alibaba-gpu-v2023-openb/openb_pod_list_gpuspec33.csv")
	code, _, errOut = runCapplan(t, "import", "openb", "--nodes", nodes, "--pods", pods, filepath.Join(dir, "ob"))
	// gpuspec33 has one pod no node can host.
	if code != 0 || !strings.Contains(errOut, "; 1 pod dropped (fit no eligible node)") {
		t.Errorf("import: exit %d: %s", code, errOut)
	}
	code, out, _ = runCapplan(t, "dag", "schedule", dagSharedData(t, "psplib/j30/j301_1.sm"), "--method", "cp")
	if code != 0 || !strings.Contains(out, "schedules of 1 job, 30 tasks (psplib) on 1 × machine") {
		t.Errorf("dag schedule: exit %d: %s", code, out)
	}
}
