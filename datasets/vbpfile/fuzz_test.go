package vbpfile

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/capplan/capplan/binpack/vbp"
	"github.com/capplan/capplan/internal/testdatasets"
)

// FuzzParseVBP asserts that Parse never panics, returns either an instance
// or a *ParseError naming the file and a line within the input, and that
// an instance it returns keeps the format's invariants: d ≥ 1 capacities,
// all positive, every item of d sizes with a non-negative count, at most
// MaxItems items in all. Seeds: hand-made cases and, when the shared data
// is present, a few files of the public benchmark (seeds are optional, so
// the target runs without the data).
func FuzzParseVBP(f *testing.F) {
	for _, s := range []string{
		"2\n10 20\n2\n3 4 2\n10 0 1\n",
		"1 10 1 -3 2",
		"2\n10 10\n2\n1 1 1\n1 1\n",
		"3\n5 5 5\n0\n",
		"",
	} {
		f.Add([]byte(s))
	}
	for _, glob := range []string{"panigrahy/*/class1_*_0.vbp", "triplet/*/*_0.vbp"} {
		files, _ := filepath.Glob(filepath.Join(testdatasets.Dir(), "vbp-mommessin", glob))
		for _, name := range files[:min(len(files), 2)] {
			if data, err := os.ReadFile(name); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		inst, err := Parse("fuzz", bytes.NewReader(data))
		if (inst == nil) == (err == nil) {
			t.Fatalf("got instance %v and error %v", inst != nil, err)
		}
		if err != nil {
			var pe *ParseError
			lines := bytes.Count(data, []byte("\n")) + 1
			if !errors.As(err, &pe) || pe.Name != "fuzz" || pe.Line < 0 || pe.Line > lines+1 || pe.Msg == "" {
				t.Fatalf("malformed error %#v", err)
			}
			return
		}
		checkInstance(t, inst)
	})
}

func checkInstance(t *testing.T, inst *vbp.Instance) {
	t.Helper()
	d := len(inst.Capacity)
	if d < 1 || d > maxDim {
		t.Fatalf("%d dimensions", d)
	}
	for k, c := range inst.Capacity {
		if c < 1 {
			t.Fatalf("capacity[%d] = %d", k, c)
		}
	}
	total := 0
	volume := make([]float64, d) // exact enough: an overflow would show
	for i, it := range inst.Items {
		if len(it.Size) != d || it.Count < 0 {
			t.Fatalf("item %d: %+v", i, it)
		}
		total += it.Count
		for k, v := range it.Size {
			volume[k] += float64(it.Count) * math.Abs(float64(v))
		}
	}
	for k, c := range inst.Capacity {
		if c > vbp.MaxTotal || volume[k] > vbp.MaxTotal {
			t.Fatalf("dimension %d: capacity %d, total size %g beyond vbp.MaxTotal", k, c, volume[k])
		}
	}
	if total > MaxItems || total != inst.NumItems() {
		t.Fatalf("%d items (NumItems %d)", total, inst.NumItems())
	}
}

// FuzzParseSummary asserts that ParseSummary never panics and returns
// either rows or a *ParseError naming the file and a line within the
// input.
func FuzzParseSummary(f *testing.F) {
	f.Add([]byte("instance_name\tLB\tOPT\nclass1_120_10_0\t40\t40\n\nclass1_120_10_1\t41\t-1\n"))
	f.Add([]byte("LB\tinstance_name\n"))
	f.Add([]byte("instance_name\tLB\tOPT\nx\t1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := ParseSummary("fuzz", bytes.NewReader(data))
		if err != nil {
			var pe *ParseError
			lines := bytes.Count(data, []byte("\n")) + 1
			if rows != nil || !errors.As(err, &pe) || pe.Name != "fuzz" || pe.Line < 0 || pe.Line > lines+1 || pe.Msg == "" {
				t.Fatalf("malformed error %#v (rows %v)", err, rows != nil)
			}
		}
	})
}
