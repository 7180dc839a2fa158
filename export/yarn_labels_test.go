package export

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capplan/capplan/pipeline/pipelinetest"
)

func TestYARNXMLLint(t *testing.T) {
	xmllint := pipelinetest.NeedCommand(t, "xmllint", "apt-get install -y libxml2-utils")
	e, err := YARN(exampleInput(t, true))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WriteDir(dir, e.Files); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{YARNFairSchedulerPath, YARNCapacitySchedulerPath} {
		out, err := exec.Command(xmllint, "--noout", filepath.Join(dir, p)).CombinedOutput()
		if err != nil {
			t.Errorf("xmllint --noout %s: %v\n%s", p, err, out)
		}
	}
}

// TestYARNNodeLabels checks node-labels.sh on the per-node plan: it parses
// as shell (sh -n), adds one label per machine type, and assigns every
// node of the plan exactly once, to its own type's label.
func TestYARNNodeLabels(t *testing.T) {
	in := exampleInput(t, true)
	e, err := YARN(in)
	if err != nil {
		t.Fatal(err)
	}
	data := fileData(t, e, YARNNodeLabelsPath)
	script := filepath.Join(t.TempDir(), "node-labels.sh")
	if err := os.WriteFile(script, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("sh", "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("sh -n node-labels.sh: %v\n%s", err, out)
	}
	want := map[string]string{}
	for _, n := range in.FairShare.Nodes {
		want[n.Node] = objectName(n.Type)
	}
	got := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		arg, ok := strings.CutPrefix(line, "yarn rmadmin -replaceLabelsOnNode ")
		if !ok {
			continue
		}
		for _, pair := range strings.Fields(strings.Trim(arg, "'")) {
			node, label, _ := strings.Cut(pair, "=")
			if _, dup := got[node]; dup {
				t.Errorf("node %s labelled twice", node)
			}
			got[node] = label
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d nodes labelled, the plan has %d", len(got), len(want))
	}
	for n, l := range want {
		if got[n] != l {
			t.Errorf("node %s labelled %q, want %q", n, got[n], l)
		}
	}
	if !strings.Contains(string(data), "-addToClusterNodeLabels 'std(exclusive=true),std-b(exclusive=true),highmem(exclusive=true),gpu(exclusive=true),spot(exclusive=true)'") {
		t.Error("node-labels.sh does not add the five machine-type labels")
	}
	if len(e.Warnings) > 0 {
		t.Errorf("per-node plan gives warnings: %v", e.Warnings)
	}
}
