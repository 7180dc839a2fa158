package datasets

import (
	"bytes"
	"strings"
	"testing"
)

// roundTrip marshals a model, parses the result with parse and marshals
// again; both documents must be equal and the parsed model must keep the
// model's invariants.
func roundTrip[M any](t *testing.T, name string, m M, parse func(string, []byte) (M, error), invariant func(M) string) M {
	t.Helper()
	first, err := MarshalYAML(m)
	if err != nil {
		t.Fatalf("%s: MarshalYAML: %v", name, err)
	}
	back, err := parse(name, first)
	if err != nil {
		t.Fatalf("%s: written document does not load: %v\n%s", name, err, first)
	}
	if bad := invariant(back); bad != "" {
		t.Fatalf("%s: reloaded model broken: %s", name, bad)
	}
	second, err := MarshalYAML(back)
	if err != nil || !bytes.Equal(first, second) {
		t.Fatalf("%s: second write differs (err %v):\n%s\nvs\n%s", name, err, first, second)
	}
	return back
}

func parseClusterDefault(name string, data []byte) (*Cluster, error) {
	return ParseCluster(name, data, LoadOptions{})
}

func TestWriteYAMLRoundTrip(t *testing.T) {
	clusters := map[string][]byte{"cluster.yaml": ExampleFiles()["cluster.yaml"], "check": []byte(checkCluster)}
	demands := map[string][]byte{"demand.yaml": ExampleFiles()["demand.yaml"]}
	for _, f := range []string{"fig1", "fig3", "sec5", "fig5"} {
		clusters[f] = readFixture(t, f+"-cluster.yaml")
		demands[f] = readFixture(t, f+"-demand.yaml")
	}
	for name, data := range clusters {
		c := mustCluster(t, name, data)
		back := roundTrip(t, name, c, parseClusterDefault, clusterInvariant)
		if diff := nodesDiff(c.Nodes(), back.Nodes(), false); diff != "" {
			t.Errorf("%s: nodes differ after a round trip: %s", name, diff)
		}
	}
	for name, data := range demands {
		d := mustDemand(t, name, data)
		back := roundTrip(t, name, d, ParseDemand, demandInvariant)
		for i := range d.Applications {
			a, b := d.Applications[i], back.Applications[i]
			if a.Weight.Cmp(b.Weight) != 0 || a.SelectorText != b.SelectorText || a.MaxMachines != b.MaxMachines {
				t.Errorf("%s: application %s changed", name, a.Name)
			}
		}
	}
	w, err := ParseWorkload("workload.yaml", ExampleFiles()["workload.yaml"])
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, "workload.yaml", w, ParseWorkload, workloadInvariant)

	// A kubectl inventory keeps everything but its nodes' own names,
	// racks and labels: its groups come back as groups.
	k, err := LoadCluster("testdata/kubectl-nodes.json", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	back := roundTrip(t, "kubectl", k, parseClusterDefault, clusterInvariant)
	if diff := nodesDiff(k.Nodes(), back.Nodes(), true); diff != "" {
		t.Errorf("kubectl: nodes differ after a round trip: %s", diff)
	}
	if got := back.Nodes()[0].Name; got != "m5.2xlarge-0" {
		t.Errorf("kubectl node reloads as %q, want m5.2xlarge-0", got)
	}
}

func TestWriteYAMLGenerated(t *testing.T) {
	c, d := GoogleLike(GoogleParams{Users: 30, Types: 8, Machines: 200}, 3)
	backC := roundTrip(t, "google cluster", c, parseClusterDefault, clusterInvariant)
	if diff := nodesDiff(c.Nodes(), backC.Nodes(), false); diff != "" {
		t.Errorf("nodes differ: %s", diff)
	}
	backD := roundTrip(t, "google demand", d, ParseDemand, demandInvariant)
	// The reloaded pair coalesces exactly like the generated one.
	i1, err1 := Coalesce(c, d)
	i2, err2 := Coalesce(backC, backD)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	for a := range i1.Applications {
		x, y := i1.Applications[a], i2.Applications[a]
		if x.Machines != y.Machines || x.Weight != y.Weight || x.MaxMachines != y.MaxMachines || len(x.Types) != len(y.Types) {
			t.Errorf("application %s: %+v vs %+v", x.Name, x, y)
		}
	}
}

func TestWriteYAMLRejectsOtherTypes(t *testing.T) {
	var b bytes.Buffer
	if err := WriteYAML(&b, "cluster"); err == nil || !strings.Contains(err.Error(), "cannot write string") {
		t.Errorf("got %v", err)
	}
}
