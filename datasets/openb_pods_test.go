package datasets

import (
	"errors"
	"strings"
	"testing"

	"github.com/capplan/capplan/internal/inputerr"
)

const openbPodsHead = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"

// TestParseOpenBPods reads pods one by one: a fractional GPU pod, a
// pending one (scheduled −1), and rejects malformed rows with their lines.
func TestParseOpenBPods(t *testing.T) {
	pods, err := ParseOpenBPods("pods.csv", strings.NewReader(openbPodsHead+
		"p0,6000,12288,1,460,T4|P100,LS,Running,5,100,7\n"+
		"p1,1000,1024,2,1000,,BE,Pending,9,50,\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []OpenBPod{
		{Name: "p0", CPUMilli: 6000, MemoryMiB: 12288, NumGPU: 1, GPUMilli: 460, GPUSpec: "T4|P100", QoS: "LS", Phase: "Running", Creation: 5, Deletion: 100, Scheduled: 7},
		{Name: "p1", CPUMilli: 1000, MemoryMiB: 1024, NumGPU: 2, GPUMilli: 1000, QoS: "BE", Phase: "Pending", Creation: 9, Deletion: 50, Scheduled: -1},
	}
	if len(pods) != 2 || pods[0] != want[0] || pods[1] != want[1] {
		t.Errorf("pods %+v, want %+v", pods, want)
	}
	for _, tc := range []struct{ rows, msg string }{
		{"p0,0,0,0,0,,LS,Running,0,1,0\n", "line 2: pod p0 requests nothing"},
		{"p0,1,1,0,0,,LS,Running,5,1,5\n", "line 2: pod p0 is deleted (1) before it is created (5)"},
		{"p0,1,1,0,0,,LS,Running,5,9,20\n", "line 2: pod p0 is scheduled at 20, outside its life 5–9"},
		{"p0,x,1,0,0,,LS,Running,5,9,5\n", "line 2: cpu_milli: want a non-negative integer"},
	} {
		_, err := ParseOpenBPods("pods.csv", strings.NewReader(openbPodsHead+tc.rows))
		var ve *inputerr.Error
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), "pods.csv") {
			t.Errorf("rows %q: error %v, want one saying %q", tc.rows, err, tc.msg)
		}
	}
}

// FuzzParseOpenBPods: any bytes give pods or an *inputerr.Error, never a
// panic; every pod kept asks for something and lives in order.
func FuzzParseOpenBPods(f *testing.F) {
	f.Add(openbPodsHead + "p0,1000,1024,1,500,T4,LS,Running,0,10,0\n")
	f.Add(openbPodsHead + "p1,1000,1024,1,1000,,BE,Pending,3,9,\n")
	f.Fuzz(func(t *testing.T, data string) {
		pods, err := ParseOpenBPods("pods.csv", strings.NewReader(data))
		if err != nil {
			var ve *inputerr.Error
			if !errors.As(err, &ve) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		for _, p := range pods {
			if p.CPUMilli == 0 && p.MemoryMiB == 0 && p.NumGPU == 0 || p.Deletion < p.Creation ||
				p.Scheduled >= 0 && (p.Scheduled < p.Creation || p.Scheduled > p.Deletion) {
				t.Fatalf("kept a bad pod %+v", p)
			}
		}
	})
}
