package export

import (
	"fmt"
	"math/big"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta1"
)

// Paths of the Kueue export, relative to the export directory.
const (
	KueueNamespacesPath      = "kueue/00-namespaces.yaml"
	KueueResourceFlavorsPath = "kueue/10-resourceflavors.yaml"
	KueueClusterQueuesPath   = "kueue/20-clusterqueues.yaml"
	KueueLocalQueuesPath     = "kueue/30-localqueues.yaml"
)

// Cohort is the Kueue cohort every ClusterQueue of a plan joins.
const Cohort = "capplan"

// AnnotationSharingBound records an application's X-Flex sharing bound
// (normalised units × seconds) on its ClusterQueue.
const AnnotationSharingBound = "capplan.io/sharing-bound"

// KueueObjectSet are the Kueue objects of a plan, typed with
// sigs.k8s.io/kueue/apis/kueue/v1beta1, and the namespaces they need.
type KueueObjectSet struct {
	Namespaces      []corev1.Namespace
	ResourceFlavors []kueue.ResourceFlavor
	ClusterQueues   []kueue.ClusterQueue
	LocalQueues     []kueue.LocalQueue
}

// KueueObjects builds the Kueue objects of a plan:
//
//   - one ResourceFlavor per machine type, selecting its nodes by the
//     capplan.io/machine-type label (k8s/node-labels.sh sets it), with the
//     owner's NoSchedule taint when the plan gives the whole type to one
//     application that does not lend;
//   - one ClusterQueue per application, all in the cohort "capplan", with
//     one resource group covering every resource of the plan and one
//     flavor per machine type the application may use (those it is
//     allocated on, and with a demand those its selector and minCapacity
//     admit). nominalQuota is its planned amount of the resource on that
//     type, rounded like the ResourceQuotas (1m, 1Mi, whole devices,
//     largest remainder per flavor and resource): the nominal quotas of a
//     flavor add up exactly to ⌊the plan's allocation of that type⌋.
//     Limits come from the demand: an application capped at M machines
//     may borrow up to min(M, the type's machines) × capacity in all
//     (borrowingLimit = that − nominalQuota); an application that runs
//     alone (sharing: {alone: true}) neither lends nor borrows (both
//     limits 0). Lent quota is reclaimed on demand (preemption
//     reclaimWithinCohort: Any), as X-Flex does when a borrower's debt
//     reaches a bound of 0; Kueue has no debt tolerance, so a positive
//     bound is recorded in the annotation capplan.io/sharing-bound only.
//   - one LocalQueue per application in its namespace, feeding its
//     ClusterQueue, and the namespaces themselves (as in the Kubernetes
//     export).
func KueueObjects(in Input) (*KueueObjectSet, error) {
	m, err := newModel(in)
	if err != nil {
		return nil, err
	}
	set, _ := m.kueueObjects(m.nodePlan())
	return set, nil
}

