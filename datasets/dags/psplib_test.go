package dags

import (
	"errors"
	"strings"
	"testing"

	"github.com/capplan/capplan/dag"
)

// tinySM is a hand-written .sm file: jobs 2 and 3 after the source, job 4
// after both; capacities 5 and 3.
const tinySM = `************************************************************************
jobs (incl. supersource/sink ):  5
horizon                       :  9
RESOURCES
  - renewable                 :  2   R
  - nonrenewable              :  0   N
  - doubly constrained        :  0   D
************************************************************************
PROJECT INFORMATION:
pronr.  #jobs rel.date duedate tardcost  MPM-Time
    1      3      0       7        1       7
************************************************************************
PRECEDENCE RELATIONS:
jobnr.    #modes  #successors   successors
   1        1          2           2   3
   2        1          1           4
   3        1          1           4
   4        1          1           5
   5        1          0
************************************************************************
REQUESTS/DURATIONS:
jobnr. mode duration  R 1  R 2
------------------------------------------------------------------------
  1      1     0       0    0
  2      1     3       4    1
  3      1     2       2    2
  4      1     4       1    3
  5      1     0       0    0
************************************************************************
RESOURCEAVAILABILITIES:
  R 1  R 2
    5    3
************************************************************************
`

func TestParsePSPLIBTiny(t *testing.T) {
	p, err := ParsePSPLIB("tiny.sm", strings.NewReader(tinySM))
	if err != nil {
		t.Fatal(err)
	}
	d := p.DAG
	if d.N() != 3 || d.Edges() != 2 || p.MPM != 7 || p.Horizon != 9 {
		t.Fatalf("got %v, MPM %d, horizon %d", d, p.MPM, p.Horizon)
	}
	if got := p.Capacity; got[0] != 5 || got[1] != 3 {
		t.Fatalf("capacity %v", got)
	}
	four, _ := d.Index("4")
	if len(d.Preds(four)) != 2 || d.Tasks[four].Duration != 4 || d.Tasks[four].Demand[1] != 3 {
		t.Fatalf("job 4: %+v preds %v", d.Tasks[four], d.Preds(four))
	}
	// The critical path 2 -> 4 is 3 + 4 = 7 = MPM-Time.
	if cp := dag.CPLength(d); cp != 7 {
		t.Fatalf("CPLength %d, want 7", cp)
	}
}

func TestParsePSPLIBErrors(t *testing.T) {
	tests := []struct{ name, in string }{
		{"empty", ""},
		{"multi-mode", strings.Replace(tinySM, "   2        1          1", "   2        2          1", 1)},
		{"dummy with work", strings.Replace(tinySM, "  5      1     0       0    0", "  5      1     2       0    0", 1)},
		{"successor out of range", strings.Replace(tinySM, "   4        1          1           5", "   4        1          1           9", 1)},
		{"cycle", strings.Replace(tinySM, "   4        1          1           5", "   4        1          2           5   2", 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePSPLIB(tc.name, strings.NewReader(tc.in))
			if !errors.Is(err, dag.ErrInvalid) {
				t.Fatalf("got %v, want ErrInvalid", err)
			}
		})
	}
}

func TestParsePSPLIBTable(t *testing.T) {
	in := "Par  Inst    UB   LB         Author LB\n====\n  1   1    77    77    *    \n  1   4    91    90    Klein & Scholl\n48      10        54       0.01\n"
	got, err := ParsePSPLIBTable("lb", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[PSPLIBKey{1, 4}][1] != 90 || len(got[PSPLIBKey{48, 10}]) != 1 {
		t.Fatalf("got %v", got)
	}
	if _, err := ParsePSPLIBTable("dup", strings.NewReader("1 1 5\n1 1 6\n")); !errors.Is(err, dag.ErrInvalid) {
		t.Fatalf("duplicate row: got %v", err)
	}
}

// TestParsePSPLIBHostile: header counts and durations that would make the
// parser or the dag arithmetic run away are refused with a problem. On
// main, a header claiming 10^12 jobs looped over them all (and a map sized
// by the count), and durations near the int64 limit were accepted, their
// sum overflowing in the bounds.
func TestParsePSPLIBHostile(t *testing.T) {
	cases := []struct {
		name, from, to, want string
	}{
		{"10^12 jobs", "jobs (incl. supersource/sink ):  5", "jobs (incl. supersource/sink ):  1000000000000", "says 1000000000000 jobs, but the file has 5 precedence rows"},
		// 2^62 + 2^62 = 2^63 ticks: past MaxJobTicks (and int64).
		{"durations near the int64 limit", "  2      1     3       4    1\n  3      1     2       2    2",
			"  2      1     4611686018427387904       4    1\n  3      1     4611686018427387904       2    2", "task durations sum to more than"},
		{"one duration past 2^53", "  4      1     4       1    3", "  4      1     9007199254740993       1    3", "task durations sum to more than"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := strings.Replace(tinySM, tc.from, tc.to, 1)
			if in == tinySM {
				t.Fatal("the case changes nothing")
			}
			_, err := ParsePSPLIB("tiny.sm", strings.NewReader(in))
			var ie *dag.InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want an InputError containing %q", err, tc.want)
			}
		})
	}
}

// TestParsePSPLIBMissingCount: a resource count left blank is none. Found
// by FuzzParsePSPLIB: a blank "doubly constrained" count was read as −1,
// so a request row one value too long passed the length check and the
// parser indexed past it (a panic).
func TestParsePSPLIBMissingCount(t *testing.T) {
	blank := strings.Replace(tinySM, "  - doubly constrained        :  0   D", "  - doubly constrained        :      D", 1)
	if blank == tinySM {
		t.Fatal("the case changes nothing")
	}
	if _, err := ParsePSPLIB("tiny.sm", strings.NewReader(blank)); err != nil {
		t.Fatalf("blank count: %v, want it read as none", err)
	}
	long := strings.Replace(blank, "  4      1     4       1    3", "  4      1     4       1    3    0", 1)
	_, err := ParsePSPLIB("tiny.sm", strings.NewReader(long))
	var ie *dag.InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "request row needs") {
		t.Fatalf("a row one value too long: err = %v, want an InputError about the request row", err)
	}
}
