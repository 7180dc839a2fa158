package export

import (
	"fmt"
	"strconv"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Paths of the Kubernetes Job export, relative to the export directory.
const (
	K8sJobPath      = "k8s-job/job.yaml"
	K8sMergeJobPath = "k8s-job/merge-job.yaml"
	K8sJobRunPath   = "k8s-job/run.sh"
)

// LabelRun marks the Jobs and pods of one sharded run.
const LabelRun = "capplan.io/run"

// AnnotationResources records where a shard's resource requests come
// from.
const AnnotationResources = "capplan.io/resources"

// envShards is the variable the shards read their count from
// (pipeline.EnvShards; export imports no pipeline).
const envShards = "CAPPLAN_SHARDS"

// dataVolume is the name of the volume the PersistentVolumeClaim mounts.
const dataVolume = "data"

// K8sJobOptions are the Kubernetes settings of a sharded run.
type K8sJobOptions struct {
	Run ShardedRun
	// Image is the container image holding capplan.
	Image string
	// Namespace of the Jobs ("": the kubectl context's).
	Namespace string
	// PVC names the PersistentVolumeClaim holding the inputs and receiving
	// the outputs, mounted at MountPath, the containers' working
	// directory.
	PVC       string
	MountPath string
	// BackoffLimitPerIndex is how often one failed shard is retried
	// before its index counts as failed (the others are not affected).
	BackoffLimitPerIndex int32
}

// K8sJobs builds the two Jobs of a sharded run:
//
//   - the shards: a batch/v1 Job with completionMode Indexed and
//     completions = parallelism = N; Kubernetes sets JOB_COMPLETION_INDEX
//     0 … N−1 in its pods and the Job sets CAPPLAN_SHARDS = N, so that
//     `capplan … --shard-from-env` runs shard JOB_COMPLETION_INDEX/N;
//     backoffLimitPerIndex retries a failed shard alone (restartPolicy
//     Never, as the API requires with it); each pod requests the shard's
//     CPU and memory (limit memory = request: a shard is never killed for
//     memory the estimate allowed);
//   - the merge: a Job of one pod running `capplan merge …`, to apply once
//     the shards' Job is complete (run.sh waits for it).
//
// Both mount the PersistentVolumeClaim at MountPath and work there, so
// that the paths of the command line are relative to the volume.
func K8sJobs(o K8sJobOptions) (shards, merge *batchv1.Job, err error) {
	args, err := o.Run.validate()
	if err != nil {
		return nil, nil, err
	}
	switch {
	case o.Image == "":
		return nil, nil, fmt.Errorf("export: k8s-job needs the container image holding capplan (--image)")
	case len(validation.IsDNS1123Subdomain(o.PVC)) > 0:
		return nil, nil, fmt.Errorf("export: PersistentVolumeClaim name %q: want a lowercase RFC 1123 subdomain (--pvc)", o.PVC)
	case !strings.HasPrefix(o.MountPath, "/"):
		return nil, nil, fmt.Errorf("export: mount path %q: want an absolute path", o.MountPath)
	case o.Namespace != "" && len(validation.IsDNS1123Label(o.Namespace)) > 0:
		return nil, nil, fmt.Errorf("export: namespace %q: want an RFC 1123 label", o.Namespace)
	case len(o.Run.Name)+1+len(strconv.Itoa(o.Run.Shards-1)) > validation.DNS1123LabelMaxLength:
		return nil, nil, fmt.Errorf("export: job name %q is too long for %d shards: a pod's hostname, NAME-INDEX, must stay within %d characters",
			o.Run.Name, o.Run.Shards, validation.DNS1123LabelMaxLength)
	case o.BackoffLimitPerIndex < 0:
		return nil, nil, fmt.Errorf("export: backoff limit per index %d: want 0 or more", o.BackoffLimitPerIndex)
	}
	r := o.Run
	n := int32(r.Shards)
	res := r.Resources
	cpu := resource.NewMilliQuantity(res.MilliCPU, resource.DecimalSI)
	mem := resource.NewQuantity(mebibytes(res.MemoryBytes)<<20, resource.BinarySI)
	labels := map[string]string{"app.kubernetes.io/name": "capplan", LabelRun: r.Name}
	pod := func(args []string, env []corev1.EnvVar, requests corev1.ResourceList, limits corev1.ResourceList) corev1.PodTemplateSpec {
		return corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: labels},
			Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever,
				Containers: []corev1.Container{{
					Name:         "capplan",
					Image:        o.Image,
					Command:      []string{r.Capplan},
					Args:         args,
					WorkingDir:   o.MountPath,
					Env:          env,
					Resources:    corev1.ResourceRequirements{Requests: requests, Limits: limits},
					VolumeMounts: []corev1.VolumeMount{{Name: dataVolume, MountPath: o.MountPath}},
				}},
				Volumes: []corev1.Volume{{Name: dataVolume, VolumeSource: corev1.VolumeSource{
					PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: o.PVC}}}},
			},
		}
	}
	meta := func(name string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Name: name, Namespace: o.Namespace, Labels: labels,
			Annotations: map[string]string{AnnotationResources: res.Basis}}
	}
	indexed := batchv1.IndexedCompletion
	backoff := o.BackoffLimitPerIndex
	shards = &batchv1.Job{
		TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: meta(r.Name),
		Spec: batchv1.JobSpec{
			CompletionMode:       &indexed,
			Completions:          &n,
			Parallelism:          &n,
			BackoffLimitPerIndex: &backoff,
			Template: pod(args, []corev1.EnvVar{{Name: envShards, Value: strconv.Itoa(r.Shards)}},
				corev1.ResourceList{corev1.ResourceCPU: *cpu, corev1.ResourceMemory: *mem},
				corev1.ResourceList{corev1.ResourceMemory: *mem}),
		},
	}
	one, mergeBackoff := int32(1), int32(2)
	mergeMem := resource.NewQuantity(mebibytes(res.MemoryBytes)<<20, resource.BinarySI)
	merge = &batchv1.Job{
		TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: meta(mergeJobName(r.Name)),
		Spec: batchv1.JobSpec{
			Completions:  &one,
			Parallelism:  &one,
			BackoffLimit: &mergeBackoff,
			Template: pod(r.Merge, nil,
				corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: *mergeMem},
				corev1.ResourceList{corev1.ResourceMemory: *mergeMem}),
		},
	}
	return shards, merge, nil
}