func (m *model) kueueObjects(np nodePlan) (*KueueObjectSet, []string) {
	var warnings []string
	set := &KueueObjectSet{}
	for t, ty := range m.types {
		rf := kueue.ResourceFlavor{
			TypeMeta:   metav1.TypeMeta{APIVersion: kueue.GroupVersion.String(), Kind: "ResourceFlavor"},
			ObjectMeta: metav1.ObjectMeta{Name: ty.id},
			Spec:       kueue.ResourceFlavorSpec{NodeLabels: map[string]string{LabelMachineType: ty.id}},
		}
		labelled := len(ty.nodes) > 0 || np.selector[t] != ""
		if !labelled {
			warnings = append(warnings, fmt.Sprintf("flavor %s selects nodes by %s, which k8s/node-labels.sh cannot set on them (the plan names no node of machine type %s): label them by hand", ty.id, LabelMachineType, ty.name))
		}
		if u := ty.owner; u >= 0 && np.tainted[u] && labelled {
			rf.Spec.NodeTaints = []corev1.Taint{{Key: LabelOwner, Value: m.apps[u].id, Effect: corev1.TaintEffectNoSchedule}}
		}
		set.ResourceFlavors = append(set.ResourceFlavors, rf)
	}
	units := m.quotas(kubernetesGranularity)
	var covered []corev1.ResourceName
	for _, res := range m.resources {
		covered = append(covered, KubernetesResource(res))
	}
	for u, a := range m.apps {
		set.Namespaces = append(set.Namespaces, m.namespace(u))
		cq := kueue.ClusterQueue{
			TypeMeta:   metav1.TypeMeta{APIVersion: kueue.GroupVersion.String(), Kind: "ClusterQueue"},
			ObjectMeta: metav1.ObjectMeta{Name: a.id, Labels: map[string]string{LabelApplication: a.id}},
			Spec: kueue.ClusterQueueSpec{
				Cohort:            Cohort,
				QueueingStrategy:  kueue.BestEffortFIFO,
				NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{corev1.LabelMetadataName: a.id}},
				Preemption: &kueue.ClusterQueuePreemption{
					ReclaimWithinCohort: kueue.PreemptionPolicyAny,
					WithinClusterQueue:  kueue.PreemptionPolicyLowerPriority,
				},
			},
		}
		if a.sharing != nil && a.sharing.Bound != nil {
			cq.Annotations = map[string]string{AnnotationSharingBound: strconv.FormatFloat(*a.sharing.Bound, 'f', -1, 64)}
		}
		alone := a.sharing != nil && a.sharing.Alone
		group := kueue.ResourceGroup{CoveredResources: covered}
		for t, ty := range m.types {
			if !a.eligible[t] {
				continue
			}
			fq := kueue.FlavorQuotas{Name: kueue.ResourceFlavorReference(ty.id)}
			for r, res := range m.resources {
				rq := kueue.ResourceQuota{Name: covered[r], NominalQuota: kubernetesQuantity(res, units[u][t][r])}
				switch {
				case alone:
					rq.BorrowingLimit = zeroQuantity(res)
					rq.LendingLimit = zeroQuantity(res)
				case a.maxMachines != nil:
					b := m.capOnType(u, t, r, kubernetesGranularity(res))
					b.Sub(b, units[u][t][r])
					if b.Sign() < 0 {
						b.SetInt64(0)
					}
					q := kubernetesQuantity(res, b)
					rq.BorrowingLimit = &q
				}
				fq.Resources = append(fq.Resources, rq)
			}
			group.Flavors = append(group.Flavors, fq)
		}
		if len(group.Flavors) > 0 {
			cq.Spec.ResourceGroups = []kueue.ResourceGroup{group}
		} else {
			warnings = append(warnings, fmt.Sprintf("application %s may use no machine type: its ClusterQueue admits nothing", a.name))
		}
		set.ClusterQueues = append(set.ClusterQueues, cq)
		set.LocalQueues = append(set.LocalQueues, kueue.LocalQueue{
			TypeMeta:   metav1.TypeMeta{APIVersion: kueue.GroupVersion.String(), Kind: "LocalQueue"},
			ObjectMeta: metav1.ObjectMeta{Name: a.id, Namespace: a.id, Labels: map[string]string{LabelApplication: a.id}},
			Spec:       kueue.LocalQueueSpec{ClusterQueue: kueue.ClusterQueueReference(a.id)},
		})
	}
	return set, warnings
}

// capOnType is ⌊min(M, count_t) × capacity_t[r] / g⌋: the most of
// resource r that application u, capped at M machines, can use on type t.
func (m *model) capOnType(u, t, r int, g *big.Rat) *big.Int {
	n := min(*m.apps[u].maxMachines, m.types[t].count)
	return floorDiv(new(big.Rat).Mul(big.NewRat(n, 1), m.types[t].capacity[r]), g)
}

// zeroQuantity is a zero amount of the resource, in its quota format.
func zeroQuantity(res string) *resource.Quantity {
	q := kubernetesQuantity(res, new(big.Int))
	return &q
}

// Kueue renders the Kueue export of a plan (see KueueObjects):
// kueue/00-namespaces.yaml, kueue/10-resourceflavors.yaml,
// kueue/20-clusterqueues.yaml and kueue/30-localqueues.yaml. Apply them
// with `kubectl apply -f kueue/` after labelling the nodes
// (k8s/node-labels.sh); workloads join a queue with the label
// kueue.x-k8s.io/queue-name: <application>.
func Kueue(in Input) (*Export, error) {
	m, err := newModel(in)
	if err != nil {
		return nil, err
	}
	np := m.nodePlan()
	set, warnings := m.kueueObjects(np)
	var files []File
	for _, f := range []struct {
		path    string
		comment string
		objects []any
	}{
		{KueueNamespacesPath, "One namespace per application (as in the Kubernetes export).", anySlice(set.Namespaces)},
		{KueueResourceFlavorsPath, "One flavor per machine type; nodes carry " + LabelMachineType + " (k8s/node-labels.sh).", anySlice(set.ResourceFlavors)},
		{KueueClusterQueuesPath, "One ClusterQueue per application in cohort " + Cohort + "; nominal quotas are the plan's shares per machine type.", anySlice(set.ClusterQueues)},
		{KueueLocalQueuesPath, "One LocalQueue per namespace.", anySlice(set.LocalQueues)},
	} {
		data, err := marshalObjects(m.header(f.comment), f.objects)
		if err != nil {
			return nil, err
		}
		files = append(files, File{Path: f.path, Data: data})
	}
	return &Export{Files: files, Warnings: prefixed("kueue", warnings)}, nil
}
