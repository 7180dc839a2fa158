package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// dirEntries lists the names in dir, to catch stray temporary files.
func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteWrites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.json")
	err := Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, "hello\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "hello\n" {
		t.Errorf("content = %q", got)
	}
	if names := dirEntries(t, dir); len(names) != 1 {
		t.Errorf("directory holds %v, want only plan.json", names)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != newFileMode {
		t.Errorf("mode = %v, want %v", fi.Mode().Perm(), newFileMode)
	}
}

var errBoom = errors.New("boom")

// failingWrite writes part of its output and then fails, as an encoder
// would on a bad value halfway through. It writes 64 KiB first, more than
// any write buffer, so the partial output reaches the temporary file.
func failingWrite(w io.Writer) error {
	if _, err := w.Write(bytes.Repeat([]byte("partial\n"), 8<<10)); err != nil {
		return err
	}
	return errBoom
}

func TestWriteFailureLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.xlsx")
	err := Write(path, failingWrite)
	if !errors.Is(err, errBoom) {
		t.Fatalf("err = %v, want errBoom wrapped", err)
	}
	if names := dirEntries(t, dir); len(names) != 0 {
		t.Errorf("directory holds %v after a failed write, want nothing", names)
	}
}

func TestWriteFailureKeepsTarget(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "shares.csv")
	if err := os.WriteFile(path, []byte("old,content\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, failingWrite); !errors.Is(err, errBoom) {
		t.Fatalf("err = %v, want errBoom wrapped", err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "old,content\n" {
		t.Errorf("target changed to %q", got)
	}
	if names := dirEntries(t, dir); len(names) != 1 {
		t.Errorf("directory holds %v, want only shares.csv", names)
	}

	// A successful rewrite replaces the content and keeps the permissions.
	if err := Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, "new\n")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(path)
	fi, _ := os.Stat(path)
	if string(got) != "new\n" || fi.Mode().Perm() != 0o600 {
		t.Errorf("after rewrite: content %q mode %v, want \"new\\n\" and -rw-------", got, fi.Mode().Perm())
	}
}

func TestWritePanicCleansUp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	func() {
		defer func() {
			if recover() == nil {
				t.Error("panic did not propagate")
			}
		}()
		_ = Write(path, func(w io.Writer) error {
			_, _ = io.WriteString(w, "half")
			panic("writer bug")
		})
	}()
	if names := dirEntries(t, dir); len(names) != 0 {
		t.Errorf("directory holds %v after a panic, want nothing", names)
	}
}

func TestWriteBadDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "out.txt")
	err := Write(path, func(io.Writer) error { return nil })
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v, want ErrNotExist wrapped", err)
	}
}

func TestWriteNotRegular(t *testing.T) {
	dir := t.TempDir()
	if err := Write(dir, func(io.Writer) error { return nil }); err == nil {
		t.Error("writing over a directory succeeded")
	}
}
