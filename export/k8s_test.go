package export

import (
	"bytes"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capplan/capplan/plan"
	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/klog/v2"
	"sigs.k8s.io/yaml"
)

// decodeStrict decodes every document of a YAML stream into a new T,
// rejecting unknown fields (sigs.k8s.io/yaml.UnmarshalStrict: YAML to JSON,
// then a JSON decoder that disallows unknown fields).
func decodeStrict[T any](t *testing.T, name string, data []byte) []T {
	t.Helper()
	var out []T
	for i, doc := range yamlDocuments(data) {
		var v T
		if err := yaml.UnmarshalStrict(doc, &v); err != nil {
			t.Fatalf("%s: document %d does not decode strictly into %T: %v", name, i, v, err)
		}
		out = append(out, v)
	}
	return out
}

// exactTotals is, per machine type t and plan resource r, the plan's
// allocation Σ_u byType[u][t] × capacity[t][r] rounded down to the
// Kubernetes granularity: what the quotas of all applications must add up
// to, exactly. It is computed here from the document, apart from the
// exporter's rounding.
func exactTotals(t *testing.T, in Input) (resources []string, totals [][]resource.Quantity) {
	t.Helper()
	fs := in.FairShare
	for _, r := range fs.Resources {
		for _, mt := range fs.MachineTypes {
			if mt.Capacity[r] > 0 {
				resources = append(resources, r)
				break
			}
		}
	}
	// An application with a forecast gets at most what it asked for in
	// each resource: its amounts are scaled by min(1, min(share, forecast)
	// / share), the share recomputed here from machines × capacity.
	scale := make([]map[string]*big.Rat, len(fs.Shares))
	for a, s := range fs.Shares {
		scale[a] = map[string]*big.Rat{}
		for _, r := range resources {
			share := new(big.Rat)
			for _, mt := range fs.MachineTypes {
				share.Add(share, new(big.Rat).Mul(plan.RatFromFloat(s.ByType[mt.Name]), plan.RatFromFloat(mt.Capacity[r])))
			}
			scale[a][r] = big.NewRat(1, 1)
			if in.Amounts == nil && s.Forecast != nil && share.Sign() > 0 {
				want := plan.RatFromFloat(min(s.Amounts[r], s.Forecast[r]))
				if want.Cmp(share) < 0 {
					scale[a][r] = new(big.Rat).Quo(want, share)
				}
			}
		}
	}
	for _, mt := range fs.MachineTypes {
		row := make([]resource.Quantity, len(resources))
		for j, r := range resources {
			sum := new(big.Rat)
			for a, s := range fs.Shares {
				x := new(big.Rat).Mul(plan.RatFromFloat(s.ByType[mt.Name]), plan.RatFromFloat(mt.Capacity[r]))
				sum.Add(sum, x.Mul(x, scale[a][r]))
			}
			row[j] = kubernetesQuantity(r, floorDiv(sum, kubernetesGranularity(r)))
			// Never more than the type holds.
			capacity := new(big.Rat).Mul(big.NewRat(mt.Count, 1), plan.RatFromFloat(mt.Capacity[r]))
			if sum.Cmp(capacity) > 0 {
				t.Fatalf("machine type %s: the plan allocates more %s than it has", mt.Name, r)
			}
		}
		totals = append(totals, row)
	}
	return resources, totals
}

// TestRatRecoveryExact confirms that the document's per-type floats come
// back as exact rationals: they add up to each share's exact machines.
func TestRatRecoveryExact(t *testing.T) {
	for _, in := range []Input{exampleInput(t, false), exampleInput(t, true)} {
		for _, s := range in.FairShare.Shares {
			sum := new(big.Rat)
			for _, v := range s.ByType {
				sum.Add(sum, plan.RatFromFloat(v))
			}
			want, ok := new(big.Rat).SetString(s.MachinesExact)
			if !ok || sum.Cmp(want) != 0 {
				t.Errorf("%s: per-type machines add up to %s, machinesExact is %s", s.Application, sum.RatString(), s.MachinesExact)
			}
		}
	}
}

