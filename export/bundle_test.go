package export

import (
	"bytes"
	"path"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta1"
	"sigs.k8s.io/yaml"

	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/plan"
)

// TestBundleExports plans the example (pipeline.Plan, no sizing) and
// renders its bundle: every object under export/k8s and export/kueue
// decodes strictly into its upstream type (chosen by its kind; toleration
// snippets into a PodSpec), and the quotas add up exactly to the plan's
// shares: per resource over the ResourceQuotas, and per machine type and
// resource over the ClusterQueues' nominal quotas (exactTotals, computed
// from the FairShare document apart from the exporter's rounding).
func TestBundleExports(t *testing.T) {
	res, err := pipeline.Plan(pipeline.PlanOptions{Inputs: pipeline.Inputs{Example: true}, K: 8, Seed: 1,
		Generator: "capplan test", CommandLine: []string{"capplan", "plan", "--example"}})
	if err != nil {
		t.Fatal(err)
	}
	e, err := BundleFiles(res.Bundle, res.Demand)
	if err != nil {
		t.Fatal(err)
	}
	b := res.Bundle
	in := Input{FairShare: b.FairShare, Packing: b.Ownership, Demand: res.Demand}
	resources, totals := exactTotals(t, in)
	quotaSum := make([]resource.Quantity, len(resources))
	nominal := map[string][]resource.Quantity{}
	counts := map[string]int{}
	for _, f := range e.Files {
		dir, _ := path.Split(f.Path)
		if (dir != "export/k8s/" && dir != "export/kueue/" && dir != "export/k8s/tolerations/") || !strings.HasSuffix(f.Path, ".yaml") {
			continue
		}
		for i, doc := range yamlDocuments(f.Data) {
			var meta struct{ Kind string }
			if err := yaml.Unmarshal(doc, &meta); err != nil {
				t.Fatalf("%s: document %d: %v", f.Path, i, err)
			}
			if dir == "export/k8s/tolerations/" {
				meta.Kind = "PodSpec"
			}
			counts[meta.Kind]++
			switch meta.Kind {
			case "Namespace":
				decodeStrict[corev1.Namespace](t, f.Path, doc)
			case "PriorityClass":
				decodeStrict[schedulingv1.PriorityClass](t, f.Path, doc)
			case "PodSpec":
				decodeStrict[corev1.PodSpec](t, f.Path, doc)
			case "ResourceQuota":
				q := decodeStrict[corev1.ResourceQuota](t, f.Path, doc)[0]
				for j, r := range resources {
					quotaSum[j].Add(q.Spec.Hard[corev1.ResourceName("requests."+KubernetesResource(r))])
				}
			case "ResourceFlavor":
				decodeStrict[kueue.ResourceFlavor](t, f.Path, doc)
			case "LocalQueue":
				decodeStrict[kueue.LocalQueue](t, f.Path, doc)
			case "ClusterQueue":
				cq := decodeStrict[kueue.ClusterQueue](t, f.Path, doc)[0]
				for _, g := range cq.Spec.ResourceGroups {
					for _, fq := range g.Flavors {
						if nominal[string(fq.Name)] == nil {
							nominal[string(fq.Name)] = make([]resource.Quantity, len(resources))
						}
						for _, rq := range fq.Resources {
							for j, r := range resources {
								if rq.Name == KubernetesResource(r) {
									nominal[string(fq.Name)][j].Add(rq.NominalQuota)
								}
							}
						}
					}
				}
			default:
				t.Errorf("%s: document %d has kind %q, which this test does not know", f.Path, i, meta.Kind)
			}
		}
	}
	n := len(b.FairShare.Shares)
	if counts["Namespace"] != 2*n || counts["ResourceQuota"] != n || counts["ClusterQueue"] != n || counts["LocalQueue"] != n ||
		counts["ResourceFlavor"] != len(b.FairShare.MachineTypes) || counts["PodSpec"] == 0 {
		t.Errorf("objects by kind %v for %d applications", counts, n)
	}
	for j, r := range resources {
		var want resource.Quantity
		for ty := range totals {
			want.Add(totals[ty][j])
		}
		if quotaSum[j].Cmp(want) != 0 {
			t.Errorf("%s: the ResourceQuotas add up to %s, the plan's shares to %s", r, quotaSum[j].String(), want.String())
		}
	}
	for ty, mt := range b.FairShare.MachineTypes {
		got := nominal[mt.Name]
		for j, r := range resources {
			if got == nil || got[j].Cmp(totals[ty][j]) != 0 {
				t.Errorf("flavor %s %s: nominal quotas %v, the plan's shares %s", mt.Name, r, got, totals[ty][j].String())
			}
		}
	}
	// The bundle's exports are the exporters' own files.
	k8s, err := Kubernetes(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range k8s.Files {
		if !bytes.Equal(fileData(t, e, ExportDir+"/"+f.Path), f.Data) {
			t.Errorf("%s differs from capplan export k8s", f.Path)
		}
	}
	// plan.json comes last and lists every other file with its digest.
	last := e.Files[len(e.Files)-1]
	p, err := plan.DecodePlan(last.Path, last.Data)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Steps)+len(p.Files)+1 != len(e.Files) {
		t.Errorf("plan.json lists %d steps and %d files of %d", len(p.Steps), len(p.Files), len(e.Files))
	}
}
