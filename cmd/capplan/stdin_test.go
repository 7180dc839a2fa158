package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCapplanStdin runs the CLI in-process with stdin as standard input.
func runCapplanStdin(t *testing.T, stdin []byte, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &ioStreams{In: bytes.NewReader(stdin), Out: &out, ErrOut: &errOut})
	return code, out.String(), errOut.String()
}

// TestStdinInputs (issue 12, item 3): every command that reads an input
// file accepts "-" for standard input, and gives the same result as with
// the file; two inputs naming "-" are a usage error.
func TestStdinInputs(t *testing.T) {
	dir := t.TempDir()
	ex := filepath.Join(dir, "ex")
	if code, _, errOut := runCapplan(t, "example", ex); code != 0 {
		t.Fatalf("example: %s", errOut)
	}
	at := func(name string) string { return filepath.Join(ex, name) }
	read := func(path string) []byte {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	psplib := dagSharedData(t, "psplib/j30/j301_1.sm")
	vbp := dagSharedData(t, "vbp-mommessin/triplet/Caprara/classC_120_10_0.vbp")
	openbNodes := dagSharedData(t, "alibaba-gpu-v2023-openb/openb_node_list_all_node.csv")
	openbPods := dagSharedData(t, "alibaba-gpu-v2023-openb/openb_pod_list_gpuspec33.csv")
	alibaba := dagSharedData(t, "alibaba-v2018/batch_task_dag_sample_hliangzhao.csv")
	catalog, fs, pplan, sched := at("catalog.json"), at("fs.json"), at("plan.json"), at("sched.csv")
	for _, prep := range [][]string{
		{"shapes", "--example", "-k", "4", "-o", catalog},
		{"fairshare", "--example", "--per-node", "-o", fs},
		{"pack", "--example", "--shapes", catalog, "--budget", "200000", "-o", pplan},
	} {
		if code, _, errOut := runCapplan(t, prep...); code != 0 {
			t.Fatalf("%v: %s", prep, errOut)
		}
	}
	code, out, errOut := runCapplan(t, "dag", "schedule", at("workload.yaml"), "-c", at("cluster.yaml"), "--method", "cp", "--csv")
	if code != 0 {
		t.Fatalf("dag schedule --csv: %s", errOut)
	}
	if err := os.WriteFile(sched, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		stdin string   // the file piped in
		args  []string // the command line with "-"
		file  []string // the same with the file, whose stdout must be equal (nil: exit 0 is enough)
	}{
		{"fairshare -c -", at("cluster.yaml"), []string{"fairshare", "-c", "-", "-d", at("demand.yaml"), "--csv"},
			[]string{"fairshare", "-c", at("cluster.yaml"), "-d", at("demand.yaml"), "--csv"}},
		{"fairshare -d - (kubectl nodes)", at("nodes-demand.yaml"), []string{"fairshare", "-c", at("nodes.json"), "-d", "-", "--csv"},
			[]string{"fairshare", "-c", at("nodes.json"), "-d", at("nodes-demand.yaml"), "--csv"}},
		{"shapes -d -", at("demand.yaml"), []string{"shapes", "-c", at("cluster.yaml"), "-d", "-", "-k", "3", "--csv"},
			[]string{"shapes", "-c", at("cluster.yaml"), "-d", at("demand.yaml"), "-k", "3", "--csv"}},
		{"pack --shapes -", catalog, []string{"pack", "--example", "--shapes", "-", "--budget", "200000", "--csv"},
			[]string{"pack", "--example", "--shapes", catalog, "--budget", "200000", "--csv"}},
		{"pack --from -", pplan, []string{"pack", "-c", at("cluster.yaml"), "-d", at("demand-next.yaml"), "--shapes", catalog, "--from", "-", "--mutable", "0.1", "--budget", "200000", "--csv"},
			[]string{"pack", "-c", at("cluster.yaml"), "-d", at("demand-next.yaml"), "--shapes", catalog, "--from", pplan, "--mutable", "0.1", "--budget", "200000", "--csv"}},
		{"pack --min-nodes - (vbp)", vbp, []string{"pack", "--min-nodes", "-", "--csv"}, []string{"pack", "--min-nodes", vbp, "--csv"}},
		{"pack --min-nodes -c - (kubectl nodes)", at("nodes.json"), []string{"pack", "--min-nodes", "-c", "-", "-d", at("nodes-demand.yaml"), "--node-type", "m5.2xlarge=1,r5.2xlarge=1.3", "--csv"},
			[]string{"pack", "--min-nodes", "-c", at("nodes.json"), "-d", at("nodes-demand.yaml"), "--node-type", "m5.2xlarge=1,r5.2xlarge=1.3", "--csv"}},
		{"dag schedule - (PSPLIB)", psplib, []string{"dag", "schedule", "-", "--method", "cp", "--csv"}, []string{"dag", "schedule", psplib, "--method", "cp", "--csv"}},
		{"dag schedule - (workload)", at("workload.yaml"), []string{"dag", "schedule", "-", "-c", at("cluster.yaml"), "--method", "cp", "--csv"},
			[]string{"dag", "schedule", at("workload.yaml"), "-c", at("cluster.yaml"), "--method", "cp", "--csv"}},
		{"dag bounds -c -", at("cluster.yaml"), []string{"dag", "bounds", at("workload.yaml"), "-c", "-", "--csv"},
			[]string{"dag", "bounds", at("workload.yaml"), "-c", at("cluster.yaml"), "--csv"}},
		{"dag check --schedule -", sched, []string{"dag", "check", "--schedule", "-", at("workload.yaml"), "-c", at("cluster.yaml"), "--csv"},
			[]string{"dag", "check", "--schedule", sched, at("workload.yaml"), "-c", at("cluster.yaml"), "--csv"}},
		{"simulate -c -", at("cluster.yaml"), []string{"simulate", "-c", "-", "-w", at("workload.yaml"), "--policy", "fifo", "--csv"},
			[]string{"simulate", "-c", at("cluster.yaml"), "-w", at("workload.yaml"), "--policy", "fifo", "--csv"}},
		{"simulate -w - (PSPLIB)", psplib, []string{"simulate", "-w", "-", "--policy", "fifo", "--csv"}, []string{"simulate", "-w", psplib, "--policy", "fifo", "--csv"}},
		{"simulate -w - (Alibaba CSV)", alibaba, []string{"simulate", "-w", "-", "--policy", "fifo", "--load", "0.5", "--until", "600", "--csv"},
			[]string{"simulate", "-w", alibaba, "--policy", "fifo", "--load", "0.5", "--until", "600", "--csv"}},
		{"plan -d -", at("demand.yaml"), []string{"plan", "-c", at("cluster.yaml"), "-d", "-", "-k", "3", "-o", filepath.Join(dir, "bundle")}, nil},
		{"plan --check reads the - input again", at("demand.yaml"), []string{"plan", "--check", filepath.Join(dir, "bundle")}, nil},
		{"validate -", at("nodes.json"), []string{"validate", "-"}, nil},
		{"export --fairshare -", fs, []string{"export", "yarn", "--fairshare", "-", "-d", at("demand.yaml"), "-o", filepath.Join(dir, "exp")}, nil},
		{"export -d -", at("demand.yaml"), []string{"export", "k8s", "--fairshare", fs, "-d", "-", "-o", filepath.Join(dir, "exp2")}, nil},
		{"report --fairshare -", fs, []string{"report", "--fairshare", "-", "-o", filepath.Join(dir, "rep")}, nil},
		{"import openb --nodes -", openbNodes, []string{"import", "openb", "--nodes", "-", "--pods", openbPods, filepath.Join(dir, "ob")}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCapplanStdin(t, read(tc.stdin), tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if tc.file == nil {
				return
			}
			_, want, _ := runCapplan(t, tc.file...)
			// A PSPLIB project is named after its file, "stdin" on
			// standard input.
			want = strings.ReplaceAll(want, "j301_1.sm,", "stdin,")
			want = strings.ReplaceAll(want, "j301_1,", "stdin,")
			if out != want {
				t.Errorf("stdout differs from the run on the file:\n%s\nwant:\n%s", clipText(out), clipText(want))
			}
		})
	}
	// Standard input holds one file.
	for _, args := range [][]string{
		{"fairshare", "-c", "-", "-d", "-"},
		{"simulate", "-c", "-", "-w", "-", "--policy", "fifo"},
		{"validate", "-", "-"},
		{"dag", "check", "--schedule", "-", "-"},
	} {
		code, _, errOut := runCapplanStdin(t, read(at("cluster.yaml")), args...)
		if code != exitUsage || !strings.Contains(errOut, "standard input (-), which holds one file") {
			t.Errorf("%v: exit %d: %s", args, code, errOut)
		}
	}
	// An input read from standard input is named so in messages.
	code, _, errOut = runCapplanStdin(t, read(at("demand.yaml")), "fairshare", "-c", "-", "-d", at("demand.yaml"))
	if code != exitFailure || !strings.HasPrefix(errOut, "capplan: standard input: kind:") {
		t.Errorf("wrong kind on stdin: exit %d: %s", code, errOut)
	}
}

func clipText(s string) string {
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}
