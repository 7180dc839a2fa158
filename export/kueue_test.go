package export

import (
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta1"
)

func TestKueueStrict(t *testing.T) {
	in := exampleInput(t, true)
	e, err := Kueue(in)
	if err != nil {
		t.Fatal(err)
	}
	flavors := decodeStrict[kueue.ResourceFlavor](t, KueueResourceFlavorsPath, fileData(t, e, KueueResourceFlavorsPath))
	cqs := decodeStrict[kueue.ClusterQueue](t, KueueClusterQueuesPath, fileData(t, e, KueueClusterQueuesPath))
	lqs := decodeStrict[kueue.LocalQueue](t, KueueLocalQueuesPath, fileData(t, e, KueueLocalQueuesPath))
	nss := decodeStrict[corev1.Namespace](t, KueueNamespacesPath, fileData(t, e, KueueNamespacesPath))
	fs := in.FairShare
	if len(flavors) != len(fs.MachineTypes) || len(cqs) != len(fs.Shares) || len(lqs) != len(fs.Shares) || len(nss) != len(fs.Shares) {
		t.Fatalf("%d flavors, %d cluster queues, %d local queues, %d namespaces", len(flavors), len(cqs), len(lqs), len(nss))
	}
	flavorIndex := map[kueue.ResourceFlavorReference]int{}
	for i, f := range flavors {
		if f.Kind != "ResourceFlavor" || f.APIVersion != kueue.GroupVersion.String() {
			t.Errorf("flavor %s: %s %s", f.Name, f.APIVersion, f.Kind)
		}
		if f.Spec.NodeLabels[LabelMachineType] != f.Name {
			t.Errorf("flavor %s selects %v", f.Name, f.Spec.NodeLabels)
		}
		flavorIndex[kueue.ResourceFlavorReference(f.Name)] = i
	}
	resources, totals := exactTotals(t, in)
	// sum[t][r] adds up the nominal quotas of flavor t, resource r.
	sum := make([][]resource.Quantity, len(flavors))
	for i := range sum {
		sum[i] = make([]resource.Quantity, len(resources))
	}
	quotas, err := KubernetesObjects(in)
	if err != nil {
		t.Fatal(err)
	}
	for u, cq := range cqs {
		s := fs.Shares[u]
		if cq.Name != s.Application || string(cq.Spec.Cohort) != Cohort {
			t.Errorf("cluster queue %s in cohort %q", cq.Name, cq.Spec.Cohort)
		}
		if cq.Spec.NamespaceSelector.MatchLabels[corev1.LabelMetadataName] != lqs[u].Namespace || string(lqs[u].Spec.ClusterQueue) != cq.Name {
			t.Errorf("local queue %s/%s does not feed cluster queue %s", lqs[u].Namespace, lqs[u].Name, cq.Name)
		}
		perApp := make([]resource.Quantity, len(resources))
		for _, g := range cq.Spec.ResourceGroups {
			for _, fq := range g.Flavors {
				ft, ok := flavorIndex[fq.Name]
				if !ok {
					t.Fatalf("%s names flavor %s, which is not defined", cq.Name, fq.Name)
				}
				// Kueue: every flavor lists the covered resources, in order.
				var names []corev1.ResourceName
				for _, rq := range fq.Resources {
					names = append(names, rq.Name)
				}
				if !slices.Equal(names, g.CoveredResources) {
					t.Errorf("%s flavor %s lists %v, covered %v", cq.Name, fq.Name, names, g.CoveredResources)
				}
				for j, rq := range fq.Resources {
					sum[ft][j].Add(rq.NominalQuota)
					perApp[j].Add(rq.NominalQuota)
					if rq.LendingLimit != nil && rq.LendingLimit.Cmp(rq.NominalQuota) > 0 {
						t.Errorf("%s/%s/%s: lendingLimit over nominalQuota", cq.Name, fq.Name, rq.Name)
					}
				}
			}
		}
		// The ClusterQueue and the ResourceQuota agree exactly.
		for j, r := range resources {
			q := quotas.ResourceQuotas[u].Spec.Hard["requests."+KubernetesResource(r)]
			if perApp[j].Cmp(q) != 0 {
				t.Errorf("%s %s: nominal quotas add up to %s, ResourceQuota %s", cq.Name, r, perApp[j].String(), q.String())
			}
		}
	}
	for ft := range flavors {
		for j, r := range resources {
			if sum[ft][j].Cmp(totals[ft][j]) != 0 {
				t.Errorf("flavor %s %s: nominal quotas add up to %s, the plan allocates %s", flavors[ft].Name, r, sum[ft][j].String(), totals[ft][j].String())
			}
		}
	}
}

// TestKueueLimits checks the limits the demand sets: ml-train runs alone
// (both limits 0 everywhere), ci is capped at 40 machines and may use only
// the 48 spot machines of 16 cores: nominal + borrowingLimit = 40 × 16 =
// 640 cores there.
func TestKueueLimits(t *testing.T) {
	set, err := KueueObjects(exampleInput(t, false))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]kueue.ClusterQueue{}
	for _, cq := range set.ClusterQueues {
		byName[cq.Name] = cq
	}
	for _, fq := range byName["ml-train"].Spec.ResourceGroups[0].Flavors {
		for _, rq := range fq.Resources {
			if rq.BorrowingLimit == nil || !rq.BorrowingLimit.IsZero() || rq.LendingLimit == nil || !rq.LendingLimit.IsZero() {
				t.Errorf("ml-train %s/%s: borrowing %v, lending %v, want 0 and 0", fq.Name, rq.Name, rq.BorrowingLimit, rq.LendingLimit)
			}
		}
	}
	ci := byName["ci"].Spec.ResourceGroups[0].Flavors
	if len(ci) != 1 || ci[0].Name != "spot" {
		t.Fatalf("ci's flavors: %+v", ci)
	}
	cpu := ci[0].Resources[0]
	total := cpu.NominalQuota.DeepCopy()
	total.Add(*cpu.BorrowingLimit)
	if total.Cmp(resource.MustParse("640")) != 0 {
		t.Errorf("ci cpu: nominal %s + borrowing %s = %s, want 640", cpu.NominalQuota.String(), cpu.BorrowingLimit.String(), total.String())
	}
	if b := byName["web"].Spec.ResourceGroups[0].Flavors[0].Resources[0]; b.BorrowingLimit != nil || b.LendingLimit != nil {
		t.Errorf("web (no cap, no sharing policy) has limits %v, %v", b.BorrowingLimit, b.LendingLimit)
	}
	if got := byName["batch-etl"].Annotations[AnnotationSharingBound]; got != "0.05" {
		t.Errorf("batch-etl sharing bound annotation %q", got)
	}
}
