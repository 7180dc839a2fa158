package datasets

import (
	"github.com/capplan/capplan/internal/inputerr"
)

// APIVersion is the schema version of capplan's input documents.
const APIVersion = "capplan/v1"

// The kinds of capplan input documents.
const (
	KindCluster  = "Cluster"
	KindDemand   = "Demand"
	KindWorkload = "Workload"
)

// kindKubectl marks a `kubectl get nodes -o json` node list (apiVersion v1,
// kind List or NodeList), which loads as a Cluster.
const kindKubectl = "kubectl node list"

// Load reads any capplan input file, detecting its kind from the content:
// a Cluster (capplan/v1, or a kubectl node list) gives a *Cluster, a Demand
// a *Demand and a Workload a *Workload. Input mistakes give a
// *inputerr.Error listing all of them; this is what `capplan validate`
// runs on each file.
func Load(path string, opts LoadOptions) (any, error) {
	data, err := ReadFile(path, 0)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, opts)
}

// Parse is Load on data already read; name is used in messages and as the
// model's Source.
func Parse(name string, data []byte, opts LoadOptions) (any, error) {
	ps := &inputerr.List{File: name}
	root, ok := decodeTree(ps, data)
	if !ok {
		return nil, ps.Err()
	}
	var model any
	switch readKind(ps, root, "") {
	case KindCluster:
		if c := clusterFromTree(ps, root); c != nil {
			c.Source, model = name, c
		}
	case kindKubectl:
		if c := kubectlFromTree(ps, root, opts); c != nil {
			c.Source, model = name, c
		}
	case KindDemand:
		if d := demandFromTree(ps, root); d != nil {
			d.Source, model = name, d
		}
	case KindWorkload:
		if w := workloadFromTree(ps, root); w != nil {
			w.Source, model = name, w
		}
	}
	if err := ps.Err(); err != nil {
		return nil, err
	}
	return model, nil
}

// readKind reads the header of a document and returns its kind: want
// (KindCluster, KindDemand or KindWorkload), kindKubectl for a node list
// when want is KindCluster, or any of them when want is "". It returns ""
// when the document cannot be read as wanted; a missing kind is reported
// and, when want is set, assumed so that the rest is still checked.
func readKind(ps *inputerr.List, root any, want string) string {
	o, ok := asObject(ps, "", root, nil)
	if !ok {
		return ""
	}
	apiVersion, _ := o.get("apiVersion")
	kindV, hasKind := o.get("kind")
	kind, _ := kindV.(string)
	if apiVersion == "v1" && (kind == "List" || kind == "NodeList") {
		if want == "" || want == KindCluster {
			return kindKubectl
		}
		ps.Add("kind", "got a kubectl %s, want kind: %s", kind, want)
		return ""
	}
	wantText := want
	if want == "" {
		wantText = "one of Cluster, Demand, Workload"
	}
	switch {
	case !hasKind:
		ps.Add("kind", "missing required field; want %s", wantText)
	case kindV != any(kind):
		ps.Add("kind", "must be a string, got %s", describe(kindV))
	case want != "" && kind != want:
		hint := ""
		if kind == "Node" && want == KindCluster {
			hint = " (or a List of Nodes: kubectl get nodes -o json)"
		}
		ps.Add("kind", "got %q, want %q%s", clip(kind), want, hint)
		return ""
	case want == "" && kind != KindCluster && kind != KindDemand && kind != KindWorkload:
		ps.Add("kind", "unknown kind %q; want %s (or a kubectl node List)", clip(kind), wantText)
		return ""
	}
	switch {
	case apiVersion == nil:
		ps.Add("apiVersion", "missing required field; want %s", APIVersion)
	case apiVersion != any(APIVersion):
		ps.Add("apiVersion", "got %s, want %s", describe(apiVersion), APIVersion)
	}
	if kind == KindCluster || kind == KindDemand || kind == KindWorkload {
		return kind
	}
	return want
}
