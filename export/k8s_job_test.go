package export

import (
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"
)

func testRun() ShardedRun {
	return ShardedRun{Name: "capplan-sweep", Command: []string{"sweep", "sweep.yaml", "-o", "out", "--workers", "2"},
		Merge: []string{"merge", "out", "-o", "out"}, Shards: 8, Capplan: "capplan",
		Resources: ShardResources{MilliCPU: 1800, MemoryBytes: 300<<20 + 1, Basis: "given"}}
}

// decodeJob decodes one Job strictly: a field the batch/v1 types do not
// have is an error.
func decodeJob(t *testing.T, data []byte) *batchv1.Job {
	t.Helper()
	var j batchv1.Job
	if err := yaml.UnmarshalStrict(data, &j); err != nil {
		t.Fatalf("strict decode: %v\n%s", err, data)
	}
	return &j
}

func TestK8sJob(t *testing.T) {
	e, err := K8sJob(K8sJobOptions{Run: testRun(), Image: "registry.example/capplan:v1", PVC: "capplan-data", MountPath: "/data",
		Namespace: "planning", BackoffLimitPerIndex: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Files) != 3 || e.Files[0].Path != K8sJobPath || e.Files[1].Path != K8sMergeJobPath || e.Files[2].Path != K8sJobRunPath {
		t.Fatalf("files %v", e.Files)
	}
	j := decodeJob(t, e.Files[0].Data)
	s := j.Spec
	switch {
	case j.APIVersion != "batch/v1" || j.Kind != "Job" || j.Name != "capplan-sweep" || j.Namespace != "planning":
		t.Errorf("object %s/%s %s/%s", j.APIVersion, j.Kind, j.Namespace, j.Name)
	case s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion:
		t.Error("completion mode is not Indexed")
	case s.Completions == nil || *s.Completions != 8 || s.Parallelism == nil || *s.Parallelism != 8:
		t.Error("completions and parallelism are not 8")
	case s.BackoffLimitPerIndex == nil || *s.BackoffLimitPerIndex != 3:
		t.Error("no backoff limit per index")
	case s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever:
		t.Error("restart policy is not Never (required with backoffLimitPerIndex)")
	}
	c := s.Template.Spec.Containers[0]
	wantArgs := []string{"sweep", "sweep.yaml", "-o", "out", "--workers", "2", "--shard-from-env"}
	if !slices.Equal(c.Command, []string{"capplan"}) || !slices.Equal(c.Args, wantArgs) || c.Image != "registry.example/capplan:v1" {
		t.Errorf("container %v %v %s", c.Command, c.Args, c.Image)
	}
	if c.WorkingDir != "/data" || len(c.VolumeMounts) != 1 || c.VolumeMounts[0].MountPath != "/data" {
		t.Errorf("working dir %s, mounts %v", c.WorkingDir, c.VolumeMounts)
	}
	if v := s.Template.Spec.Volumes; len(v) != 1 || v[0].PersistentVolumeClaim == nil || v[0].PersistentVolumeClaim.ClaimName != "capplan-data" || v[0].Name != c.VolumeMounts[0].Name {
		t.Errorf("volumes %v", v)
	}
	if len(c.Env) != 1 || c.Env[0].Name != "CAPPLAN_SHARDS" || c.Env[0].Value != "8" {
		t.Errorf("env %v", c.Env)
	}
	// 1800m of CPU; 300 MiB + 1 byte rounds up to 301 MiB.
	cpu, mem := c.Resources.Requests[corev1.ResourceCPU], c.Resources.Requests[corev1.ResourceMemory]
	if cpu.Cmp(resource.MustParse("1800m")) != 0 || mem.Cmp(resource.MustParse("301Mi")) != 0 {
		t.Errorf("requests cpu %s memory %s", cpu.String(), mem.String())
	}
	if lim := c.Resources.Limits[corev1.ResourceMemory]; lim.Cmp(mem) != 0 {
		t.Errorf("memory limit %s, want the request", lim.String())
	}
	m := decodeJob(t, e.Files[1].Data)
	if m.Name != "capplan-sweep-merge" || m.Spec.CompletionMode != nil || *m.Spec.Completions != 1 ||
		!slices.Equal(m.Spec.Template.Spec.Containers[0].Args, []string{"merge", "out", "-o", "out"}) {
		t.Errorf("merge job %s %v", m.Name, m.Spec.Template.Spec.Containers[0].Args)
	}
	run := string(e.Files[2].Data)
	for _, want := range []string{"kubectl -n planning apply -f job.yaml", "wait --for=condition=complete", "job/capplan-sweep\n", "apply -f merge-job.yaml", "job/capplan-sweep-merge"} {
		if !strings.Contains(run, want) {
			t.Errorf("run.sh lacks %q:\n%s", want, run)
		}
	}
	if err := exec.Command("sh", "-n", "-c", run).Run(); err != nil {
		t.Errorf("run.sh: %v", err)
	}
	// The same options give the same bytes.
	again, _ := K8sJob(K8sJobOptions{Run: testRun(), Image: "registry.example/capplan:v1", PVC: "capplan-data", MountPath: "/data",
		Namespace: "planning", BackoffLimitPerIndex: 3})
	for i := range e.Files {
		if !bytes.Equal(e.Files[i].Data, again.Files[i].Data) {
			t.Errorf("%s differs between two exports", e.Files[i].Path)
		}
	}
}

func TestK8sJobErrors(t *testing.T) {
	ok := K8sJobOptions{Run: testRun(), Image: "img", PVC: "data", MountPath: "/data"}
	cases := []struct {
		name   string
		change func(o *K8sJobOptions)
		want   string
	}{
		{"no image", func(o *K8sJobOptions) { o.Image = "" }, "--image"},
		{"bad claim", func(o *K8sJobOptions) { o.PVC = "Data_1" }, "PersistentVolumeClaim name"},
		{"relative mount", func(o *K8sJobOptions) { o.MountPath = "data" }, "absolute path"},
		{"bad name", func(o *K8sJobOptions) { o.Run.Name = "Capplan Sweep" }, "job name"},
		{"shard flag", func(o *K8sJobOptions) { o.Run.Command = append(o.Run.Command, "--shard", "0/2") }, "already has --shard"},
		{"no shards", func(o *K8sJobOptions) { o.Run.Shards = 0 }, "0 shards"},
		{"no memory", func(o *K8sJobOptions) { o.Run.Resources.MemoryBytes = 1 << 20 }, "memory must be at least"},
		{"program with a space", func(o *K8sJobOptions) { o.Run.Capplan = "/opt/my capplan" }, "capplan program"},
		{"hostname too long", func(o *K8sJobOptions) { o.Run.Name = strings.Repeat("a", 62) }, "too long for 8 shards"}, // 62 + len("-7") > 63
	}
	for _, tc := range cases {
		o := ok
		o.Run.Command = slices.Clone(ok.Run.Command)
		tc.change(&o)
		if _, err := K8sJob(o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
