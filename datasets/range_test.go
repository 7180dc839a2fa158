package datasets

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTimesInRange: times (durations, arrivals) are 0 or within
// [MinSeconds, MaxSeconds], and NaN or infinite YAML floats are named by
// field and line. On main, 1e308 passed and later became a negative
// number of ticks, 1e-300 silently became 0 ticks, and .nan / .inf gave
// "invalid YAML: json: unsupported value: NaN" with neither field nor
// line.
func TestTimesInRange(t *testing.T) {
	stage := func(dur string) string {
		return workloadHead + "- name: j\n  stages:\n  - {name: a, tasks: 2, duration: " + dur + ", demand: {cpu: 1}}\n"
	}
	cases := []struct {
		name string
		in   string
		want []wantProblem
	}{
		{"duration 1e308", stage("1e308"), []wantProblem{{"jobs[0].stages[0].duration", "1e+308 seconds is longer than 1e+09 seconds"}}},
		{"duration 1e-300", stage("1e-300"), []wantProblem{{"jobs[0].stages[0].duration", "1e-300 seconds is shorter than 1ms"}}},
		// 1 µs would round up to a whole 1 ms tick: refused, not changed.
		{"duration 1e-6", stage("0.000001"), []wantProblem{{"jobs[0].stages[0].duration", "shorter than 1ms"}}},
		{"arrival 1e300", workloadHead + "- {name: j, arrival: 1e300, stages: [{name: a, tasks: 1, duration: 1, demand: {cpu: 1}}]}\n",
			[]wantProblem{{"jobs[0].arrival", "longer than 1e+09 seconds"}}},
		// Line 6: apiVersion, kind, jobs:, - name, stages:, the stage.
		{"duration .nan", stage(".nan"), []wantProblem{{"jobs[0].stages[0].duration", "line 6: .nan is not a finite number"}}},
		{"duration -.inf", stage("-.inf"), []wantProblem{{"jobs[0].stages[0].duration", "line 6: -.inf is not a finite number"}}},
		{"task duration .Inf", workloadHead + "- name: j\n  tasks:\n  - id: t\n    duration: .Inf\n    demand: {cpu: 1}\n",
			[]wantProblem{{"jobs[0].tasks[0].duration", "line 7: .Inf is not a finite number"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, err := ParseWorkload("w.yaml", []byte(tc.in))
			if w != nil {
				t.Errorf("got a workload despite problems")
			}
			checkProblems(t, err, "w.yaml", tc.want)
		})
	}
	// The bounds themselves are accepted.
	for _, dur := range []string{"0.001", "1e9"} {
		if _, err := ParseWorkload("w.yaml", []byte(stage(dur))); err != nil {
			t.Errorf("duration %s: %v", dur, err)
		}
	}
	// A demand duration of .nan is named too.
	_, err := ParseDemand("d.yaml", []byte("apiVersion: capplan/v1\nkind: Demand\napplications:\n- name: a\n  requests:\n  - {shape: {cpu: 1}, count: 1, duration: .nan}\n"))
	checkProblems(t, err, "d.yaml", []wantProblem{{"applications[0].requests[0].duration", "line 6: .nan is not a finite number"}})
}

// TestReadFileLimits: a whole-file read of a regular file over the limit
// is refused before reading, and a device is read only up to the limit
// (on main, `-c /dev/zero` read 1 GiB and died out of memory).
func TestReadFileLimits(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, make([]byte, 2048), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(big, 1024); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "big.yaml") {
		t.Errorf("ReadFile of 2 KiB with a 1 KiB limit = %v, want ErrTooLarge naming the file", err)
	}
	if data, err := ReadFile(big, 4096); err != nil || len(data) != 2048 {
		t.Errorf("ReadFile of 2 KiB with a 4 KiB limit = %d bytes, %v", len(data), err)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, err := ReadFile("/dev/zero", 1<<20); !errors.Is(err, ErrTooLarge) {
			t.Errorf("ReadFile(/dev/zero, 1 MiB) = %v, want ErrTooLarge", err)
		}
	}
	if MaxDocumentBytes >= MaxInputBytes {
		t.Errorf("the document limit %d is not below the whole-file limit %d", MaxDocumentBytes, MaxInputBytes)
	}
}

// TestReadAllPieces: a reader of unknown size (a pipe, a device) is read
// in pieces and joined byte for byte, across piece boundaries; past the
// limit it is refused without being joined.
func TestReadAllPieces(t *testing.T) {
	data := make([]byte, 2*readChunk+12345) // 2 whole pieces and a part
	for i := range data {
		data[i] = byte(i * 7)
	}
	// Wrapped, the reader is neither an *os.File nor a *bytes.Reader, so
	// its size is unknown.
	got, err := ReadAll(struct{ io.Reader }{bytes.NewReader(data)}, "pipe", int64(len(data)))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("ReadAll at the limit: %d bytes, %v; want the %d bytes read", len(got), err, len(data))
	}
	if _, err := ReadAll(struct{ io.Reader }{bytes.NewReader(data)}, "pipe", int64(len(data))-1); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "pipe") {
		t.Errorf("ReadAll one byte past the limit = %v, want ErrTooLarge naming the input", err)
	}
}
