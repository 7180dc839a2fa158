package export

import (
	"errors"
	"fmt"
	"math/big"
	"slices"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/plan"
)

// Input is what the exporters read: the documents of a plan.
type Input struct {
	// FairShare is required: every quota, weight and capacity percentage
	// comes from its shares.
	FairShare *plan.FairShare
	// Packing, optional, is an ownership PackingPlan (capplan pack
	// --shapes): its nodes name the machines of each type, and a node all
	// of whose containers belong to one application is owned by it.
	Packing *plan.PackingPlan
	// Demand, optional, is the demand the plan was made for: it tells which
	// machine types each application may use (selector, minCapacity), its
	// demand cap and its sharing policy. Without it an application may use
	// the machine types it is allocated on, and no sharing policy applies.
	Demand *datasets.Demand
	// Amounts, optional, are per-application totals of each resource (base
	// units) when the plan records them beside machines (a share capped at
	// the forecast demand): an application's amount on each machine type,
	// machines × capacity, is then scaled down in proportion so that its
	// total is at most Amounts[application][resource]. When nil, they come
	// from the FairShare itself (forecastAmounts): an application with a
	// forecast gets at most what it asked for in every resource.
	Amounts map[string]map[string]float64
}

// ErrNoFairShare is returned when an export is asked without a FairShare.
var ErrNoFairShare = errors.New("export: a FairShare document is required")

// model is the exporters' view of a plan: machine types, applications, and
// each application's exact amount of every resource on every type.
type model struct {
	doc       *plan.FairShare
	resources []string // resources some machine type has, in document order
	types     []mtype
	apps      []app
	// nodeOwner maps a node name to the index of the application that owns
	// it (the whole node is planned for that application alone).
	nodeOwner map[string]int
	warnings  []string
}

// mtype is one machine type.
type mtype struct {
	name, id string
	count    int64
	capacity []*big.Rat // per model resource, base units
	labels   map[string]string
	// nodes are the type's node names, nil when no document names them.
	nodes []string
	// owner is the application every node of the type is planned for
	// alone, or -1.
	owner int
}

// app is one application.
type app struct {
	name, id    string
	weight      float64
	maxMachines *int64
	machines    *big.Rat
	byType      []*big.Rat // machines per type, exact
	eligible    []bool     // per type
	// amount[t][r] is the planned amount of resource r on type t.
	amount [][]*big.Rat
	// sharing is the demand's policy; nil without a demand.
	sharing *datasets.Sharing
}

// newModel checks the input and builds the model.
func newModel(in Input) (*model, error) {
	fs := in.FairShare
	if fs == nil {
		return nil, ErrNoFairShare
	}
	if fs.Kind != plan.KindFairShare {
		return nil, fmt.Errorf("export: document kind is %q, want %s", fs.Kind, plan.KindFairShare)
	}
	if len(fs.Shares) == 0 {
		return nil, errors.New("export: the FairShare document has no shares")
	}
	m := &model{doc: fs, nodeOwner: map[string]int{}}
	for _, r := range fs.Resources {
		for _, mt := range fs.MachineTypes {
			if mt.Capacity[r] > 0 {
				m.resources = append(m.resources, r)
				break
			}
		}
	}
	typeNames := make([]string, len(fs.MachineTypes))
	for t, mt := range fs.MachineTypes {
		typeNames[t] = mt.Name
	}
	typeIDs, err := objectNames("machine type", typeNames)
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	typeIndex := map[string]int{}
	for t, mt := range fs.MachineTypes {
		if mt.Count <= 0 {
			return nil, fmt.Errorf("export: machine type %q has %d machines", mt.Name, mt.Count)
		}
		ty := mtype{name: mt.Name, id: typeIDs[t], count: mt.Count, labels: mt.Labels, owner: -1}
		for _, r := range m.resources {
			c := mt.Capacity[r]
			if c < 0 {
				return nil, fmt.Errorf("export: machine type %q: negative %s capacity %v", mt.Name, r, c)
			}
			ty.capacity = append(ty.capacity, plan.RatFromFloat(c))
		}
		typeIndex[mt.Name] = t
		m.types = append(m.types, ty)
	}
	appNames := make([]string, len(fs.Shares))
	for u, s := range fs.Shares {
		appNames[u] = s.Application
	}
	appIDs, err := objectNames("application", appNames)
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	for u, s := range fs.Shares {
		a := app{name: s.Application, id: appIDs[u], weight: s.Weight, maxMachines: s.MaxMachines,
			machines: plan.RatFromFloat(s.Machines), byType: make([]*big.Rat, len(m.types)), eligible: make([]bool, len(m.types))}
		for t := range m.types {
			a.byType[t] = new(big.Rat)
		}
		for name, v := range s.ByType {
			t, ok := typeIndex[name]
			if !ok {
				return nil, fmt.Errorf("export: application %q: byType names machine type %q, which the document does not list", s.Application, name)
			}
			if v < 0 {
				return nil, fmt.Errorf("export: application %q: negative allocation %v on machine type %q", s.Application, v, name)
			}
			a.byType[t] = plan.RatFromFloat(v)
			a.eligible[t] = v > 0
		}
		m.apps = append(m.apps, a)
	}
	if err := m.checkAllocation(); err != nil {
		return nil, err
	}
	if in.Demand != nil {
		if err := m.applyDemand(in.Demand); err != nil {
			return nil, err
		}
	}
	amounts := in.Amounts
	if amounts == nil {
		amounts = forecastAmounts(in.FairShare)
	}
	m.computeAmounts(amounts)
	m.findOwners(in.Packing)
	return m, nil
}

