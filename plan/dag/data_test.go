package dag

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// datasetsDir returns the shared benchmark data directory: $CAPPLAN_DATASETS
// if set, else ../shared/datasets next to the repository root (the
// directory holding go.mod). It returns "" when absent.
func datasetsDir() string {
	if d := os.Getenv("CAPPLAN_DATASETS"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", "datasets")
			if _, err := os.Stat(d); err == nil {
				return d
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// needData returns the path of a file or directory under the datasets
// directory, skipping the test or benchmark when it is absent.
func needData(tb testing.TB, rel string) string {
	tb.Helper()
	root := datasetsDir()
	if root == "" {
		tb.Skip("shared datasets directory not found")
	}
	p := filepath.Join(root, rel)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("%s not found", p)
	}
	return p
}

// psplibInstance pairs a parsed instance with its reference values.
type psplibInstance struct {
	Key  PSPLIBKey
	Inst *PSPLIB
	// Ref is the optimum (J30) or best known makespan (J60).
	Ref int64
}

var (
	psplibOnce  = map[string]*sync.Once{"j30": {}, "j60": {}}
	psplibCache = map[string][]psplibInstance{}
	psplibErr   = map[string]error{}
)

// loadPSPLIB parses every instance of set ("j30" or "j60") with its
// reference makespan from refFile, once per test binary.
func loadPSPLIB(tb testing.TB, set, refFile string) []psplibInstance {
	tb.Helper()
	dir := needData(tb, filepath.Join("psplib", set))
	psplibOnce[set].Do(func() {
		f, err := os.Open(filepath.Join(dir, refFile))
		if err != nil {
			psplibErr[set] = err
			return
		}
		defer f.Close()
		ref, err := ParsePSPLIBTable(refFile, f)
		if err != nil {
			psplibErr[set] = err
			return
		}
		for p := 1; p <= 48; p++ {
			for i := 1; i <= 10; i++ {
				name := fmt.Sprintf("%s%d_%d.sm", set, p, i)
				g, err := os.Open(filepath.Join(dir, name))
				if err != nil {
					psplibErr[set] = err
					return
				}
				inst, err := ParsePSPLIB(name, g)
				g.Close()
				if err != nil {
					psplibErr[set] = err
					return
				}
				k := PSPLIBKey{p, i}
				psplibCache[set] = append(psplibCache[set], psplibInstance{Key: k, Inst: inst, Ref: ref[k][0]})
			}
		}
	})
	if err := psplibErr[set]; err != nil {
		tb.Fatal(err)
	}
	return psplibCache[set]
}
