package atomicfile

import (
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// cleanupChildEnv makes the test binary act as a process interrupted in
// the middle of its writes (see TestCleanupUndoesWrites).
const cleanupChildEnv = "ATOMICFILE_CLEANUP_CHILD"

// TestCleanupUndoesWrites runs a child process that starts a Write and a
// ReplaceDir over existing outputs and, while both are in progress, calls
// Cleanup and exits as a signal handler does: afterwards the directory
// holds exactly the previous outputs, unchanged.
func TestCleanupUndoesWrites(t *testing.T) {
	if dir := os.Getenv(cleanupChildEnv); dir != "" {
		interruptedWrites(dir)
		return
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "out.json"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "bundle"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bundle", "plan.json"), []byte("old bundle"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCleanupUndoesWrites$")
	cmd.Env = append(os.Environ(), cleanupChildEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Fatalf("child: %v, want exit code 3\n%s", err, out)
	}
	if got := dirEntries(t, dir); !slices.Equal(got, []string{"bundle", "out.json"}) {
		t.Errorf("directory holds %v, want [bundle out.json]", got)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "out.json")); string(got) != "old" {
		t.Errorf("out.json = %q, want the previous content", got)
	}
	if got := dirEntries(t, filepath.Join(dir, "bundle")); !slices.Equal(got, []string{"plan.json"}) {
		t.Errorf("bundle holds %v, want the previous [plan.json]", got)
	}
}

// interruptedWrites is the child of TestCleanupUndoesWrites: a ReplaceDir
// whose fill starts a Write, whose writer stops the process.
func interruptedWrites(dir string) {
	_ = ReplaceDir(filepath.Join(dir, "bundle"), func(tmp string) error {
		if err := os.WriteFile(filepath.Join(tmp, "plan.json"), []byte("new bundle"), 0o644); err != nil {
			os.Exit(1)
		}
		return Write(filepath.Join(dir, "out.json"), func(w io.Writer) error {
			if _, err := io.WriteString(w, "new"); err != nil {
				os.Exit(1)
			}
			Cleanup() // as the signal handler does, then exit
			os.Exit(3)
			return nil
		})
	})
	os.Exit(1)
}

// signalChildEnv makes the test binary act as a process signalled just
// after a Write created its temporary file (see
// TestSignalRightAfterCreateLeavesNothing).
const signalChildEnv = "ATOMICFILE_SIGNAL_CHILD"

// TestSignalRightAfterCreateLeavesNothing sends the process SIGTERM in
// the instant after Write created its temporary file and before that file
// was registered for Cleanup, and lets the handler run there: the file
// must still be removed. Before the temporary file was created under the
// registry's lock, the handler's Cleanup ran in that gap, missed the file,
// and left it behind (seen once in CI as a flaky
// TestSignalRemovesTemporaryOutput in cmd/capplan).
func TestSignalRightAfterCreateLeavesNothing(t *testing.T) {
	for _, target := range []string{"out.json", "bundle"} {
		t.Run(target, func(t *testing.T) {
			if dir := os.Getenv(signalChildEnv); dir != "" {
				signalledWrite(filepath.Join(dir, target))
				return
			}
			dir := t.TempDir()
			cmd := exec.Command(os.Args[0], "-test.run=^TestSignalRightAfterCreateLeavesNothing$/^"+target+"$")
			cmd.Env = append(os.Environ(), signalChildEnv+"="+dir)
			out, err := cmd.CombinedOutput()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
				t.Fatalf("child: %v, want exit code 3 from its signal handler\n%s", err, out)
			}
			if got := dirEntries(t, dir); len(got) != 0 {
				t.Errorf("directory holds %v after the interrupted write, want nothing", got)
			}
		})
	}
}

// signalledWrite is the child of TestSignalRightAfterCreateLeavesNothing:
// a signal handler like capplan's (Cleanup, then exit 3), and a write to
// path (a file, or a directory when path ends in "bundle") that signals
// itself as soon as the temporary path exists, waits there long enough for
// the handler to run, and then never finishes, so that only the handler
// ends the process.
func signalledWrite(path string) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM)
	go func() {
		<-sigs
		Cleanup()
		os.Exit(3)
	}()
	testHookTempCreated = func() {
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
		time.Sleep(200 * time.Millisecond)
	}
	hang := func() { time.Sleep(time.Minute) }
	if filepath.Base(path) == "bundle" {
		_ = ReplaceDir(path, func(string) error { hang(); return nil })
	} else {
		_ = Write(path, func(io.Writer) error { hang(); return nil })
	}
	os.Exit(1)
}
