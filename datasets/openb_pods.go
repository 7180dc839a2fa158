package datasets

import (
	"io"
	"strconv"
	"strings"

	"github.com/capplan/capplan/internal/inputerr"
)

// OpenBPod is one pod of the openb trace as the simulator replays it
// (SIMULATE.md §2.3 W-OPENB): its request, QoS class, GPU models and
// times in seconds.
type OpenBPod struct {
	Name                string
	CPUMilli, MemoryMiB int64
	// NumGPU whole GPUs when GPUMilli is 1000; one GPU's GPUMilli
	// thousandths when NumGPU is 1 and GPUMilli < 1000.
	NumGPU, GPUMilli int64
	// GPUSpec lists the GPU models the pod accepts, "A|B" ("" = any).
	GPUSpec, QoS, Phase string
	// Creation and Deletion are always given; Scheduled is −1 for a pod
	// that was never scheduled (Pending).
	Creation, Deletion, Scheduled int64
}

// ParseOpenBCluster reads an openb node list (openb_node_list_*.csv) into
// a Cluster, as ParseOpenB does.
func ParseOpenBCluster(name string, r io.Reader) (*Cluster, error) { return parseOpenBNodes(name, r) }

// ParseOpenBPods reads an openb pod list (openb_pod_list_*.csv) pod by
// pod, in file order. Every malformed row is reported with its line in one
// *inputerr.Error; a pod asking for nothing is an error, as in ParseOpenB.
func ParseOpenBPods(name string, r io.Reader) ([]OpenBPod, error) {
	ps := &inputerr.List{File: name}
	var pods []OpenBPod
	openbRows(ps, r, openbPodHeader, func(line int, rec []string) {
		n := ps.Len()
		p := OpenBPod{Name: strings.TrimSpace(rec[0]), CPUMilli: openbInt(ps, line, "cpu_milli", rec[1]),
			MemoryMiB: openbInt(ps, line, "memory_mib", rec[2]), NumGPU: openbInt(ps, line, "num_gpu", rec[3]),
			GPUMilli: openbInt(ps, line, "gpu_milli", rec[4]), GPUSpec: strings.TrimSpace(rec[5]), QoS: strings.TrimSpace(rec[6]),
			Phase: strings.TrimSpace(rec[7]), Creation: openbInt(ps, line, "creation_time", rec[8]),
			Deletion: openbInt(ps, line, "deletion_time", rec[9]), Scheduled: -1}
		if s := strings.TrimSpace(rec[10]); s != "" {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil || v < 0 {
				ps.Add(inputerr.AtLine(line), "scheduled_time: want a non-negative integer or nothing, got %q", rec[10])
			}
			p.Scheduled = v
		}
		if ps.Len() > n {
			return
		}
		switch {
		case p.CPUMilli == 0 && p.MemoryMiB == 0 && p.NumGPU == 0:
			ps.Add(inputerr.AtLine(line), "pod %s requests nothing", p.Name)
		case p.Deletion < p.Creation:
			ps.Add(inputerr.AtLine(line), "pod %s is deleted (%d) before it is created (%d)", p.Name, p.Deletion, p.Creation)
		case p.Scheduled >= 0 && (p.Scheduled < p.Creation || p.Scheduled > p.Deletion):
			ps.Add(inputerr.AtLine(line), "pod %s is scheduled at %d, outside its life %d–%d", p.Name, p.Scheduled, p.Creation, p.Deletion)
		default:
			if p.QoS == "" {
				p.QoS = "none"
			}
			pods = append(pods, p)
		}
	})
	if len(pods) == 0 && ps.Len() == 0 {
		ps.Add("", "no pods")
	}
	return pods, ps.Err()
}
