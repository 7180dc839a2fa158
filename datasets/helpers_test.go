package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capplan/capplan/internal/inputerr"
)

// wantProblem is an expected problem: its exact path and a part of its
// message.
type wantProblem struct {
	path, msg string
}

// checkProblems asserts that err is an *inputerr.Error on file holding
// exactly the wanted problems, in order.
func checkProblems(t *testing.T, err error, file string, want []wantProblem) {
	t.Helper()
	var ve *inputerr.Error
	if !errors.As(err, &ve) {
		t.Fatalf("got error %v (%T), want an *inputerr.Error", err, err)
	}
	ok := len(ve.Problems) == len(want)
	for i := 0; ok && i < len(want); i++ {
		p := ve.Problems[i]
		ok = p.File == file && p.Path == want[i].path && strings.Contains(p.Msg, want[i].msg)
	}
	if !ok {
		var got strings.Builder
		for _, p := range ve.Problems {
			got.WriteString("\n\t" + p.File + " | " + p.Path + " | " + p.Msg)
		}
		var exp strings.Builder
		for _, w := range want {
			exp.WriteString("\n\t" + file + " | " + w.path + " | ..." + w.msg + "...")
		}
		t.Errorf("problems differ\ngot:%s\nwant:%s", got.String(), exp.String())
	}
}

// readFixture reads a file of testdata/.
func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// mustCluster parses a cluster or fails the test.
func mustCluster(t testing.TB, name string, data []byte) *Cluster {
	t.Helper()
	c, err := ParseCluster(name, data, LoadOptions{})
	if err != nil {
		t.Fatalf("ParseCluster(%s): %v", name, err)
	}
	return c
}

// mustDemand parses a demand or fails the test.
func mustDemand(t testing.TB, name string, data []byte) *Demand {
	t.Helper()
	d, err := ParseDemand(name, data)
	if err != nil {
		t.Fatalf("ParseDemand(%s): %v", name, err)
	}
	return d
}

// examplePair loads the embedded example cluster and demand.
func examplePair(t testing.TB) (*Cluster, *Demand) {
	t.Helper()
	files := ExampleFiles()
	return mustCluster(t, "cluster.yaml", files["cluster.yaml"]), mustDemand(t, "demand.yaml", files["demand.yaml"])
}