func TestKubernetesStrict(t *testing.T) {
	in := exampleInput(t, true)
	e, err := Kubernetes(in)
	if err != nil {
		t.Fatal(err)
	}
	nss := decodeStrict[corev1.Namespace](t, K8sNamespacesPath, fileData(t, e, K8sNamespacesPath))
	quotas := decodeStrict[corev1.ResourceQuota](t, K8sResourceQuotasPath, fileData(t, e, K8sResourceQuotasPath))
	pcs := decodeStrict[schedulingv1.PriorityClass](t, K8sPriorityClassesPath, fileData(t, e, K8sPriorityClassesPath))
	shares := in.FairShare.Shares
	if len(nss) != len(shares) || len(quotas) != len(shares) || len(pcs) != len(shares) {
		t.Fatalf("%d namespaces, %d quotas, %d priority classes for %d applications", len(nss), len(quotas), len(pcs), len(shares))
	}
	for u, s := range shares {
		if nss[u].Kind != "Namespace" || nss[u].Name != s.Application || quotas[u].Namespace != s.Application || quotas[u].Kind != "ResourceQuota" {
			t.Errorf("application %s: namespace %s/%s, quota in %s", s.Application, nss[u].Kind, nss[u].Name, quotas[u].Namespace)
		}
	}
	// Priorities follow the weights: a higher weight never gets a lower
	// value, equal weights equal values.
	for i := range shares {
		for j := range shares {
			wi, wj := shares[i].Weight, shares[j].Weight
			vi, vj := pcs[i].Value, pcs[j].Value
			if (wi < wj) != (vi < vj) || (wi == wj) != (vi == vj) {
				t.Errorf("weights %v, %v have priorities %d, %d", wi, wj, vi, vj)
			}
		}
		if pcs[i].PreemptionPolicy == nil || *pcs[i].PreemptionPolicy != corev1.PreemptNever {
			t.Errorf("priority class %s may preempt", pcs[i].Name)
		}
	}
	// Quotas add up exactly to the plan, resource by resource (Quantity
	// arithmetic), and limits equal requests where Kubernetes has them.
	resources, totals := exactTotals(t, in)
	for j, r := range resources {
		name := KubernetesResource(r)
		want := resource.Quantity{}
		for tt := range totals {
			want.Add(totals[tt][j])
		}
		got := resource.Quantity{}
		for _, q := range quotas {
			req, ok := q.Spec.Hard["requests."+name]
			if !ok {
				t.Fatalf("quota %s has no requests.%s", q.Namespace, name)
			}
			got.Add(req)
			lim, hasLimit := q.Spec.Hard["limits."+name]
			if isStandardKubernetes(name) && (!hasLimit || lim.Cmp(req) != 0) {
				t.Errorf("quota %s: limits.%s = %s, requests %s", q.Namespace, name, lim.String(), req.String())
			}
			if !isStandardKubernetes(name) && hasLimit {
				t.Errorf("quota %s sets limits.%s, which Kubernetes refuses for extended resources", q.Namespace, name)
			}
		}
		if got.Cmp(want) != 0 {
			t.Errorf("%s: quotas add up to %s, the plan allocates %s", name, got.String(), want.String())
		}
	}
}

// TestKubernetesQuotaHand checks the hand-made plan's quotas exactly:
// etl 32 cores, 128Gi, no GPU; svc 32 cores, 192Gi, 2 GPUs; train 48
// cores, 384Gi, 6 GPUs (see twoTypes).
func TestKubernetesQuotaHand(t *testing.T) {
	objs, err := KubernetesObjects(Input{FairShare: twoTypes()})
	if err != nil {
		t.Fatal(err)
	}
	want := []map[corev1.ResourceName]string{
		{"requests.cpu": "32", "limits.cpu": "32", "requests.memory": "128Gi", "limits.memory": "128Gi", "requests.nvidia.com/gpu": "0"},
		{"requests.cpu": "32", "limits.cpu": "32", "requests.memory": "192Gi", "limits.memory": "192Gi", "requests.nvidia.com/gpu": "2"},
		{"requests.cpu": "48", "limits.cpu": "48", "requests.memory": "384Gi", "limits.memory": "384Gi", "requests.nvidia.com/gpu": "6"},
	}
	for u, q := range objs.ResourceQuotas {
		if len(q.Spec.Hard) != len(want[u]) {
			t.Errorf("%s: %d quota entries, want %d", q.Namespace, len(q.Spec.Hard), len(want[u]))
		}
		for k, v := range want[u] {
			got := q.Spec.Hard[k]
			if got.Cmp(resource.MustParse(v)) != 0 {
				t.Errorf("%s: %s = %s, want %s", q.Namespace, k, got.String(), v)
			}
		}
	}
	// Weights 2, 1, 1.5 rank 3, 1, 2.
	for u, v := range []int32{3000, 1000, 2000} {
		if got := objs.PriorityClasses[u].Value; got != v {
			t.Errorf("%s: priority %d, want %d", objs.PriorityClasses[u].Name, got, v)
		}
	}
}

