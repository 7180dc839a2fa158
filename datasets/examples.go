package datasets

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// exampleFS holds the example inputs: a cluster, a demand for it and a
// workload for it, all of which pass every check of this package.
//
//go:embed examples/*.yaml
var exampleFS embed.FS

// ExampleFiles returns the embedded example inputs by file name
// (cluster.yaml, demand.yaml, workload.yaml).
func ExampleFiles() map[string][]byte {
	entries, err := fs.ReadDir(exampleFS, "examples")
	if err != nil {
		panic("datasets: embedded examples missing: " + err.Error())
	}
	out := make(map[string][]byte, len(entries))
	for _, e := range entries {
		data, err := exampleFS.ReadFile("examples/" + e.Name())
		if err != nil {
			panic("datasets: embedded example unreadable: " + err.Error())
		}
		out[e.Name()] = data
	}
	return out
}

// ErrExists is returned (wrapped) by WriteExamples when a file it would
// write already exists.
var ErrExists = errors.New("datasets: file exists")

// WriteExamples writes the example inputs into dir, creating it if needed.
// It refuses to overwrite: if any example file already exists in dir, it
// writes nothing and returns an error wrapping ErrExists that names them.
// Each file is written to a temporary name and renamed into place.
func WriteExamples(dir string) error {
	files := ExampleFiles()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	var existing []string
	for _, name := range names {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			existing = append(existing, filepath.Join(dir, name))
		}
	}
	if len(existing) > 0 {
		return fmt.Errorf("%w: %v; remove them or choose another directory", ErrExists, existing)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	for _, name := range names {
		if err := writeFileAtomic(filepath.Join(dir, name), files[name]); err != nil {
			return err
		}
	}
	return nil
}

// writeFileAtomic writes data to a temporary file beside path and renames
// it to path, so that path never holds a partial file.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("datasets: writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("datasets: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("datasets: %w", err)
	}
	return nil
}
