package vbp

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	// Two dimensions, capacity (10, 20), two item types: (3,4)×2 and (10,0)×1.
	in := "2\n10 20\n2\n3 4 2\n10 0 1\n"
	got, err := Parse("ok.vbp", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := &Instance{Name: "ok.vbp", Capacity: []int64{10, 20},
		Items: []Item{{[]int64{3, 4}, 2}, {[]int64{10, 0}, 1}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Parse = %+v, want %+v", got, want)
	}
	if n := got.NumItems(); n != 3 {
		t.Errorf("NumItems = %d, want 3", n)
	}
	if s := got.Sizes(); len(s) != 3 || s[1][1] != 4 || s[2][0] != 10 {
		t.Errorf("Sizes = %v", s)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		line     int
	}{
		{"empty", "", 0},
		{"zero dims", "0\n", 1},
		{"not integer", "2\n10 x\n", 2},
		{"zero capacity", "2\n10 0\n", 2},
		{"truncated item", "2\n10 10\n2\n1 1 1\n1 1\n", 5},
		{"negative count", "1\n10\n1\n3 -1\n", 4},
		{"trailing", "1\n10\n1\n3 1\n7\n", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("bad.vbp", strings.NewReader(tc.in))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *ParseError", err)
			}
			if pe.Name != "bad.vbp" || pe.Line != tc.line {
				t.Errorf("error at %s:%d, want bad.vbp:%d (%v)", pe.Name, pe.Line, tc.line, err)
			}
		})
	}
}

func TestParseSummary(t *testing.T) {
	in := "instance_name\tLB\tOPT\tbest_overall\nclass1_20_3_0\t6\t6\t6\nclass4_500_3_1\t120\t-1\t122\n"
	got, err := ParseSummary("s.csv", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Known{{"class1_20_3_0", 6, 6}, {"class4_500_3_1", 120, -1}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for _, bad := range []string{"", "name\tLB\n", "instance_name\tLB\tOPT\nx\t1\n", "instance_name\tLB\tOPT\nx\t1\ty\n"} {
		var pe *ParseError
		if _, err := ParseSummary("s.csv", strings.NewReader(bad)); !errors.As(err, &pe) {
			t.Errorf("ParseSummary(%q) err = %v, want *ParseError", bad, err)
		}
	}
}

func TestPanigrahyFilesParse(t *testing.T) {
	data := loadSet(t, "panigrahy", "Panigrahy_summary_known.csv", 1)
	if len(data) != 1200 {
		t.Errorf("%d Panigrahy instances with known optimum, README says 1200", len(data))
	}
	tri := loadSet(t, "triplet", "Triplet_summary_known.csv", 1)
	for _, ki := range tri {
		// Planted optimum: n/3 bins, every triplet fills a bin exactly.
		if n := ki.inst.NumItems(); ki.known.OPT*3 != n {
			t.Errorf("%s: OPT %d, n %d", ki.known.Name, ki.known.OPT, n)
		}
	}
}
