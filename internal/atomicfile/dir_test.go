package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// fillWith writes name → content into the directory given.
func fillWith(files map[string]string) func(string) error {
	return func(dir string) error {
		for name, content := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				return err
			}
		}
		return nil
	}
}

func TestReplaceDir(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	// A new directory, with missing parents created.
	if err := ReplaceDir(filepath.Join(parent, "a", "b"), fillWith(map[string]string{"x": "1"})); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceDir(dir+"/", fillWith(map[string]string{"old.txt": "old", "keep.txt": "v1"})); err != nil {
		t.Fatal(err)
	}
	// Replaced as a whole: old.txt is gone.
	if err := ReplaceDir(dir, fillWith(map[string]string{"keep.txt": "v2"})); err != nil {
		t.Fatal(err)
	}
	if got := dirEntries(t, dir); len(got) != 1 || got[0] != "keep.txt" {
		t.Errorf("after replacing: %v", got)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "keep.txt")); string(data) != "v2" {
		t.Errorf("keep.txt = %q", data)
	}
	// A failed fill leaves the directory as it was and no temporary one.
	boom := errors.New("boom")
	err := ReplaceDir(dir, func(tmp string) error {
		fillWith(map[string]string{"keep.txt": "v3"})(tmp)
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "keep.txt")); string(data) != "v2" {
		t.Errorf("after a failed run keep.txt = %q", data)
	}
	if got := dirEntries(t, parent); len(got) != 2 {
		t.Errorf("the parent holds %v, want a and out only", got)
	}
	// A file in the way is refused.
	file := filepath.Join(parent, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	if err := ReplaceDir(file, fillWith(nil)); err == nil {
		t.Error("a file was replaced by a directory")
	}
}
