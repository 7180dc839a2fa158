package datasets

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/validate/content"

	"github.com/capplan/capplan/internal/inputerr"
	"github.com/capplan/capplan/internal/plural"
)

// hardTaint reports whether a taint keeps off every pod that does not
// tolerate it: NoSchedule and NoExecute. PreferNoSchedule is a preference
// of the scheduler, not a constraint, and does not bind a plan.
func hardTaint(t *corev1.Taint) bool {
	return t.Effect == corev1.TaintEffectNoSchedule || t.Effect == corev1.TaintEffectNoExecute
}

// untolerated returns the first hard taint of taints that no toleration
// tolerates (Kubernetes semantics: corev1.Toleration.ToleratesTaint, with
// the numeric Lt and Gt operators enabled), and false when there is none.
func untolerated(tols []corev1.Toleration, taints []corev1.Taint) (corev1.Taint, bool) {
	for i := range taints {
		t := &taints[i]
		if !hardTaint(t) {
			continue
		}
		ok := false
		for j := range tols {
			if tols[j].ToleratesTaint(logr.Discard(), t, true) {
				ok = true
				break
			}
		}
		if !ok {
			return *t, true
		}
	}
	return corev1.Taint{}, false
}

// tolerates reports whether tolerations admit a node with taints.
func tolerates(tols []corev1.Toleration, taints []corev1.Taint) bool {
	_, bad := untolerated(tols, taints)
	return !bad
}

// Schedulable returns c without the node groups that carry a NoSchedule or
// NoExecute taint no application of d tolerates (with d nil, every group
// with such a taint), each of their nodes added to Excluded with the
// reason. c is not changed; when nothing is left out, c itself is
// returned.
func Schedulable(c *Cluster, d *Demand) *Cluster {
	return schedulable(c, d, false)
}

// SchedulableByAll is Schedulable for consumers that cannot tell
// applications apart by taints (the simulator): a tainted group is kept
// only when every application of d tolerates it.
func SchedulableByAll(c *Cluster, d *Demand) *Cluster {
	return schedulable(c, d, true)
}

func schedulable(c *Cluster, d *Demand, all bool) *Cluster {
	var apps []Application
	if d != nil {
		apps = d.Applications
	}
	var keep []NodeGroup
	var out []Exclusion
	for _, g := range c.Groups {
		var hard []string
		for i := range g.Taints {
			if hardTaint(&g.Taints[i]) {
				hard = append(hard, g.Taints[i].ToString())
			}
		}
		n := 0
		for a := range apps {
			if tolerates(apps[a].Tolerations, g.Taints) {
				n++
			}
		}
		if len(hard) == 0 || (!all && n > 0) || (all && n > 0 && n == len(apps)) {
			keep = append(keep, g)
			continue
		}
		who := "which no application tolerates"
		if n > 0 {
			who = "which not every application tolerates (the simulator cannot keep it for some only)"
		}
		reason := fmt.Sprintf("%s %s, %s", plural.Noun(len(hard), "taint"), strings.Join(hard, ", "), who)
		for i := 0; i < g.Count; i++ {
			out = append(out, Exclusion{Node: g.NodeName(i), Reason: reason})
		}
	}
	if len(out) == 0 {
		return c
	}
	cc := *c
	cc.Groups = keep
	cc.Excluded = append(append([]Exclusion(nil), c.Excluded...), out...)
	return &cc
}

// Taint effects and toleration operators, as Kubernetes spells them.
var (
	taintEffects        = []string{string(corev1.TaintEffectNoSchedule), string(corev1.TaintEffectPreferNoSchedule), string(corev1.TaintEffectNoExecute)}
	tolerationOperators = []string{string(corev1.TolerationOpEqual), string(corev1.TolerationOpExists), string(corev1.TolerationOpLt), string(corev1.TolerationOpGt)}
)

// checkTaint reports a taint Kubernetes' API validation would refuse: a
// key that is not a qualified name, a value that is not a label value, an
// unknown effect.
func checkTaint(ps *inputerr.List, path string, t corev1.Taint) bool {
	before := ps.Len()
	if errs := content.IsLabelKey(t.Key); len(errs) > 0 {
		ps.Add(path+".key", "invalid taint key %q: %s", clip(t.Key), strings.Join(errs, "; "))
	}
	if errs := content.IsLabelValue(t.Value); len(errs) > 0 {
		ps.Add(path+".value", "invalid taint value %q: %s", clip(t.Value), strings.Join(errs, "; "))
	}
	if !slices.Contains(taintEffects, string(t.Effect)) {
		ps.Add(path+".effect", "unknown taint effect %q; want one of %s", clip(string(t.Effect)), strings.Join(taintEffects, ", "))
	}
	return ps.Len() == before
}

// checkToleration reports a toleration Kubernetes' API validation would
// refuse (ValidateTolerations): an empty key needs operator Exists, Exists
// takes no value, Lt and Gt take a decimal integer, the effect is one of
// the taint effects or empty, tolerationSeconds needs effect NoExecute.
func checkToleration(ps *inputerr.List, path string, t corev1.Toleration) bool {
	before := ps.Len()
	if t.Key != "" {
		if errs := content.IsLabelKey(t.Key); len(errs) > 0 {
			ps.Add(path+".key", "invalid toleration key %q: %s", clip(t.Key), strings.Join(errs, "; "))
		}
	} else if t.Operator != corev1.TolerationOpExists {
		ps.Add(path+".operator", "a toleration without a key must have operator Exists (it then tolerates every taint)")
	}
	switch {
	case t.Operator != "" && !slices.Contains(tolerationOperators, string(t.Operator)):
		ps.Add(path+".operator", "unknown operator %q; want one of %s", clip(string(t.Operator)), strings.Join(tolerationOperators, ", "))
	case t.Operator == corev1.TolerationOpExists && t.Value != "":
		ps.Add(path+".value", "must be empty when operator is Exists, got %q", clip(t.Value))
	case t.Operator == corev1.TolerationOpLt || t.Operator == corev1.TolerationOpGt:
		if errs := content.IsDecimalInteger(t.Value); len(errs) > 0 {
			ps.Add(path+".value", "operator %s compares numbers: want a decimal integer, got %q", t.Operator, clip(t.Value))
		}
	default:
		if errs := content.IsLabelValue(t.Value); len(errs) > 0 {
			ps.Add(path+".value", "invalid toleration value %q: %s", clip(t.Value), strings.Join(errs, "; "))
		}
	}
	if t.Effect != "" && !slices.Contains(taintEffects, string(t.Effect)) {
		ps.Add(path+".effect", "unknown effect %q; want one of %s (or leave it out for all)", clip(string(t.Effect)), strings.Join(taintEffects, ", "))
	}
	if t.TolerationSeconds != nil && t.Effect != corev1.TaintEffectNoExecute {
		ps.Add(path+".tolerationSeconds", "only a NoExecute toleration may set tolerationSeconds")
	}
	return ps.Len() == before
}
