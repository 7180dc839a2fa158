package export

import (
	"encoding/xml"
	"fmt"
	"math/big"
	"strings"

	"github.com/capplan/capplan/internal/plural"
)

// hadoopConfiguration is a Hadoop configuration file (capacity-scheduler.xml):
// a list of name/value properties.
type hadoopConfiguration struct {
	XMLName    xml.Name         `xml:"configuration"`
	Properties []hadoopProperty `xml:"property"`
}

type hadoopProperty struct {
	Name        string `xml:"name"`
	Value       string `xml:"value"`
	Description string `xml:"description,omitempty"`
}

// dominantResourceCalculator makes the CapacityScheduler account every
// resource, not memory alone.
const dominantResourceCalculator = "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator"

// capacityLayout is the percentages capacity-scheduler.xml states, in
// units of 0.01%: per queue for the default partition, and per label for
// the queues that may access it.
type capacityLayout struct {
	capacity, maximum []int64
	// label[t] lists, per machine type t, the applications that may use it
	// with their capacities and maximums; empty when none may.
	label [][]labelShare
}

type labelShare struct {
	app               int
	capacity, maximum int64
}

func (m *model) capacityLayout() capacityLayout {
	var l capacityLayout
	var total int64
	for _, ty := range m.types {
		total += ty.count
	}
	w := make([]*big.Rat, len(m.apps))
	for u, a := range m.apps {
		w[u] = a.machines
	}
	l.capacity = percentages(w)
	for u := range m.apps {
		l.maximum = append(l.maximum, m.maxPercent(u, total, l.capacity[u]))
	}
	l.label = make([][]labelShare, len(m.types))
	for t, ty := range m.types {
		var apps []int
		var lw []*big.Rat
		for u, a := range m.apps {
			if a.eligible[t] {
				apps = append(apps, u)
				lw = append(lw, a.byType[t])
			}
		}
		for k, p := range percentages(lw) {
			u := apps[k]
			l.label[t] = append(l.label[t], labelShare{app: u, capacity: p, maximum: m.maxPercent(u, ty.count, p)})
		}
	}
	return l
}

// maxPercent is 100%, or for an application capped at M machines,
// ⌈10000 · M / machines⌉ hundredths of a percent, at most 100% and at
// least capacity.
func (m *model) maxPercent(u int, machines int64, capacity int64) int64 {
	capM := m.apps[u].maxMachines
	if capM == nil || machines == 0 {
		return basisPoints
	}
	bp := new(big.Int).Mul(big.NewInt(*capM), big.NewInt(basisPoints))
	q, r := new(big.Int).QuoRem(bp, big.NewInt(machines), new(big.Int))
	if r.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	v := basisPoints
	if q.IsInt64() && q.Int64() < basisPoints {
		v = int(q.Int64())
	}
	return max(int64(v), capacity)
}

// yarnCapacity renders capacity-scheduler.xml (Hadoop CapacityScheduler.md
// and NodeLabel.md): one queue per application under root, and one
// exclusive node label (partition) per machine type.
//
//   - Per label (machine type), the queues of the applications that may use
//     it get accessible-node-labels.<label>.capacity in proportion to the
//     machines the plan gives them there (equal shares when the plan leaves
//     the type idle), in exact hundredths of a percent that sum to exactly
//     100 (largest remainder). maximum-capacity is 100, or for an
//     application capped at M machines min(100, M / the type's machines),
//     rounded up to 0.01% and never below its capacity.
//   - The default partition (nodes without a label) is split the same way
//     by total machines; with every node labelled it holds no nodes, and
//     each queue's default-node-label-expression sends unlabelled requests
//     to the label where the application has most machines.
//   - A machine type no application may use keeps its label but no queue
//     may access it (a warning says so).
//
// The resource calculator is DominantResourceCalculator, so capacities
// bound every resource.
func (m *model) yarnCapacity() (*File, []string) {
	l := m.capacityLayout()
	var warnings []string
	conf := hadoopConfiguration{}
	add := func(name, value, desc string) {
		conf.Properties = append(conf.Properties, hadoopProperty{Name: "yarn.scheduler.capacity." + name, Value: value, Description: desc})
	}
	add("resource-calculator", dominantResourceCalculator, "account every resource (dominant resource), not memory alone")
	ids := make([]string, len(m.apps))
	for u, a := range m.apps {
		ids[u] = a.id
	}
	add("root.queues", strings.Join(ids, ","), "one queue per application of the plan")
	var used []string
	for t, ty := range m.types {
		if len(l.label[t]) == 0 {
			warnings = append(warnings, fmt.Sprintf("machine type %s: no application may use it; its nodes get label %s and no queue may access them", ty.name, ty.id))
			continue
		}
		used = append(used, ty.id)
	}
	if len(used) > 0 {
		add("root.accessible-node-labels", strings.Join(used, ","), "")
	}
	for t, ty := range m.types {
		if len(l.label[t]) > 0 {
			add("root.accessible-node-labels."+ty.id+".capacity", "100", fmt.Sprintf("machine type %s: %s", ty.name, plural.Count(ty.count, "node")))
		}
	}
	access := make([][]string, len(m.apps))
	best := make([]int, len(m.apps))
	for u := range best {
		best[u] = -1
	}
	for t := range m.types {
		for _, s := range l.label[t] {
			access[s.app] = append(access[s.app], m.types[t].id)
			if b := best[s.app]; b < 0 || m.apps[s.app].byType[t].Cmp(m.apps[s.app].byType[b]) > 0 {
				best[s.app] = t
			}
		}
	}
	for u, a := range m.apps {
		q := "root." + a.id
		f, _ := a.machines.Float64()
		add(q+".capacity", formatBasisPoints(l.capacity[u]), "share of the default partition, by the plan's machines: "+formatMachines(f))
		add(q+".maximum-capacity", formatBasisPoints(l.maximum[u]), "")
		labels := strings.Join(access[u], ",")
		if labels == "" {
			labels = " " // per NodeLabel.md: a space means unlabelled nodes only
			warnings = append(warnings, fmt.Sprintf("application %s may use no machine type of the plan", a.name))
		}
		add(q+".accessible-node-labels", labels, "")
		if best[u] >= 0 {
			add(q+".default-node-label-expression", m.types[best[u]].id, "the machine type where the plan gives it most machines")
		}
	}
	for t, ty := range m.types {
		for _, s := range l.label[t] {
			q := "root." + m.apps[s.app].id + ".accessible-node-labels." + ty.id
			f, _ := m.apps[s.app].byType[t].Float64()
			add(q+".capacity", formatBasisPoints(s.capacity), fmt.Sprintf("%s of %s", formatMachines(f), plural.Count(ty.count, "machine")))
			add(q+".maximum-capacity", formatBasisPoints(s.maximum), "")
		}
	}
	lines := m.header(
		"One queue per application; one exclusive node label (partition) per machine type.",
		"Capacities are the plan's shares, in hundredths of a percent summing to 100 per parent and per label.")
	data, err := marshalXML(lines, conf)
	if err != nil {
		// hadoopConfiguration holds strings only: encoding cannot fail.
		panic(err)
	}
	return &File{Path: YARNCapacitySchedulerPath, Data: data}, warnings
}

// formatMachines prints a machine count to at most four decimals.
func formatMachines(x float64) string {
	s := fmt.Sprintf("%.4f", x)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}