// forecastAmounts returns, per application of doc with a forecast, the
// smaller of its share and its forecast in every resource of the share
// (plan.Share.Amounts, plan.Share.Forecast): the machines of a capped share
// may hold more of some resource than the forecast asks for, and the
// quotas grant what it asked for.
func forecastAmounts(doc *plan.FairShare) map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	for _, s := range doc.Shares {
		if s.Forecast == nil {
			continue
		}
		totals := map[string]float64{}
		for r, v := range s.Amounts {
			totals[r] = min(v, s.Forecast[r])
		}
		out[s.Application] = totals
	}
	return out
}

// checkAllocation refuses a plan that allocates more machines of a type
// than it has (beyond the float rounding of the document).
func (m *model) checkAllocation() error {
	for t, ty := range m.types {
		sum := new(big.Rat)
		for _, a := range m.apps {
			sum.Add(sum, a.byType[t])
		}
		// The recovered amounts are exact for rational shares with small
		// denominators; allow one part in 10^9 for anything else.
		limit := new(big.Rat).Mul(big.NewRat(ty.count, 1), big.NewRat(1_000_000_001, 1_000_000_000))
		if sum.Cmp(limit) > 0 {
			f, _ := sum.Float64()
			return fmt.Errorf("export: machine type %q: the shares allocate %v machines of %d", ty.name, f, ty.count)
		}
	}
	return nil
}

// applyDemand marks the machine types each application may use (its
// selector matches the type's labels and the type has its minCapacity)
// and records its sharing policy. Applications of the plan must all be in
// the demand.
func (m *model) applyDemand(d *datasets.Demand) error {
	byName := map[string]*datasets.Application{}
	for i := range d.Applications {
		byName[d.Applications[i].Name] = &d.Applications[i]
	}
	for u := range m.apps {
		a := &m.apps[u]
		da, ok := byName[a.name]
		if !ok {
			return fmt.Errorf("export: application %q of the plan is not in the demand %s", a.name, d.Source)
		}
		sh := da.Sharing
		a.sharing = &sh
		sel := da.Selector
		if sel == nil {
			sel = labels.Everything()
		}
		for t, ty := range m.types {
			if a.eligible[t] {
				continue // allocated there, so eligible
			}
			a.eligible[t] = sel.Matches(labels.Set(ty.labels)) && m.hasMinCapacity(t, da)
		}
	}
	return nil
}

// hasMinCapacity reports whether type t has every minCapacity of da.
func (m *model) hasMinCapacity(t int, da *datasets.Application) bool {
	for r, q := range da.MinCapacity {
		j := slices.Index(m.resources, r)
		if j < 0 {
			return false
		}
		if m.types[t].capacity[j].Cmp(plan.RatFromFloat(datasets.Base(q))) < 0 {
			return false
		}
	}
	return true
}

// computeAmounts sets amount[t][r] = byType[t] × capacity[t][r], scaled by
// min(1, A_r / Σ_t byType[t] × capacity[t][r]) when amounts gives the
// application's total A_r of resource r.
func (m *model) computeAmounts(amounts map[string]map[string]float64) {
	for u := range m.apps {
		a := &m.apps[u]
		a.amount = make([][]*big.Rat, len(m.types))
		for t, ty := range m.types {
			a.amount[t] = make([]*big.Rat, len(m.resources))
			for r := range m.resources {
				a.amount[t][r] = new(big.Rat).Mul(a.byType[t], ty.capacity[r])
			}
		}
		totals, ok := amounts[a.name]
		if !ok {
			continue
		}
		for r, res := range m.resources {
			v, ok := totals[res]
			if !ok {
				continue
			}
			sum := new(big.Rat)
			for t := range m.types {
				sum.Add(sum, a.amount[t][r])
			}
			want := plan.RatFromFloat(max(v, 0))
			if sum.Sign() == 0 || want.Cmp(sum) >= 0 {
				continue
			}
			scale := new(big.Rat).Quo(want, sum)
			for t := range m.types {
				a.amount[t][r].Mul(a.amount[t][r], scale)
			}
		}
	}
}
