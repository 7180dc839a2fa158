package vbpfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/capplan/capplan/binpack/vbp"
)

// Case is one instance of a benchmark set with its summary row.
type Case struct {
	Instance *vbp.Instance
	Known    Known
}

// LoadSet reads the summary file summary (a path relative to dir) and the
// .vbp file of every instance it names, found anywhere under dir by its
// name; keep, if not nil, selects the rows to load (the others are
// neither opened nor returned). Cases are returned in summary order; each
// Instance is named after its summary row. A row whose file is missing, or
// a file that does not parse, is an error naming it. Cost O(size of the
// files read).
func LoadSet(dir, summary string, keep func(Known) bool) ([]Case, error) {
	f, err := os.Open(filepath.Join(dir, summary))
	if err != nil {
		return nil, err
	}
	rows, err := ParseSummary(f.Name(), f)
	f.Close()
	if err != nil {
		return nil, err
	}
	paths := map[string]string{}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".vbp") {
			paths[strings.TrimSuffix(d.Name(), ".vbp")] = path
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []Case
	for _, k := range rows {
		if keep != nil && !keep(k) {
			continue
		}
		path, ok := paths[k.Name]
		if !ok {
			return nil, fmt.Errorf("%s names instance %s but no %s.vbp is under %s", filepath.Join(dir, summary), k.Name, k.Name, dir)
		}
		inst, err := parseFile(path, k.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, Case{Instance: inst, Known: k})
	}
	return out, nil
}

// parseFile parses the .vbp file at path; the error names the path, the
// instance is named name.
func parseFile(path, name string) (*vbp.Instance, error) {
	g, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	inst, err := Parse(path, g)
	if err != nil {
		return nil, err
	}
	inst.Name = name
	return inst, nil
}
