package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// signalWorkload is a workload whose DAGSchedule document is large
// (40,000 tasks), so that writing it takes long enough to be interrupted.
func signalWorkload() string {
	var b strings.Builder
	b.WriteString("apiVersion: capplan/v1\nkind: Workload\njobs:\n")
	for j := 0; j < 20; j++ {
		fmt.Fprintf(&b, "  - name: job%d\n    stages:\n", j)
		fmt.Fprintf(&b, "      - {name: map, tasks: 1000, duration: 3, demand: {cpu: 1}}\n")
		fmt.Fprintf(&b, "      - {name: red, tasks: 1000, duration: 5, demand: {cpu: 2}, after: [map], edge: one-to-one}\n")
	}
	return b.String()
}

// interruptMidWrite starts capplan in dir, waits until a temporary
// output named like pattern appears there, sends sig, and returns the
// process's exit code and stderr. It fails the test when the process
// finishes before the temporary output was seen.
func interruptMidWrite(t *testing.T, dir, pattern string, sig syscall.Signal, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), runMainEnv+"=1", "GOMAXPROCS=2")
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if m, _ := filepath.Glob(filepath.Join(dir, pattern)); len(m) > 0 {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("capplan %v finished (%v) before its temporary output %s appeared:\n%s", args, err, pattern, errOut.String())
		default:
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("no temporary output %s within 2 minutes", pattern)
		}
		time.Sleep(200 * time.Microsecond)
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	<-exited
	return cmd.ProcessState.ExitCode(), errOut.String()
}

// TestSignalRemovesTemporaryOutput kills capplan with SIGTERM while it
// writes -o schedule.json: the hidden temporary file is removed, the
// previous schedule.json is untouched, and the exit code is 128+15. On
// main the temporary file stayed behind.
func TestSignalRemovesTemporaryOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("short: runs capplan in a subprocess")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "workload.yaml"), []byte(signalWorkload()), 0o644); err != nil {
		t.Fatal(err)
	}
	old := []byte("previous output\n")
	if err := os.WriteFile(filepath.Join(dir, "schedule.json"), old, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stderr := interruptMidWrite(t, dir, ".schedule.json.tmp-*", syscall.SIGTERM,
		"dag", "schedule", "workload.yaml", "--machines", "4", "--method", "bfs", "-o", "schedule.json")
	if code != exitSignal+int(syscall.SIGTERM) {
		t.Errorf("exit code %d, want %d; stderr:\n%s", code, exitSignal+int(syscall.SIGTERM), stderr)
	}
	if !strings.Contains(stderr, "interrupted") {
		t.Errorf("stderr %q does not say the run was interrupted", stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "schedule.json")); !bytes.Equal(got, old) {
		t.Errorf("schedule.json changed: %.60q", got)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".schedule.json.tmp-*")); len(m) > 0 {
		t.Errorf("temporary files left behind: %v", m)
	}
}
