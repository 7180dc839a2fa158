package export

import (
	"encoding/xml"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta1"

	"github.com/capplan/capplan/pipeline/pipelinetest"
)

// TestOpenBExports runs every export on the openb GPU cluster (1523 nodes
// in 27 machine types, 43 applications with upper-case names and GPU-model
// constraints): percentages still sum to 100 per parent and per label,
// every object decodes strictly, and the quotas add up to the plan.
func TestOpenBExports(t *testing.T) {
	fs, d := pipelinetest.OpenB(t)
	in := Input{FairShare: fs, Demand: d}
	y, err := YARN(in)
	if err != nil {
		t.Fatal(err)
	}
	checkCapacities(t, capacityConfig(t, fileData(t, y, YARNCapacitySchedulerPath)))
	var alloc docAllocations
	if err := xml.Unmarshal(fileData(t, y, YARNFairSchedulerPath), &alloc); err != nil || len(alloc.Queues[0].Queues) != len(fs.Shares) {
		t.Fatalf("fair-scheduler.xml: %v", err)
	}
	k, err := Kubernetes(in)
	if err != nil {
		t.Fatal(err)
	}
	quotas := decodeStrict[corev1.ResourceQuota](t, "openb quotas", fileData(t, k, K8sResourceQuotasPath))
	resources, totals := exactTotals(t, in)
	for j, r := range resources {
		var got, want resource.Quantity
		for _, q := range quotas {
			got.Add(q.Spec.Hard["requests."+KubernetesResource(r)])
		}
		for tt := range totals {
			want.Add(totals[tt][j])
		}
		if got.Cmp(want) != 0 {
			t.Errorf("%s: quotas add up to %s, the plan allocates %s", r, got.String(), want.String())
		}
	}
	q, err := Kueue(in)
	if err != nil {
		t.Fatal(err)
	}
	cqs := decodeStrict[kueue.ClusterQueue](t, "openb cluster queues", fileData(t, q, KueueClusterQueuesPath))
	if len(cqs) != len(fs.Shares) {
		t.Errorf("%d cluster queues for %d applications", len(cqs), len(fs.Shares))
	}
	if len(y.Warnings)+len(k.Warnings)+len(q.Warnings) != 0 {
		t.Errorf("warnings on a per-node plan: %v %v %v", y.Warnings, k.Warnings, q.Warnings)
	}
}

// BenchmarkExportsOpenB times the three exports of the openb plan (1523
// nodes named per node, 27 machine types, 43 applications).
func BenchmarkExportsOpenB(b *testing.B) {
	fs, d := pipelinetest.OpenB(b)
	in := Input{FairShare: fs, Demand: d}
	for b.Loop() {
		for _, f := range []func(Input) (*Export, error){YARN, Kubernetes, Kueue} {
			if _, err := f(in); err != nil {
				b.Fatal(err)
			}
		}
	}
}
