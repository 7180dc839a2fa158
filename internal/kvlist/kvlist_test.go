package kvlist

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name          string
		in            string
		valueRequired bool
		want          []Pair
		err           string // substring of the error, "" for none
	}{
		{"empty", "  ", true, nil, ""},
		{"pairs trimmed", " cpu = 1 ,memory=1Gi", true, []Pair{{"cpu", "1", true}, {"memory", "1Gi", true}}, ""},
		{"bare names allowed", "std,highmem=3.5", false, []Pair{{"std", "", false}, {"highmem", "3.5", true}}, ""},
		{"empty value kept", "cpu=", true, []Pair{{"cpu", "", true}}, ""},
		{"bare name refused", "std", true, nil, `"std": want NAME=VALUE`},
		{"empty entry", "cpu=1,,memory=2", true, nil, "empty entry"},
		{"no name", "=3", false, nil, "no name before '='"},
		{"duplicate", "cpu=1,cpu=2", true, nil, "cpu given twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.in, tc.valueRequired)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

func TestQuantities(t *testing.T) {
	q, err := Quantities("cpu=500m, memory=64Gi, gpu=8")
	if err != nil {
		t.Fatal(err)
	}
	// 500m = 0.5 cores; 64Gi = 64·2^30 bytes.
	cpu, mem, gpu := q["cpu"], q["memory"], q["gpu"]
	if cpu.MilliValue() != 500 || mem.Value() != 64<<30 || gpu.Value() != 8 || len(q) != 3 {
		t.Errorf("got %v", q)
	}
	for in, want := range map[string]string{
		"cpu=x":       `cpu="x": not a quantity`,
		"cpu":         "want NAME=VALUE",
		"cpu=1,cpu=2": "given twice",
	} {
		if _, err := Quantities(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", in, err, want)
		}
	}
}