// TestKubernetesOwners checks ownership on the per-node example: every
// node the plan gives wholly to one application gets its owner label, the
// nodes of applications without a sharing bound get the matching taint,
// and each such application has a toleration snippet that decodes
// strictly into a PodSpec and tolerates exactly that taint.
func TestKubernetesOwners(t *testing.T) {
	in := exampleInput(t, true)
	e, err := Kubernetes(in)
	if err != nil {
		t.Fatal(err)
	}
	script := fileData(t, e, K8sNodeLabelsPath)
	path := filepath.Join(t.TempDir(), "node-labels.sh")
	if err := os.WriteFile(path, script, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("sh", "-n", path).CombinedOutput(); err != nil {
		t.Fatalf("sh -n node-labels.sh: %v\n%s", err, out)
	}
	labelled := map[string]map[string]bool{} // label → nodes
	for _, line := range strings.Split(string(script), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 || f[0] != "kubectl" || f[3] != "--overwrite" {
			continue
		}
		arg := f[len(f)-1]
		for _, n := range f[4 : len(f)-1] {
			if labelled[f[1]+" "+arg] == nil {
				labelled[f[1]+" "+arg] = map[string]bool{}
			}
			labelled[f[1]+" "+arg][strings.Trim(n, "'")] = true
		}
	}
	sharing := map[string]bool{}
	for _, a := range in.Demand.Applications {
		sharing[a.Name] = a.Sharing.Bound != nil
	}
	owners := map[string]bool{}
	for _, n := range in.FairShare.Nodes {
		if !labelled["label "+LabelMachineType+"="+n.Type][n.Node] {
			t.Errorf("node %s is not labelled with its machine type %s", n.Node, n.Type)
		}
		if len(n.Users) != 1 || n.Users[0].Fraction != 1 {
			continue
		}
		app := n.Users[0].Application
		owner := LabelOwner + "=" + app
		if !labelled["label "+owner][n.Node] {
			t.Errorf("node %s, wholly %s's, has no owner label", n.Node, app)
		}
		if tainted := labelled["taint "+owner+":NoSchedule"][n.Node]; tainted == sharing[app] {
			t.Errorf("node %s of %s: tainted %v, but the application lends: %v", n.Node, app, tainted, sharing[app])
		}
		if !sharing[app] {
			owners[app] = true
		}
	}
	if len(owners) == 0 {
		t.Fatal("the per-node example has no tainted owner: the test checks nothing")
	}
	for app := range owners {
		specs := decodeStrict[corev1.PodSpec](t, app, fileData(t, e, K8sTolerationsDir+"/"+app+".yaml"))
		taint := corev1.Taint{Key: LabelOwner, Value: app, Effect: corev1.TaintEffectNoSchedule}
		if len(specs) != 1 || len(specs[0].Tolerations) != 1 || !specs[0].Tolerations[0].ToleratesTaint(klog.Background(), &taint, false) {
			t.Errorf("%s: the snippet does not tolerate %v: %+v", app, taint, specs)
		}
	}
}

func TestExportDeterministic(t *testing.T) {
	in := exampleInput(t, true)
	in.Packing = nil
	for name, f := range map[string]func(Input) (*Export, error){"yarn": YARN, "k8s": Kubernetes, "kueue": Kueue} {
		a, err := f(in)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			b, err := f(in)
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Files) != len(b.Files) {
				t.Fatalf("%s: %d files, then %d", name, len(a.Files), len(b.Files))
			}
			for i := range a.Files {
				if a.Files[i].Path != b.Files[i].Path || !bytes.Equal(a.Files[i].Data, b.Files[i].Data) {
					t.Errorf("%s: %s differs between runs", name, a.Files[i].Path)
				}
			}
		}
	}
}
