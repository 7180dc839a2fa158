package datasets

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/capplan/capplan/internal/atomicfile"
	"github.com/capplan/capplan/internal/plural"
)

// exampleFS holds the example inputs: a cluster, a demand for it and a
// workload for it, a changed forecast (for incremental re-planning), and a
// `kubectl get nodes -o json` dump with a demand for it, all of which pass
// every check of this package, and a small simulator sweep (sweep.yaml).
//
//go:embed examples/*.yaml examples/*.json
var exampleFS embed.FS

// ExampleFiles returns the embedded example inputs by file name:
// cluster.yaml, demand.yaml, workload.yaml, demand-next.yaml (the demand
// a quarter later: web and ci grow, batch-etl shrinks), nodes.json,
// nodes-demand.yaml and sweep.yaml (36 simulator runs of the simulate
// example and W-FB, for `capplan sweep`).
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

// existsError names the example files that already exist; it wraps
// ErrExists.
type existsError struct {
	paths []string
	total int // files the call would write
}

func (e *existsError) Error() string {
	verb := "exists"
	if len(e.paths) > 1 {
		verb = "exist"
	}
	shown, more := e.paths, ""
	if len(shown) > 5 { // a generated set has hundreds
		shown, more = shown[:3], fmt.Sprintf(" and %d more", len(shown)-3)
	}
	return fmt.Sprintf("%s%s already %s; remove them or choose another directory (capplan example writes %s)",
		strings.Join(shown, ", "), more, verb, plural.Count(e.total, "file"))
}

func (e *existsError) Unwrap() error { return ErrExists }

// WriteExamples writes the example inputs into dir, creating it if needed.
// It refuses to overwrite: if any example file already exists in dir, it
// writes nothing and returns an error wrapping ErrExists that names them.
// Each file is written to a temporary name and renamed into place.
func WriteExamples(dir string) error { return writeFiles(dir, ExampleFiles()) }

// WriteXFlexExample writes W-XFLEX's cluster.yaml and demand.yaml into dir
// like WriteExamples, for `capplan shapes` and `capplan pack` to build a
// packing plan that `capplan simulate --workload xflex --packing` runs.
func WriteXFlexExample(dir string) error {
	files := XFlexExampleFiles()
	return writeFiles(dir, map[string][]byte{"cluster.yaml": files["cluster.yaml"], "demand.yaml": files["demand.yaml"]})
}

// WriteNewFiles writes files (name → content) into dir, created if needed,
// each atomically; if any of them exists, it writes nothing and says
// which.
func WriteNewFiles(dir string, files map[string][]byte) error { return writeFiles(dir, files) }

// writeFiles writes files into dir, refusing to overwrite any.
func writeFiles(dir string, files map[string][]byte) error {
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
		return &existsError{paths: existing, total: len(files)}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create %s: %s", dir, describeOpenError(err))
	}
	for _, name := range names {
		data := files[name]
		if err := atomicfile.Write(filepath.Join(dir, name), func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}
