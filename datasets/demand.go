package datasets

import (
	"math"
	"math/big"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/capplan/capplan/internal/inputerr"
)

// Demand is a demand forecast: the applications sharing a cluster.
type Demand struct {
	// Source is the file name the demand was loaded from.
	Source string
	// Applications are in file order.
	Applications []Application
}

// Application is one application (user) of a Demand.
type Application struct {
	// Name is unique within the demand.
	Name string
	// Weight is the fair-share weight, exact and > 0 (default 1).
	Weight *big.Rat
	// MaxMachines caps the machines the application can use; 0 means
	// unbounded.
	MaxMachines int64
	// Selector restricts the nodes the application may run on; it is
	// labels.Everything() when the input gives none. Never nil.
	Selector labels.Selector
	// SelectorText is the selector as written, "" when absent.
	SelectorText string
	// MinCapacity admits only nodes with at least this much of each named
	// resource; nil when absent.
	MinCapacity map[string]resource.Quantity
	// Sharing is the X-Flex sharing policy.
	Sharing Sharing
	// Requests is the forecast request profile.
	Requests []Request
	// ColocateWith names applications that must be present on every node
	// that hosts one of this application's containers in an ownership
	// packing (required affinity on the node); empty when absent.
	ColocateWith []string
	// ExlocateWith names applications whose containers may never share a
	// node with this application's (required anti-affinity; symmetric).
	ExlocateWith []string
	// MaxPerNode caps the application's containers on any one node in an
	// ownership packing; 0 means no cap (1 spreads them one per node).
	MaxPerNode int64
	// Tolerations let the application run on nodes with NoSchedule or
	// NoExecute taints, with Kubernetes semantics (a node is eligible when
	// each of its such taints is tolerated by some toleration).
	Tolerations []corev1.Toleration
}

// Sharing is an application's X-Flex sharing policy: a bound, alone, or
// neither (the zero value).
type Sharing struct {
	// Bound, when not nil, is the sharing bound (normalized units ×
	// seconds), ≥ 0.
	Bound *float64
	// Alone asks that nothing else share the application's nodes.
	Alone bool
}

// Request is one request shape of a profile and how often it is asked for.
type Request struct {
	// Shape gives the amount of each named resource (> 0, at least one).
	Shape map[string]resource.Quantity
	// Count is the number of such requests (> 0).
	Count int64
	// Duration is how long each request runs, in seconds; 0 when not
	// given.
	Duration float64
}

var (
	demandFields  = []string{"apiVersion", "kind", "applications"}
	appFields     = []string{"name", "weight", "maxMachines", "selector", "minCapacity", "sharing", "requests", "colocateWith", "exlocateWith", "maxPerNode", "tolerations"}
	sharingFields = []string{"bound", "alone"}
	requestFields = []string{"shape", "count", "duration"}
)

// maxWeight bounds an application weight (and the integers IntegerWeights
// derives from weights).
const maxWeight = 1e12

// LoadDemand reads a capplan/v1 Demand (YAML or JSON). Input mistakes give
// an *inputerr.Error listing all of them.
func LoadDemand(path string) (*Demand, error) {
	data, err := ReadFile(path, 0)
	if err != nil {
		return nil, err
	}
	return ParseDemand(path, data)
}

// ParseDemand is LoadDemand on data already read; name is used in messages
// and as Demand.Source.
func ParseDemand(name string, data []byte) (*Demand, error) {
	ps := &inputerr.List{File: name}
	root, ok := decodeTree(ps, data)
	if !ok {
		return nil, ps.Err()
	}
	var d *Demand
	if readKind(ps, root, KindDemand) == KindDemand {
		d = demandFromTree(ps, root)
	}
	if err := ps.Err(); err != nil {
		return nil, err
	}
	d.Source = name
	return d, nil
}

func demandFromTree(ps *inputerr.List, root any) *Demand {
	o, ok := asObject(ps, "", root, demandFields)
	if !ok {
		return nil
	}
	d := &Demand{}
	list, ok := o.list("applications", true)
	if ok && len(list) == 0 {
		ps.Add("applications", "the demand has no applications")
	}
	firstAt := map[string]int{}
	for i, v := range list {
		path := indexPath("applications", i)
		a, ok := readApplication(ps, path, v)
		if a.Name != "" {
			if j, dup := firstAt[a.Name]; dup {
				ps.Add(path+".name", "duplicate application name %q (first used by applications[%d])", a.Name, j)
				ok = false
			} else {
				firstAt[a.Name] = i
			}
		}
		if ok {
			d.Applications = append(d.Applications, a)
		}
	}
	checkPlacementRules(ps, d, firstAt)
	return d
}