// mergeJobName is the merge Job's name: NAME-merge, shortened to stay a
// 63-character label.
func mergeJobName(name string) string {
	const suffix = "-merge"
	if len(name)+len(suffix) > validation.DNS1123LabelMaxLength {
		name = strings.TrimRight(name[:validation.DNS1123LabelMaxLength-len(suffix)], "-")
	}
	return name + suffix
}

// K8sJob exports a sharded run for Kubernetes: k8s-job/job.yaml (the
// Indexed Job of the shards), k8s-job/merge-job.yaml (the merge) and
// k8s-job/run.sh, which applies the first, waits for it to complete,
// applies the second and waits for it.
func K8sJob(o K8sJobOptions) (*Export, error) {
	shards, merge, err := K8sJobs(o)
	if err != nil {
		return nil, err
	}
	head := o.Run.provenanceLines("Kubernetes Indexed Job")
	job, err := marshalObjects(append(head, "Apply with kubectl apply -f job.yaml; when it is complete, kubectl apply -f merge-job.yaml (run.sh does both)."), []any{shards})
	if err != nil {
		return nil, err
	}
	mj, err := marshalObjects(append(head, "Apply once the Job "+shards.Name+" is complete: it merges the shards' parts."), []any{merge})
	if err != nil {
		return nil, err
	}
	ns := ""
	if o.Namespace != "" {
		ns = " -n " + o.Namespace // an RFC 1123 label: no quoting needed
	}
	var sh strings.Builder
	sh.WriteString("#!/bin/sh\n")
	sh.WriteString(commentLines("# ", append(head, "Runs the shards, waits for them, then runs the merge and waits for it.")))
	sh.WriteString("set -eu\ncd \"$(dirname \"$0\")\"\n")
	fmt.Fprintf(&sh, "kubectl%s apply -f job.yaml\n", ns)
	fmt.Fprintf(&sh, "kubectl%s wait --for=condition=complete --timeout=\"${CAPPLAN_TIMEOUT:-24h}\" job/%s\n", ns, shards.Name)
	fmt.Fprintf(&sh, "kubectl%s apply -f merge-job.yaml\n", ns)
	fmt.Fprintf(&sh, "kubectl%s wait --for=condition=complete --timeout=\"${CAPPLAN_TIMEOUT:-24h}\" job/%s\n", ns, merge.Name)
	return &Export{Files: []File{
		{Path: K8sJobPath, Data: job},
		{Path: K8sMergeJobPath, Data: mj},
		{Path: K8sJobRunPath, Data: []byte(sh.String()), Executable: true},
	}}, nil
}
