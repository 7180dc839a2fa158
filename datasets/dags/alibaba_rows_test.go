package dags

import (
	"strings"
	"testing"
)

// TestReadAlibabaRowsHostile: malformed and extreme batch_task rows are
// rejected with the line and a reason, never a panic. On main, an
// unterminated quote on the last line panicked ("out of range index passed
// to FieldPos": the position was read before the error), a UTF-8 BOM made
// the header a job named job_name, and times or amounts near the float
// limit were converted to int64 unchecked.
func TestReadAlibabaRowsHostile(t *testing.T) {
	const ok = "M1,1.0,j_ok,1,Terminated,10,20,100.0,0.2\n"
	cases := []struct {
		name string
		in   string
		// rejected maps a job ("" for a line) to a part of its reason.
		rejected map[string]string
		line     int // of the only rejection, when > 0
	}{
		{"unterminated quote", ok + "\"M2_1,1.0,j_ok,1,Terminated,10,20,100.0,0.2\n",
			map[string]string{"": `extraneous or missing " in quoted-field`}, 2},
		{"bare quote", ok + "M2_1,1.0,j_ok,1,Term\"inated,10,20,100.0,0.2\n", map[string]string{"": `bare " in non-quoted-field`}, 2},
		{"byte-order mark before the header", "\ufefftask_name,instance_num,job_name,task_type,status,start_time,end_time,plan_cpu,plan_mem\n" + ok, nil, 0},
		{"times near the float limit", "M1,1.0,j,1,Terminated,0,1e300,100,1\n", map[string]string{"j": "outside ±9007199254740992 seconds"}, 1},
		{"plan_cpu near the float limit", "M1,1.0,j,1,Terminated,0,1,1e300,1\n", map[string]string{"j": "plan_cpu 1e+300 or plan_mem 1 is larger than"}, 1},
		// 2^31−1 instances per row (clamped), far past the task limit.
		{"huge instance counts", "M1,1e18,j,1,Terminated,0,1,1,1\nR2_1,1e18,j,1,Terminated,1,2,1,1\n", map[string]string{"j": "exceed the limit of"}, 1},
		// Each row 10^9 s × 2^24 instances = 2^24·10^9 > 2^53 ticks.
		{"durations past MaxJobTicks", "M1,16777216,j,1,Terminated,0,1000000000,1,1\n", map[string]string{"j": "task durations sum to more than"}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := ReadAlibabaRows("b.csv", strings.NewReader(tc.in), AlibabaOptions{MaxTasks: 1 << 25})
			if err != nil {
				t.Fatal(err)
			}
			if len(rows.Rejected) != len(tc.rejected) {
				t.Fatalf("rejected %+v, want %v", rows.Rejected, tc.rejected)
			}
			for _, r := range rows.Rejected {
				want, ok := tc.rejected[r.Job]
				if !ok || !strings.Contains(r.Reason, want) {
					t.Errorf("rejection %+v, want job %q with reason containing %q", r, r.Job, want)
				}
				if tc.line > 0 && r.Line != tc.line {
					t.Errorf("rejection at line %d, want %d", r.Line, tc.line)
				}
			}
			for _, j := range rows.Jobs {
				if j.Name == "job_name" || strings.HasPrefix(j.Name, "\ufeff") {
					t.Errorf("the header became job %q", j.Name)
				}
			}
		})
	}
}

// TestReadAlibabaRowsStreams: rows of a job need not be adjacent, parents
// resolve to row indices, and the expanded counts are exact (saturating,
// never wrapping, past math.MaxInt).
func TestReadAlibabaRowsStreams(t *testing.T) {
	in := "M1,2.0,j_a,1,Terminated,100,110,100.0,0.2\n" +
		"M1,1.0,j_b,1,Terminated,5,6,100.0,0.2\n" +
		"R2_1,3.0,j_a,1,Terminated,110,115,50.0,0.3\n"
	rows, err := ReadAlibabaRows("b.csv", strings.NewReader(in), AlibabaOptions{})
	if err != nil || len(rows.Jobs) != 2 || len(rows.Rejected) != 0 {
		t.Fatalf("rows %+v, %v", rows, err)
	}
	a := rows.Jobs[0]
	// M1 (2 tasks) → R2_1 (3 tasks): 5 tasks, 2·3 = 6 edges.
	if a.Name != "j_a" || len(a.Rows) != 2 || a.Tasks != 5 || a.Edges != 6 || len(a.Rows[1].Parents) != 1 || a.Rows[1].Parents[0] != 0 {
		t.Fatalf("j_a = %+v", a)
	}
	d, err := a.DAG()
	if err != nil || d.N() != 5 || d.Edges() != 6 || a.ObservedSpan() != 15 {
		t.Fatalf("j_a DAG %v, %v, span %d", d, err, a.ObservedSpan())
	}
}