// checkPlacementRules reports colocateWith and exlocateWith entries that
// name no application of the demand, name the application itself, or repeat.
// firstAt maps each application name to its index in the input list.
func checkPlacementRules(ps *inputerr.List, d *Demand, firstAt map[string]int) {
	for i := range d.Applications {
		a := &d.Applications[i]
		path := indexPath("applications", firstAt[a.Name])
		for _, rule := range []struct {
			key   string
			names []string
		}{{"colocateWith", a.ColocateWith}, {"exlocateWith", a.ExlocateWith}} {
			seen := map[string]bool{}
			for j, name := range rule.names {
				at := indexPath(fieldPath(path, rule.key), j)
				switch _, known := firstAt[name]; {
				case name == a.Name && rule.key == "exlocateWith":
					ps.Add(at, "an application cannot exclude itself; use maxPerNode: 1 to spread its containers")
				case name == a.Name:
					ps.Add(at, "an application cannot be colocated with itself")
				case !known:
					ps.Add(at, "names no application of the demand: %q", clip(name))
				case seen[name]:
					ps.Add(at, "repeats %q", clip(name))
				}
				seen[name] = true
			}
		}
	}
}

func readApplication(ps *inputerr.List, path string, v any) (Application, bool) {
	o, ok := asObject(ps, path, v, appFields)
	if !ok {
		return Application{}, false
	}
	before := ps.Len()
	a := Application{Weight: big.NewRat(1, 1), Selector: labels.Everything()}
	a.Name, _ = o.name("name")
	if n, ok := o.number("weight", false); ok {
		r, ok := parseRat(n)
		switch {
		case !ok:
			ps.Add(o.at("weight"), "number %s is out of range", clip(n.String()))
		case r.Sign() <= 0:
			ps.Add(o.at("weight"), "must be > 0, got %s", n)
		case r.Cmp(new(big.Rat).SetFloat64(maxWeight)) > 0:
			ps.Add(o.at("weight"), "must be at most %g, got %s", maxWeight, n)
		default:
			a.Weight = r
		}
	}
	a.MaxMachines, _ = o.integer("maxMachines", false, 1, math.MaxInt64)
	if s, ok := o.str("selector", false); ok {
		if sel, err := labels.Parse(s); err != nil {
			ps.Add(o.at("selector"), "invalid label selector %q: %v", clip(s), err)
		} else {
			a.Selector, a.SelectorText = sel, s
		}
	}
	if m, ok := o.mapping("minCapacity", false); ok {
		a.MinCapacity = quantityMap(ps, o.at("minCapacity"), m, positive)
	}
	if v, ok := o.get("sharing"); ok {
		a.Sharing = readSharing(ps, o.at("sharing"), v)
	}
	a.ColocateWith, _ = o.stringList("colocateWith")
	a.ExlocateWith, _ = o.stringList("exlocateWith")
	a.MaxPerNode, _ = o.integer("maxPerNode", false, 1, math.MaxInt32)
	if list, ok := o.list("tolerations", false); ok {
		for i, v := range list {
			p := indexPath(o.at("tolerations"), i)
			var t corev1.Toleration
			if decodeStrict(ps, p, v, &t, "a Kubernetes toleration (key, operator, value, effect, tolerationSeconds)") && checkToleration(ps, p, t) {
				a.Tolerations = append(a.Tolerations, t)
			}
		}
	}
	if list, ok := o.list("requests", false); ok {
		for i, v := range list {
			if r, ok := readRequest(ps, indexPath(o.at("requests"), i), v); ok {
				a.Requests = append(a.Requests, r)
			}
		}
	}
	return a, ps.Len() == before
}

func readSharing(ps *inputerr.List, path string, v any) Sharing {
	o, ok := asObject(ps, path, v, sharingFields)
	if !ok {
		return Sharing{}
	}
	var s Sharing
	switch {
	case o.has("bound") && o.has("alone"):
		ps.Add(path, "give bound or alone, not both")
	case o.has("bound"):
		if n, ok := o.number("bound", true); ok {
			if b, ok := checkFloat(ps, o.at("bound"), n, true, ""); ok {
				s.Bound = &b
			}
		}
	case o.has("alone"):
		switch v, _ := o.get("alone"); v {
		case true:
			s.Alone = true
		case false: // the default, said explicitly
		default:
			ps.Add(o.at("alone"), "must be true or false, got %s", describe(v))
		}
	default:
		ps.Add(path, "give {bound: NUMBER} or {alone: true}")
	}
	return s
}

func readRequest(ps *inputerr.List, path string, v any) (Request, bool) {
	o, ok := asObject(ps, path, v, requestFields)
	if !ok {
		return Request{}, false
	}
	before := ps.Len()
	var r Request
	if m, ok := o.mapping("shape", true); ok {
		if len(m) == 0 {
			ps.Add(o.at("shape"), "is empty: give the amount of at least one resource")
		}
		r.Shape = quantityMap(ps, o.at("shape"), m, positive)
	}
	r.Count, _ = o.integer("count", true, 1, math.MaxInt64)
	r.Duration, _ = o.seconds("duration", false, false)
	return r, ps.Len() == before
}

// selectorText returns the selector as written, or "(none)".
func (a *Application) selectorText() string {
	if strings.TrimSpace(a.SelectorText) == "" {
		return "(none)"
	}
	return a.SelectorText
}
