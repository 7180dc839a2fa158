package vbpfile

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/capplan/capplan/binpack/vbp"
)

func TestParse(t *testing.T) {
	// Two dimensions, capacity (10, 20), two item types: (3,4)×2 and (10,0)×1.
	in := "2\n10 20\n2\n3 4 2\n10 0 1\n"
	got, err := Parse("ok.vbp", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := &vbp.Instance{Name: "ok.vbp", Capacity: []int64{10, 20},
		Items: []vbp.Item{{Size: []int64{3, 4}, Count: 2}, {Size: []int64{10, 0}, Count: 1}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Parse = %+v, want %+v", got, want)
	}
	if n := got.NumItems(); n != 3 {
		t.Errorf("NumItems = %d, want 3", n)
	}
	if s := got.Sizes(); len(s) != 3 || s[1][1] != 4 || s[2][0] != 10 {
		t.Errorf("Sizes = %v", s)
	}
	// Negative sizes are accepted (the Triplet files have them); line
	// breaks do not matter.
	neg, err := Parse("neg.vbp", strings.NewReader("1 10 1 -3 2"))
	if err != nil || neg.Items[0].Size[0] != -3 || neg.Items[0].Count != 2 {
		t.Errorf("Parse(negative) = %+v, %v", neg, err)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		line     int
		msg      string // part of the message
	}{
		{"empty", "", 0, "unexpected end of input, want dimension count"},
		{"zero dims", "0\n", 1, "dimension count = 0"},
		{"too many dims", "70000\n", 1, "too large"},
		{"not integer", "2\n10 x\n", 2, `not an integer: "x"`},
		{"zero capacity", "2\n10 0\n", 2, "capacity[1] = 0"},
		{"truncated item", "2\n10 10\n2\n1 1 1\n1 1\n", 5, "want item 1 count"},
		{"negative count", "1\n10\n1\n3 -1\n", 4, "item 0 count = -1"},
		{"count exceeds input", "1\n10\n99\n3 1\n", 3, "exceeds the input"},
		{"too many items", "1\n10\n2\n3 4194304\n3 1\n", 5, "more than 4194304"},
		{"trailing", "1\n10\n1\n3 1\n7\n", 5, "trailing data"},
		{"overflow", "1\n10\n1\n3 99999999999999999999\n", 4, "not an integer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("bad.vbp", strings.NewReader(tc.in))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *ParseError", err)
			}
			if pe.Name != "bad.vbp" || pe.Line != tc.line || !strings.Contains(pe.Msg, tc.msg) {
				t.Errorf("error %q at %s:%d, want bad.vbp:%d with %q", pe.Msg, pe.Name, pe.Line, tc.line, tc.msg)
			}
			if !strings.HasPrefix(err.Error(), "vbp: bad.vbp:") {
				t.Errorf("Error() = %q does not name the file", err)
			}
		})
	}
}

func TestParseLongLine(t *testing.T) {
	in := "1\n10\n1\n" + strings.Repeat(" ", maxLine+1) + "3 1\n"
	_, err := Parse("long.vbp", strings.NewReader(in))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 4 {
		t.Fatalf("err = %v, want a *ParseError at line 4", err)
	}
}

func TestParseSummary(t *testing.T) {
	in := "instance_name\tLB\tOPT\tbest_overall\nclass1_20_3_0\t6\t6\t6\n\nclass4_500_3_1\t120\t-1\t122\r\n"
	got, err := ParseSummary("s.csv", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Known{{"class1_20_3_0", 6, 6}, {"class4_500_3_1", 120, -1}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for _, tc := range []struct {
		in   string
		line int
		msg  string
	}{
		{"", 0, "empty summary"},
		{"name\tLB\n", 1, "header lacks column instance_name"},
		{"instance_name\tLB\tOPT\nx\t1\n", 2, "missing column OPT"},
		{"instance_name\tLB\tOPT\nx\t1\ty\n", 2, `OPT: not an integer: "y"`},
	} {
		_, err := ParseSummary("s.csv", strings.NewReader(tc.in))
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != tc.line || !strings.Contains(pe.Msg, tc.msg) {
			t.Errorf("ParseSummary(%q) err = %v, want line %d with %q", tc.in, err, tc.line, tc.msg)
		}
	}
}

// TestParseRange: amounts where int64 sums could overflow are refused
// with the line. On main, a capacity and two items of 2^63−1 were read,
// and `capplan pack --min-nodes` put both items on one node (the load
// wrapped to −2) and exited 0.
func TestParseRange(t *testing.T) {
	cases := []struct {
		name, in string
		line     int
	}{
		{"capacity at the int64 limit", "1\n9223372036854775807\n1\n1 2\n", 2},
		{"size beyond MaxTotal", "1\n10\n1\n1152921504606846977 1\n", 4},
		{"size below −MaxTotal", "1\n10\n1\n-1152921504606846977 1\n", 4},
		// 2 · 2^59 = 2^60 is the limit; a third copy passes it.
		{"total beyond MaxTotal", "1\n1152921504606846976\n2\n576460752303423488 2\n576460752303423488 1\n", 5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("x.vbp", strings.NewReader(tc.in))
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != tc.line {
				t.Fatalf("err = %v, want a ParseError at line %d", err, tc.line)
			}
		})
	}
	if _, err := Parse("x.vbp", strings.NewReader("1\n1152921504606846976\n1\n576460752303423488 2\n")); err != nil {
		t.Errorf("a total of exactly MaxTotal: %v", err)
	}
}
