package dags

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/internal/testdatasets"
)

// FuzzReadAlibabaRows: any bytes are read without a panic; every job is
// either accepted within the limits, with a DAG that builds with the
// counted tasks and edges and durations in range, or rejected with a
// reason; line rejections carry a line.
func FuzzReadAlibabaRows(f *testing.F) {
	f.Add([]byte(abHeader + "M1,2.0,j_1,1,Terminated,100,110,100.0,0.2\nR2_1,1.0,j_1,1,Terminated,110,115,50.0,0.3\n"))
	f.Add([]byte("\ufeff" + abHeader + "J3_1_2,3,j,1,T,1,2,3,4\nM1,1,j,1,T,0,1,1,1\nM2,1,j,1,T,0,1,1,1\n"))
	f.Add([]byte("M1,1e9,j,1,T,0,1,1,1\nM2_1_1_1,1,j,1,T,5,1,1,1\n\"unterminated"))
	f.Add([]byte("M1_2,1,j,1,T,0,1,1,1\nR2_1,1,j,1,T,0,1,1,1\nM1,1,,1,T,0,1,1,1\nM1,x,k,1,T,0,1e300,1,1\n"))
	opts := AlibabaOptions{MaxTasks: 2000, MaxEdges: 20000}
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := ReadAlibabaRows("fuzz", bytes.NewReader(data), opts)
		if err != nil {
			t.Fatalf("a reader over bytes failed: %v", err)
		}
		for _, r := range rows.Rejected {
			if r.Reason == "" || (r.Job == "" && r.Line < 1) {
				t.Fatalf("rejection without a reason or a line: %+v", r)
			}
		}
		for i := range rows.Jobs {
			j := &rows.Jobs[i]
			if j.Tasks > opts.MaxTasks || j.Edges > opts.MaxEdges {
				t.Fatalf("job %s accepted with %d tasks, %d edges", j.Name, j.Tasks, j.Edges)
			}
			d, err := j.DAG()
			if err != nil {
				t.Fatalf("accepted job %s does not build: %v", j.Name, err)
			}
			if d.N() != j.Tasks || d.Edges() > j.Edges {
				t.Fatalf("job %s: DAG of %d tasks, %d edges; counted %d, %d", j.Name, d.N(), d.Edges(), j.Tasks, j.Edges)
			}
			if err := CheckTicks(d); err != nil {
				t.Fatalf("job %s: %v", j.Name, err)
			}
		}
	})
}

// FuzzParsePSPLIB: any bytes give a PSPLIB instance or a *dag.InputError
// (or a read error), never a panic, and never work sized by a count the
// file merely claims; an instance's durations stay in range.
func FuzzParsePSPLIB(f *testing.F) {
	f.Add([]byte(tinySM))
	f.Add([]byte(strings.Replace(tinySM, ":  5", ":  1000000000000", 1)))
	f.Add([]byte(strings.Replace(tinySM, "  2      1     3", "  2      1     9223372036854775807", 1)))
	for _, name := range []string{"j30/j301_1.sm", "j60/j601_1.sm"} {
		if data, err := os.ReadFile(filepath.Join(testdatasets.Dir(), "psplib", name)); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePSPLIB("fuzz", bytes.NewReader(data))
		if err != nil {
			var ie *dag.InputError
			if !errors.As(err, &ie) && !strings.Contains(err.Error(), "fuzz") {
				t.Fatalf("error %T does not name the input: %v", err, err)
			}
			return
		}
		if err := CheckTicks(p.DAG); err != nil {
			t.Fatal(err)
		}
		if len(p.Capacity) != p.DAG.K() {
			t.Fatalf("%d capacities for %d resources", len(p.Capacity), p.DAG.K())
		}
	})
}

// FuzzParsePSPLIBTable: result lists never panic.
func FuzzParsePSPLIBTable(f *testing.F) {
	f.Add([]byte("Paramter Instance Makespan\n1 1 43\n1 2 47\n"))
	f.Add([]byte("1 1 43\n1 1 44\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := ParsePSPLIBTable("fuzz", bytes.NewReader(data)); err != nil {
			var ie *dag.InputError
			if !errors.As(err, &ie) && !strings.Contains(err.Error(), "fuzz") {
				t.Fatalf("error %T does not name the input: %v", err, err)
			}
		}
	})
}
