package datasets_test

import (
	"bytes"
	"fmt"

	"github.com/capplan/capplan/datasets"
)

// Coalesce the Choosy paper's Figure 1 (EuroSys'13): ten machines, four
// users with placement constraints.
func ExampleCoalesce() {
	c, err := datasets.LoadCluster("testdata/fig1-cluster.yaml", datasets.LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := datasets.LoadDemand("testdata/fig1-demand.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	inst, err := datasets.Coalesce(c, d)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range inst.Types {
		fmt.Printf("type %s: %d machines %v\n", t.Name, t.Count, t.Groups)
	}
	for _, a := range inst.Applications {
		fmt.Printf("%s may use types %v: %d machines\n", a.Name, a.Types, a.Machines)
	}
	// Output:
	// type m1: 1 machines [m1]
	// type m2: 1 machines [m2]
	// type m3: 1 machines [m3]
	// type m4: 1 machines [m4]
	// type m5: 4 machines [m5 m8 m9 m10]
	// type m6: 2 machines [m6 m7]
	// u1 may use types [0 3]: 2 machines
	// u2 may use types [2 3]: 2 machines
	// u3 may use types [1 2 3 5]: 5 machines
	// u4 may use types [4 5]: 6 machines
}

// Every problem of a file is reported, each with its field path.
func ExampleParseCluster_problems() {
	_, err := datasets.ParseCluster("cluster.yaml", []byte(`apiVersion: capplan/v1
kind: Cluster
resources: [cpu, memory]
nodes:
  - {name: std, count: 0, capacity: {cpu: 32, memory: 128GB}}
  - {name: gpu, count: 2, labels: {gpu: yes}, capacity: {cpu: 8, gpu: 1}}
`), datasets.LoadOptions{})
	fmt.Println(err)
	// Output:
	// cluster.yaml: nodes[0].count: node group "std" must have at least 1 node, got 0 (leave count out for one node)
	// cluster.yaml: nodes[0].capacity.memory: invalid quantity "128GB": use Kubernetes notation such as 64Gi, 500m or 8
	// cluster.yaml: nodes[1].labels.gpu: label value must be a string, got true (quote it: "true")
	// cluster.yaml: nodes[1].capacity.gpu: resource "gpu" is not declared in resources [cpu, memory]
}

// Weights 0.5, 2.25 and 1 in exact integer ratio.
func ExampleIntegerWeights() {
	d, _ := datasets.ParseDemand("d.yaml", []byte(`apiVersion: capplan/v1
kind: Demand
applications: [{name: a, weight: 0.5}, {name: b, weight: 2.25}, {name: c}]
`))
	w, _ := datasets.IntegerWeights(d.Applications)
	fmt.Println(w)
	// Output: [2 9 4]
}

// Generate a Google-like instance and write it where LoadCluster and
// LoadDemand read it back.
func ExampleGoogleLike() {
	c, d := datasets.GoogleLike(datasets.GoogleParams{Users: 300, Types: 20, Machines: 5000}, 42)
	inst, err := datasets.Coalesce(c, d)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d node groups, %d nodes, %d users, at most %d machine types\n",
		len(c.Groups), c.NumNodes(), len(d.Applications), len(c.Groups))
	fmt.Println(len(inst.Types) <= len(c.Groups))

	var buf bytes.Buffer
	if err := datasets.WriteYAML(&buf, c); err != nil {
		fmt.Println(err)
		return
	}
	back, err := datasets.ParseCluster("generated.yaml", buf.Bytes(), datasets.LoadOptions{})
	fmt.Println(back.NumNodes(), err)
	// Output:
	// 20 node groups, 5000 nodes, 300 users, at most 20 machine types
	// true
	// 5000 <nil>
}
