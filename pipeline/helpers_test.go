package pipeline

import (
	"os"
	"path/filepath"
	"testing"
)

// writeFiles writes name → content into a fresh directory and returns the
// paths by name.
func writeFiles(t *testing.T, files map[string]string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	paths := map[string]string{}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	return paths
}

// near reports whether a and b agree to 1e-9, relative.
func near(a, b float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	m := max(1, a, -a, b, -b)
	return d <= 1e-9*m
}
