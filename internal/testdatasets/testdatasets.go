// Package testdatasets finds the shared public benchmark data for tests and
// benchmarks: $CAPPLAN_DATASETS if set, else ../shared/datasets beside the
// repository root. Outside CI a test that needs absent data is skipped; in
// CI (CI=true) it fails, so a missing dataset can never pass silently.
//
// It imports only the standard library and is imported only by tests,
// benchmarks and cmd/benchtables.
package testdatasets

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the shared datasets directory, or "" when it is absent.
func Dir() string {
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

// InCI reports whether the process runs under CI (CI=true), where missing
// data is a failure rather than a skip.
func InCI() bool { return os.Getenv("CI") == "true" }

// Need returns the path of rel under the datasets directory. When it is
// absent the test is skipped, or, under CI=true, fails.
func Need(tb testing.TB, rel string) string {
	tb.Helper()
	root := Dir()
	if root == "" {
		missing(tb, "shared datasets directory not found (set CAPPLAN_DATASETS or place it at ../shared/datasets)")
	}
	p := filepath.Join(root, rel)
	if _, err := os.Stat(p); err != nil {
		missing(tb, p+" not found")
	}
	return p
}

func missing(tb testing.TB, msg string) {
	tb.Helper()
	if InCI() {
		tb.Fatalf("CI=true and the test data is missing: %s", msg)
	}
	tb.Skip(msg)
}
