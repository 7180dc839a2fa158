package datasets

import "testing"

// TestSimulateExample: the embedded simulation example loads and passes
// every check of this package.
func TestSimulateExample(t *testing.T) {
	files := SimulateExampleFiles()
	c, err := ParseCluster("cluster.yaml", files["cluster.yaml"], LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := ParseDemand("demand.yaml", files["demand.yaml"])
	if err != nil {
		t.Fatal(err)
	}
	w, err := ParseWorkload("workload.yaml", files["workload.yaml"])
	if err != nil {
		t.Fatal(err)
	}
	if c.NumNodes() != 16 || len(d.Applications) != 4 || len(w.Jobs) != 40 {
		t.Errorf("example: %d nodes, %d applications, %d jobs", c.NumNodes(), len(d.Applications), len(w.Jobs))
	}
	if _, err := Coalesce(c, d); err != nil {
		t.Error(err)
	}
}
