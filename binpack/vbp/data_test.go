package vbp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dataDir is the shared Mommessin et al. benchmark, relative to this package.
const dataDir = "../../../shared/datasets/vbp-mommessin"

type knownInstance struct {
	inst  *Instance
	known Known
}

// loadSet reads set ("panigrahy" or "triplet") and its summary file and
// returns the instances with a known optimum, in summary order, keeping
// every stride-th one. It skips the test when the data is absent.
func loadSet(tb testing.TB, set, summary string, stride int) []knownInstance {
	tb.Helper()
	root := filepath.Join(dataDir, set)
	f, err := os.Open(filepath.Join(root, summary))
	if err != nil {
		tb.Skipf("dataset absent: %v", err)
	}
	defer f.Close()
	rows, err := ParseSummary(summary, f)
	if err != nil {
		tb.Fatal(err)
	}
	paths := map[string]string{}
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".vbp") {
			paths[strings.TrimSuffix(d.Name(), ".vbp")] = path
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	var out []knownInstance
	seen := 0
	for _, k := range rows {
		if k.OPT < 0 {
			continue
		}
		seen++
		if (seen-1)%stride != 0 {
			continue
		}
		path, ok := paths[k.Name]
		if !ok {
			tb.Fatalf("summary names %s but no file found", k.Name)
		}
		g, err := os.Open(path)
		if err != nil {
			tb.Fatal(err)
		}
		inst, err := Parse(k.Name, g)
		g.Close()
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, knownInstance{inst, k})
	}
	return out
}
