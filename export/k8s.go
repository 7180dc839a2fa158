package export

import (
	"fmt"
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Label and annotation keys capplan writes on Kubernetes objects.
const (
	// LabelOwner marks a node the plan gives wholly to one application;
	// a taint with the same key keeps others off it.
	LabelOwner = "capplan.io/owner"
	// LabelMachineType names a node's machine type; Kueue ResourceFlavors
	// select nodes by it.
	LabelMachineType = "capplan.io/machine-type"
	// LabelApplication marks a namespace with its application.
	LabelApplication = "capplan.io/application"
	// AnnotationApplication keeps the application's name as the plan
	// writes it (object names are lowercased, see objectName).
	AnnotationApplication = "capplan.io/application-name"
	// AnnotationWeight records the fair-share weight.
	AnnotationWeight = "capplan.io/weight"
)

// Paths of the Kubernetes export, relative to the export directory.
const (
	K8sNamespacesPath      = "k8s/00-namespaces.yaml"
	K8sPriorityClassesPath = "k8s/10-priorityclasses.yaml"
	K8sResourceQuotasPath  = "k8s/20-resourcequotas.yaml"
	K8sNodeLabelsPath      = "k8s/node-labels.sh"
	// K8sTolerationsDir holds one pod-spec snippet per application that
	// owns tainted nodes: tolerations/<application>.yaml.
	K8sTolerationsDir = "k8s/tolerations"
)

// QuotaName is the name of the ResourceQuota in each namespace.
const QuotaName = "capplan-share"

// priorityStep separates the values of consecutive PriorityClasses.
const priorityStep = 1000

// K8sObjects are the Kubernetes objects of a plan, typed with k8s.io/api.
type K8sObjects struct {
	Namespaces []corev1.Namespace
	// PriorityClasses are empty when every application has the same weight
	// (the plan does not rank them).
	PriorityClasses []schedulingv1.PriorityClass
	ResourceQuotas  []corev1.ResourceQuota
	// Tolerations maps an application (object name) that owns tainted
	// nodes to the pod-spec snippet that lets its pods run there.
	Tolerations map[string]corev1.PodSpec
}

// KubernetesObjects builds the Kubernetes objects of a plan:
//
//   - per application a Namespace (its object name; see objectName) and a
//     ResourceQuota "capplan-share" whose hard limits are its fair share of
//     every resource: requests.R and limits.R for cpu, memory and
//     ephemeral-storage, requests.R alone for extended resources such as
//     nvidia.com/gpu (Kubernetes allows no limits. quota for them). Amounts
//     are rounded to 1m of cpu, 1Mi of memory and whole devices per machine
//     type by the largest-remainder rule: the quotas of all applications
//     add up exactly to ⌊the plan's allocation⌋ of every machine type and
//     resource, never more.
//   - a PriorityClass capplan-<application> per application when the plan
//     ranks them, i.e. their weights differ: value 1000 × the rank of its
//     weight among the distinct weights (1 for the smallest), preemption
//     policy Never (quotas, not preemption, enforce the shares).
//   - a pod-spec snippet per application that owns tainted nodes (see
//     nodePlan): a toleration of the capplan.io/owner taint and a preferred
//     node affinity to its own nodes.
func KubernetesObjects(in Input) (*K8sObjects, error) {
	m, err := newModel(in)
	if err != nil {
		return nil, err
	}
	return m.k8sObjects(m.nodePlan()), nil
}

func (m *model) k8sObjects(np nodePlan) *K8sObjects {
	out := &K8sObjects{Tolerations: map[string]corev1.PodSpec{}}
	totals := appTotals(m.quotas(kubernetesGranularity))
	for u, a := range m.apps {
		out.Namespaces = append(out.Namespaces, m.namespace(u))
		hard := corev1.ResourceList{}
		for r, res := range m.resources {
			name := KubernetesResource(res)
			q := kubernetesQuantity(res, totals[u][r])
			hard["requests."+name] = q
			if isStandardKubernetes(name) {
				hard["limits."+name] = q
			}
		}
		out.ResourceQuotas = append(out.ResourceQuotas, corev1.ResourceQuota{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ResourceQuota"},
			ObjectMeta: metav1.ObjectMeta{Name: QuotaName, Namespace: a.id, Labels: map[string]string{LabelApplication: a.id}},
			Spec:       corev1.ResourceQuotaSpec{Hard: hard},
		})
		if np.tainted[u] {
			out.Tolerations[a.id] = ownerPodSpec(a.id)
		}
	}
	out.PriorityClasses = m.priorityClasses()
	return out
}

// namespace is application u's Namespace.
func (m *model) namespace(u int) corev1.Namespace {
	a := m.apps[u]
	return corev1.Namespace{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
		ObjectMeta: metav1.ObjectMeta{
			Name:   a.id,
			Labels: map[string]string{LabelApplication: a.id},
			Annotations: map[string]string{
				AnnotationApplication: a.name,
				AnnotationWeight:      strconv.FormatFloat(a.weight, 'f', -1, 64),
			},
		},
	}
}

// priorityClasses ranks the applications by weight (see KubernetesObjects).
func (m *model) priorityClasses() []schedulingv1.PriorityClass {
	var weights []float64
	for _, a := range m.apps {
		weights = append(weights, a.weight)
	}
	slices.Sort(weights)
	weights = slices.Compact(weights)
	if len(weights) < 2 {
		return nil
	}
	never := corev1.PreemptNever
	var out []schedulingv1.PriorityClass
	for _, a := range m.apps {
		rank := slices.Index(weights, a.weight) + 1
		out = append(out, schedulingv1.PriorityClass{
			TypeMeta:         metav1.TypeMeta{APIVersion: "scheduling.k8s.io/v1", Kind: "PriorityClass"},
			ObjectMeta:       metav1.ObjectMeta{Name: "capplan-" + a.id, Labels: map[string]string{LabelApplication: a.id}},
			Value:            int32(priorityStep * rank),
			PreemptionPolicy: &never,
			Description: fmt.Sprintf("capplan: application %s, fair-share weight %s (rank %d of %d weights)",
				a.name, strconv.FormatFloat(a.weight, 'f', -1, 64), rank, len(weights)),
		})
	}
	return out
}

// ownerPodSpec is the snippet for pods of application id: tolerate its
// owner taint and prefer its own nodes.
func ownerPodSpec(id string) corev1.PodSpec {
	return corev1.PodSpec{
		Tolerations: []corev1.Toleration{{Key: LabelOwner, Operator: corev1.TolerationOpEqual, Value: id, Effect: corev1.TaintEffectNoSchedule}},
		Affinity: &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
			PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{{
				Weight: 100,
				Preference: corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{
					{Key: LabelOwner, Operator: corev1.NodeSelectorOpIn, Values: []string{id}},
				}},
			}},
		}},
	}
}

