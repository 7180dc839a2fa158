package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capplan/capplan/internal/inputerr"
	"github.com/capplan/capplan/internal/testdatasets"
)

func TestParseOpenB(t *testing.T) {
	nodes := "sn,cpu_milli,memory_mib,gpu,model\n" +
		"n0,32000,262144,0,\n" +
		"n1,96000,786432,8,V100M16\n" +
		"n2,96000,786432,8,V100M16\n"
	pods := "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n" +
		"p0,12000,16384,1,1000,,LS,Running,0,100,0\n" +
		"p1,6000,12288,1,460,,LS,Running,0,300,100\n" +
		"p2,12000,16384,1,1000,,LS,Running,0,50,30\n" +
		"p3,4000,8192,2,1000,V100M16|P100,BE,Running,0,,\n" +
		"p4,4000,8192,9,1000,,LS,Failed,0,,\n"
	c, d, dropped, err := ParseOpenB("nodes.csv", strings.NewReader(nodes), "pods.csv", strings.NewReader(pods))
	if err != nil {
		t.Fatal(err)
	}
	if dropped != 1 { // p4 wants 9 GPUs
		t.Errorf("dropped %d pods, want 1", dropped)
	}
	if len(c.Groups) != 2 || c.Groups[1].Count != 2 || c.Groups[1].Labels[OpenBModelLabel] != "V100M16" {
		t.Fatalf("groups %+v", c.Groups)
	}
	if g := c.Groups[1].Capacity; g[0].MilliValue() != 96000 || g[1].Value() != 786432<<20 || g[2].Value() != 8 {
		t.Errorf("capacity %v", g)
	}
	if len(d.Applications) != 2 || d.Applications[0].Name != "LS" || d.Applications[1].SelectorText != "gpu-model in (P100,V100M16)" {
		t.Fatalf("applications %+v", d.Applications)
	}
	ls := d.Applications[0].Requests
	// p0 and p2 merge: count 2, mean duration (100 + 20)/2 = 60 s.
	if len(ls) != 2 || ls[0].Count != 2 || ls[0].Duration != 60 {
		t.Errorf("LS requests %+v", ls)
	}
	if g := ls[1].Shape["gpu"]; g.MilliValue() != 460 {
		t.Errorf("shared GPU request %v, want 460m", g.String())
	}
	if g := d.Applications[1].Requests[0].Shape["gpu"]; g.Value() != 2 {
		t.Errorf("two-GPU request %v", g.String())
	}
	// The result is a valid capplan cluster and demand.
	if err := CheckDemand(c, d); err != nil {
		t.Error(err)
	}
}

func TestParseOpenBErrors(t *testing.T) {
	nodes := "sn,cpu_milli,memory_mib,gpu,model\nn0,x,262144,0,\nn1,0,0,0,\n"
	pods := "name,cpu\n"
	_, _, _, err := ParseOpenB("nodes.csv", strings.NewReader(nodes), "pods.csv", strings.NewReader(pods))
	var ve *inputerr.Error
	if !errors.As(err, &ve) || len(ve.Problems) != 3 {
		t.Fatalf("err = %v", err)
	}
	want := []string{"nodes.csv: line 2: cpu_milli", "nodes.csv: line 3: node n1 has no cpu", "pods.csv: line 1: header"}
	for i, w := range want {
		if !strings.HasPrefix(ve.Problems[i].String(), w) {
			t.Errorf("problem %d = %q, want prefix %q", i, ve.Problems[i], w)
		}
	}
}

// TestParseOpenBDataset reads the real trace (1523 nodes, 8152 pods) from
// the shared datasets: skipped without them, failing under CI=true.
func TestParseOpenBDataset(t *testing.T) {
	dir := testdatasets.Need(t, "alibaba-gpu-v2023-openb")
	nf, err := os.Open(filepath.Join(dir, "openb_node_list_all_node.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer nf.Close()
	pf, err := os.Open(filepath.Join(dir, "openb_pod_list_gpuspec33.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	c, d, dropped, err := ParseOpenB(nf.Name(), nf, pf.Name(), pf)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d applications, %d pods dropped (fit no eligible node)", len(d.Applications), dropped)
	if n := c.NumNodes(); n != 1523 {
		t.Errorf("%d nodes, want 1523", n)
	}
	var pods int64
	for _, a := range d.Applications {
		for _, r := range a.Requests {
			pods += r.Count
		}
	}
	if pods+dropped != 8152 {
		t.Errorf("%d pods kept + %d dropped, want 8152", pods, dropped)
	}
	if err := CheckDemand(c, d); err != nil {
		t.Error(err)
	}
}

// FuzzParseOpenB: any bytes give a result or an *inputerr.Error, never a
// panic; a result always passes CheckDemand.
func FuzzParseOpenB(f *testing.F) {
	f.Add("sn,cpu_milli,memory_mib,gpu,model\nn0,32000,262144,2,T4\n",
		"name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\np0,1000,1024,1,500,T4,LS,Running,0,10,0\n")
	f.Add("sn,cpu_milli,memory_mib,gpu,model\n", "name\n")
	f.Fuzz(func(t *testing.T, nodes, pods string) {
		c, d, _, err := ParseOpenB("nodes.csv", strings.NewReader(nodes), "pods.csv", strings.NewReader(pods))
		if err != nil {
			var ve *inputerr.Error
			if !errors.As(err, &ve) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if len(d.Applications) > 0 {
			if err := CheckDemand(c, d); err != nil {
				t.Fatalf("result fails CheckDemand: %v", err)
			}
		}
	})
}
