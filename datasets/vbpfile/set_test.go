package vbpfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capplan/capplan/internal/testdatasets"
)

func TestLoadSet(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("s.csv", "instance_name\tLB\tOPT\na\t1\t1\nb\t2\t-1\n")
	write("x/a.vbp", "1\n10\n1\n4 2\n")
	write("y/b.vbp", "1\n10\n1\n6 2\n")
	all, err := LoadSet(dir, "s.csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].Instance.Name != "a" || all[1].Known.OPT != -1 || all[1].Instance.Items[0].Size[0] != 6 {
		t.Fatalf("LoadSet = %+v", all)
	}
	known, err := LoadSet(dir, "s.csv", func(k Known) bool { return k.OPT >= 0 })
	if err != nil || len(known) != 1 || known[0].Known.Name != "a" {
		t.Fatalf("LoadSet(known) = %+v, %v", known, err)
	}
	write("s2.csv", "instance_name\tLB\tOPT\nc\t1\t1\n")
	if _, err := LoadSet(dir, "s2.csv", nil); err == nil || !strings.Contains(err.Error(), "no c.vbp") {
		t.Errorf("missing file: err = %v", err)
	}
	write("s3.csv", "instance_name\tLB\tOPT\nd\t1\t1\n")
	write("d.vbp", "1\n10\n1\n4\n")
	if _, err := LoadSet(dir, "s3.csv", nil); err == nil || !strings.Contains(err.Error(), "d.vbp:4") {
		t.Errorf("bad file: err = %v", err)
	}
}

// TestPublicSets reads both public sets: Panigrahy has 1,200 instances
// with a proven optimum (the dataset's README), and every Triplet instance
// with one has its planted optimum n/3 (each triplet fills a bin).
func TestPublicSets(t *testing.T) {
	root := testdatasets.Need(t, "vbp-mommessin")
	known := func(k Known) bool { return k.OPT >= 0 }
	pan, err := LoadSet(filepath.Join(root, "panigrahy"), "Panigrahy_summary_known.csv", known)
	if err != nil {
		t.Fatal(err)
	}
	if len(pan) != 1200 {
		t.Errorf("%d Panigrahy instances with a known optimum, the README says 1200", len(pan))
	}
	tri, err := LoadSet(filepath.Join(root, "triplet"), "Triplet_summary_known.csv", known)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range tri {
		if n := c.Instance.NumItems(); c.Known.OPT*3 != n {
			t.Errorf("%s: OPT %d, n %d", c.Known.Name, c.Known.OPT, n)
		}
	}
}