// Kubernetes renders the Kubernetes export of a plan (see
// KubernetesObjects and nodePlan): k8s/00-namespaces.yaml,
// k8s/10-priorityclasses.yaml (when the plan ranks the applications),
// k8s/20-resourcequotas.yaml, k8s/node-labels.sh and
// k8s/tolerations/<application>.yaml. Apply the YAML with
// `kubectl apply -f k8s/` and run node-labels.sh once.
func Kubernetes(in Input) (*Export, error) {
	m, err := newModel(in)
	if err != nil {
		return nil, err
	}
	np := m.nodePlan()
	objs := m.k8sObjects(np)
	var files []File
	add := func(path string, comment []string, objects []any) error {
		data, err := marshalObjects(comment, objects)
		if err != nil {
			return err
		}
		files = append(files, File{Path: path, Data: data})
		return nil
	}
	if err := add(K8sNamespacesPath, m.header("One namespace per application."), anySlice(objs.Namespaces)); err != nil {
		return nil, err
	}
	if len(objs.PriorityClasses) > 0 {
		if err := add(K8sPriorityClassesPath, m.header("Priority by fair-share weight rank; preemptionPolicy Never."), anySlice(objs.PriorityClasses)); err != nil {
			return nil, err
		}
	}
	if err := add(K8sResourceQuotasPath, m.header("Per application its fair share of every resource, rounded per machine type", "by largest remainder: the quotas add up to the plan's allocation."), anySlice(objs.ResourceQuotas)); err != nil {
		return nil, err
	}
	files = append(files, m.k8sNodeScript(np))
	for _, u := range sortedOwners(np, m) {
		id := m.apps[u].id
		snippet := objs.Tolerations[id]
		data, err := marshalObjects(m.header("Merge into the pod spec of "+m.apps[u].name+"'s workloads: tolerate its owner taint", "and prefer its own nodes."), []any{snippet})
		if err != nil {
			return nil, err
		}
		files = append(files, File{Path: K8sTolerationsDir + "/" + id + ".yaml", Data: data})
	}
	return &Export{Files: files, Warnings: prefixed("k8s", m.warnings, np.warnings)}, nil
}

// sortedOwners lists the applications owning tainted nodes, in plan order.
func sortedOwners(np nodePlan, m *model) []int {
	var out []int
	for u := range m.apps {
		if np.tainted[u] {
			out = append(out, u)
		}
	}
	return out
}
