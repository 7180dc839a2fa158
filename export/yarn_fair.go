package export

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// Paths of the YARN export, relative to the export directory.
const (
	YARNFairSchedulerPath     = "yarn/fair-scheduler.xml"
	YARNCapacitySchedulerPath = "yarn/capacity-scheduler.xml"
	YARNNodeLabelsPath        = "yarn/node-labels.sh"
)

// fairAllocations is the FairScheduler allocation file (Hadoop
// FairScheduler.md, "Allocation file format"): the queue tree under root,
// the default scheduling policy and the queue placement policy.
type fairAllocations struct {
	XMLName                      xml.Name      `xml:"allocations"`
	Queues                       []fairQueue   `xml:"queue"`
	DefaultQueueSchedulingPolicy string        `xml:"defaultQueueSchedulingPolicy"`
	QueuePlacementPolicy         fairPlacement `xml:"queuePlacementPolicy"`
}

// fairQueue is one queue element and the properties capplan sets.
type fairQueue struct {
	Name             string      `xml:"name,attr"`
	Weight           string      `xml:"weight,omitempty"`
	MinResources     string      `xml:"minResources,omitempty"`
	MaxResources     string      `xml:"maxResources,omitempty"`
	SchedulingPolicy string      `xml:"schedulingPolicy,omitempty"`
	Queues           []fairQueue `xml:"queue"`
}

type fairPlacement struct {
	Rules []fairRule `xml:"rule"`
}

type fairRule struct {
	Name   string `xml:"name,attr"`
	Create string `xml:"create,attr,omitempty"`
}

// yarnFair renders fair-scheduler.xml: one leaf queue per application
// under root, with
//
//   - weight: the application's fair-share weight;
//   - minResources: its fair share, Σ over machine types of machines ×
//     capacity, in the new format "vcores=X, memory-mb=Y, yarn.io/gpu=Z"
//     (whole vcores, MiB and devices, apportioned per machine type and
//     resource by the largest-remainder rule, so that the queues' minimums
//     add up to at most the plan's allocation of each type);
//   - maxResources, when the demand caps the application at M machines:
//     per resource, the capacity of the M largest machines it may use (a
//     bound it can never need more than), never below minResources;
//   - schedulingPolicy drf (dominant resource fairness over all resources).
//
// Applications must name their queue: the placement policy places an
// application in the queue it specifies and rejects anything else.
func (m *model) yarnFair() (*File, error) {
	totals := appTotals(m.quotas(yarnGranularity))
	root := fairQueue{Name: "root", SchedulingPolicy: "drf"}
	for u, a := range m.apps {
		q := fairQueue{
			Name:             a.id,
			Weight:           strconv.FormatFloat(a.weight, 'f', -1, 64),
			MinResources:     m.yarnResources(totals[u]),
			SchedulingPolicy: "drf",
		}
		if a.maxMachines != nil {
			capped := m.capUnits(u, yarnGranularity)
			for r := range capped {
				// Rounding may lift a minimum one unit above the floor
				// of the bound; a maximum is never below the minimum.
				if capped[r].Cmp(totals[u][r]) < 0 {
					capped[r] = totals[u][r]
				}
			}
			q.MaxResources = m.yarnResources(capped)
		}
		root.Queues = append(root.Queues, q)
	}
	alloc := fairAllocations{
		Queues:                       []fairQueue{root},
		DefaultQueueSchedulingPolicy: "drf",
		QueuePlacementPolicy: fairPlacement{Rules: []fairRule{
			{Name: "specified", Create: "false"},
			{Name: "reject"},
		}},
	}
	lines := m.header(
		"One queue per application: weight = fair-share weight, minResources = fair share,",
		"maxResources = the demand cap. Submit applications to root.<application>.")
	data, err := marshalXML(lines, alloc)
	if err != nil {
		return nil, err
	}
	return &File{Path: YARNFairSchedulerPath, Data: data}, nil
}

// yarnResources formats whole units per model resource as "vcores=X,
// memory-mb=Y, ...", in the order vcores, memory-mb, then the others as in
// the plan.
func (m *model) yarnResources(units []*big.Int) string {
	type kv struct {
		name  string
		value string
	}
	var parts []kv
	for r, res := range m.resources {
		parts = append(parts, kv{yarnResource(res), units[r].String()})
	}
	rank := func(n string) int {
		switch n {
		case "vcores":
			return 0
		case "memory-mb":
			return 1
		}
		return 2
	}
	slices.SortStableFunc(parts, func(a, b kv) int { return rank(a.name) - rank(b.name) })
	s := make([]string, len(parts))
	for i, p := range parts {
		s[i] = p.name + "=" + p.value
	}
	return strings.Join(s, ", ")
}

// capUnits is, per resource, ⌊capacity of the M largest machines
// application u may use / gran⌋, M its demand cap: an upper bound on what
// M machines can hold.
func (m *model) capUnits(u int, gran func(string) *big.Rat) []*big.Int {
	a := m.apps[u]
	out := make([]*big.Int, len(m.resources))
	for r, res := range m.resources {
		var types []int
		for t := range m.types {
			if a.eligible[t] {
				types = append(types, t)
			}
		}
		slices.SortStableFunc(types, func(x, y int) int { return m.types[y].capacity[r].Cmp(m.types[x].capacity[r]) })
		left := *a.maxMachines
		sum := new(big.Rat)
		for _, t := range types {
			take := min(left, m.types[t].count)
			sum.Add(sum, new(big.Rat).Mul(big.NewRat(take, 1), m.types[t].capacity[r]))
			left -= take
		}
		out[r] = floorDiv(sum, gran(res))
	}
	return out
}

// marshalXML writes an XML declaration, the comment lines and v indented
// by two spaces, ending with a newline.
func marshalXML(comment []string, v any) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString("<!--\n")
	for _, l := range comment {
		// "--" may not occur inside an XML comment.
		b.WriteString("  " + strings.ReplaceAll(l, "--", "- -") + "\n")
	}
	b.WriteString("-->\n")
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("export: encode XML: %w", err)
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
