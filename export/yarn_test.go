package export

import (
	"encoding/xml"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The structs below follow the Hadoop documentation, independently of the
// exporter's own: FairScheduler.md ("Allocation file format") and the
// configuration file format of capacity-scheduler.xml. Any element or
// attribute they do not name lands in Unknown and fails the test.

type docAllocations struct {
	Queues                       []docQueue    `xml:"queue"`
	DefaultQueueSchedulingPolicy string        `xml:"defaultQueueSchedulingPolicy"`
	QueuePlacementPolicy         *docPlacement `xml:"queuePlacementPolicy"`
	Unknown                      []xml.Name    `xml:",any"`
}

type docQueue struct {
	Name             string     `xml:"name,attr"`
	Type             string     `xml:"type,attr"`
	MinResources     string     `xml:"minResources"`
	MaxResources     string     `xml:"maxResources"`
	Weight           string     `xml:"weight"`
	SchedulingPolicy string     `xml:"schedulingPolicy"`
	Queues           []docQueue `xml:"queue"`
	Unknown          []xml.Name `xml:",any"`
	UnknownAttr      []xml.Attr `xml:",any,attr"`
}

type docPlacement struct {
	Rules []struct {
		Name   string `xml:"name,attr"`
		Create string `xml:"create,attr"`
	} `xml:"rule"`
	Unknown []xml.Name `xml:",any"`
}

type docConfiguration struct {
	Properties []struct {
		Name        string     `xml:"name"`
		Value       string     `xml:"value"`
		Description string     `xml:"description"`
		Unknown     []xml.Name `xml:",any"`
	} `xml:"property"`
	Unknown []xml.Name `xml:",any"`
}

// The policies FairScheduler.md allows for schedulingPolicy.
var fairPolicies = map[string]bool{"fifo": true, "fair": true, "drf": true}

// parseResources reads the new resource format "vcores=X, memory-mb=Y,
// yarn.io/gpu=Z" of FairScheduler.md.
func parseResources(s string) (map[string]int64, error) {
	out := map[string]int64{}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return nil, fmt.Errorf("%q: %q is not name=value", s, part)
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%q: %q is not a whole amount", s, v)
		}
		out[k] = n
	}
	for _, k := range []string{"vcores", "memory-mb"} {
		if _, ok := out[k]; !ok {
			return nil, fmt.Errorf("%q: no %s", s, k)
		}
	}
	return out, nil
}

// percent reads a capacity percentage as hundredths, refusing more than
// two decimals (the exporter promises exact hundredths).
var percentRE = regexp.MustCompile(`^(\d+)(?:\.(\d{1,2}))?$`)

func percent(s string) (int64, error) {
	m := percentRE.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("%q is not a percentage with at most two decimals", s)
	}
	whole, _ := strconv.ParseInt(m[1], 10, 64)
	frac := m[2] + strings.Repeat("0", 2-len(m[2]))
	f, _ := strconv.ParseInt(frac, 10, 64)
	v := whole*100 + f
	if v > basisPoints {
		return 0, fmt.Errorf("%q is over 100", s)
	}
	return v, nil
}

func TestYARNFairScheduler(t *testing.T) {
	in := exampleInput(t, false)
	e, err := YARN(in)
	if err != nil {
		t.Fatal(err)
	}
	data := fileData(t, e, YARNFairSchedulerPath)
	var alloc docAllocations
	if err := xml.Unmarshal(data, &alloc); err != nil {
		t.Fatalf("fair-scheduler.xml does not decode: %v", err)
	}
	if len(alloc.Unknown) > 0 || alloc.QueuePlacementPolicy == nil || len(alloc.QueuePlacementPolicy.Unknown) > 0 {
		t.Fatalf("fair-scheduler.xml has elements the allocation file format does not define: %v", alloc.Unknown)
	}
	if len(alloc.Queues) != 1 || alloc.Queues[0].Name != "root" {
		t.Fatalf("want one root queue, got %+v", alloc.Queues)
	}
	rules := alloc.QueuePlacementPolicy.Rules
	if last := rules[len(rules)-1].Name; last != "reject" && last != "default" {
		t.Errorf("the last placement rule is %q: it must be one that never continues", last)
	}
	m, err := newModel(in)
	if err != nil {
		t.Fatal(err)
	}
	queues := alloc.Queues[0].Queues
	if len(queues) != len(m.apps) {
		t.Fatalf("%d queues for %d applications", len(queues), len(m.apps))
	}
	sums := map[string]int64{}
	for u, q := range queues {
		a := m.apps[u]
		if len(q.Unknown) > 0 || len(q.UnknownAttr) > 0 {
			t.Errorf("queue %s has undocumented elements %v or attributes %v", q.Name, q.Unknown, q.UnknownAttr)
		}
		if q.Name != a.id {
			t.Errorf("queue %d is %q, want %q", u, q.Name, a.id)
		}
		if w, err := strconv.ParseFloat(q.Weight, 64); err != nil || w != a.weight {
			t.Errorf("queue %s: weight %q, want %v", q.Name, q.Weight, a.weight)
		}
		if !fairPolicies[q.SchedulingPolicy] {
			t.Errorf("queue %s: scheduling policy %q", q.Name, q.SchedulingPolicy)
		}
		minR, err := parseResources(q.MinResources)
		if err != nil {
			t.Fatalf("queue %s: minResources: %v", q.Name, err)
		}
		for r, res := range m.resources {
			got := minR[yarnResource(res)]
			sums[res] += got
			// Within one unit per machine type of the exact share.
			exact := new(big.Rat)
			for tt := range m.types {
				exact.Add(exact, a.amount[tt][r])
			}
			exact.Quo(exact, yarnGranularity(res))
			d := new(big.Rat).Sub(big.NewRat(got, 1), exact)
			if d.Abs(d).Cmp(big.NewRat(int64(len(m.types)), 1)) >= 0 {
				t.Errorf("queue %s: %s minimum %d is not within %d units of %s", q.Name, res, got, len(m.types), exact.FloatString(3))
			}
		}
		if a.maxMachines == nil {
			if q.MaxResources != "" {
				t.Errorf("queue %s has no demand cap but maxResources %q", q.Name, q.MaxResources)
			}
			continue
		}
		maxR, err := parseResources(q.MaxResources)
		if err != nil {
			t.Fatalf("queue %s: maxResources: %v", q.Name, err)
		}
		for k, v := range minR {
			if maxR[k] < v {
				t.Errorf("queue %s: maxResources %s=%d below minResources %d", q.Name, k, maxR[k], v)
			}
		}
	}
	// The minimums never promise more than the plan allocates: Σ over
	// applications ≤ ⌊Σ exact amounts⌋ per resource.
	for r, res := range m.resources {
		total := new(big.Rat)
		for _, a := range m.apps {
			for tt := range m.types {
				total.Add(total, a.amount[tt][r])
			}
		}
		if limit := floorDiv(total, yarnGranularity(res)).Int64(); sums[res] > limit {
			t.Errorf("%s: minimums add up to %d, over the plan's %d", res, sums[res], limit)
		}
	}
}

// capacityConfig decodes capacity-scheduler.xml into a property map.
func capacityConfig(t *testing.T, data []byte) map[string]string {
	t.Helper()
	var conf docConfiguration
	if err := xml.Unmarshal(data, &conf); err != nil {
		t.Fatalf("capacity-scheduler.xml does not decode: %v", err)
	}
	if len(conf.Unknown) > 0 {
		t.Fatalf("capacity-scheduler.xml has elements besides property: %v", conf.Unknown)
	}
	props := map[string]string{}
	for _, p := range conf.Properties {
		if len(p.Unknown) > 0 {
			t.Errorf("property %s has undocumented elements %v", p.Name, p.Unknown)
		}
		if _, dup := props[p.Name]; dup {
			t.Errorf("property %s is set twice", p.Name)
		}
		props[p.Name] = p.Value
	}
	return props
}

// checkCapacities checks what NodeLabel.md and CapacityScheduler.md
// require: the capacities of the children of every parent sum to exactly
// 100, for the default partition and for every label a child may access;
// no maximum-capacity is below its capacity; a label capacity is set only
// for an accessible label. It returns the label capacities by label and
// queue, in hundredths of a percent.
func checkCapacities(t *testing.T, props map[string]string) map[string]map[string]int64 {
	t.Helper()
	const pre = "yarn.scheduler.capacity."
	get := func(key string) (int64, bool) {
		v, ok := props[pre+key]
		if !ok {
			return 0, false
		}
		n, err := percent(v)
		if err != nil {
			t.Errorf("%s: %v", key, err)
		}
		return n, true
	}
	queues := strings.Split(props[pre+"root.queues"], ",")
	var sum int64
	labels := map[string]map[string]int64{}
	for _, q := range queues {
		path := "root." + q
		c, ok := get(path + ".capacity")
		if !ok {
			t.Fatalf("queue %s has no capacity", q)
		}
		sum += c
		if mc, ok := get(path + ".maximum-capacity"); ok && mc < c {
			t.Errorf("queue %s: maximum-capacity %d below capacity %d (hundredths)", q, mc, c)
		}
		access := strings.TrimSpace(props[pre+path+".accessible-node-labels"])
		accessible := map[string]bool{}
		if access != "" {
			for _, l := range strings.Split(access, ",") {
				accessible[l] = true
				lc, ok := get(path + ".accessible-node-labels." + l + ".capacity")
				if !ok {
					t.Errorf("queue %s may access %s but has no capacity there", q, l)
				}
				if labels[l] == nil {
					labels[l] = map[string]int64{}
				}
				labels[l][q] = lc
				if lm, ok := get(path + ".accessible-node-labels." + l + ".maximum-capacity"); ok && lm < lc {
					t.Errorf("queue %s label %s: maximum-capacity %d below capacity %d", q, l, lm, lc)
				}
			}
		}
		for key := range props {
			rest, ok := strings.CutPrefix(key, pre+path+".accessible-node-labels.")
			if !ok {
				continue
			}
			l, _, _ := strings.Cut(rest, ".")
			if !accessible[l] {
				t.Errorf("%s is set, but queue %s may not access label %s", key, q, l)
			}
		}
		if expr, ok := props[pre+path+".default-node-label-expression"]; ok && !accessible[expr] {
			t.Errorf("queue %s: default-node-label-expression %s is not accessible", q, expr)
		}
	}
	if sum != basisPoints {
		t.Errorf("queue capacities under root add up to %d hundredths of a percent, want 10000", sum)
	}
	for l, byQueue := range labels {
		var s int64
		for _, c := range byQueue {
			s += c
		}
		if s != basisPoints {
			t.Errorf("label %s: capacities add up to %d hundredths of a percent, want 10000", l, s)
		}
		if rc, ok := get("root.accessible-node-labels." + l + ".capacity"); !ok || rc != basisPoints {
			t.Errorf("root's capacity for label %s is %d, want 100%%", l, rc)
		}
	}
	return labels
}

func TestYARNCapacityScheduler(t *testing.T) {
	e, err := YARN(exampleInput(t, false))
	if err != nil {
		t.Fatal(err)
	}
	props := capacityConfig(t, fileData(t, e, YARNCapacitySchedulerPath))
	labels := checkCapacities(t, props)
	if len(labels) != 5 {
		t.Errorf("%d labels configured, want the example's 5 machine types", len(labels))
	}
	// spark-analytics may use only zone a nodes with ≥ 128Gi: std and
	// highmem (selector "zone in (a)", minCapacity memory 128Gi).
	if got := props["yarn.scheduler.capacity.root.spark-analytics.accessible-node-labels"]; got != "std,highmem" {
		t.Errorf("spark-analytics may access %q, want std,highmem", got)
	}
	if got := props["yarn.scheduler.capacity.resource-calculator"]; got != dominantResourceCalculator {
		t.Errorf("resource calculator %q", got)
	}
}

// TestYARNCapacityHand checks the percentages of the hand-made plan:
//
//	default partition, by machines 2 : 1.5 : 1.5 of 5 = 40, 30, 30
//	label cpu (3 machines): etl 2, svc 1 → 66.67, 33.33 (10000·2/3 =
//	    6666.67 rounds up: the larger remainder)
//	label gpu (2 machines): svc 0.5, train 1.5 → 25, 75
//	etl is capped at 3 machines: maximum-capacity 3/5 = 60 of the
//	    default partition and min(100, 3/3) = 100 of label cpu.
func TestYARNCapacityHand(t *testing.T) {
	e, err := YARN(Input{FairShare: twoTypes()})
	if err != nil {
		t.Fatal(err)
	}
	props := capacityConfig(t, fileData(t, e, YARNCapacitySchedulerPath))
	checkCapacities(t, props)
	want := map[string]string{
		"root.etl.capacity":                                    "40",
		"root.svc.capacity":                                    "30",
		"root.train.capacity":                                  "30",
		"root.etl.maximum-capacity":                            "60",
		"root.etl.accessible-node-labels":                      "cpu",
		"root.etl.accessible-node-labels.cpu.capacity":         "66.67",
		"root.svc.accessible-node-labels.cpu.capacity":         "33.33",
		"root.svc.accessible-node-labels.gpu.capacity":         "25",
		"root.train.accessible-node-labels.gpu.capacity":       "75",
		"root.etl.accessible-node-labels.cpu.maximum-capacity": "100",
		"root.train.default-node-label-expression":             "gpu",
		"root.svc.default-node-label-expression":               "cpu",
	}
	for k, v := range want {
		if got := props["yarn.scheduler.capacity."+k]; got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	var alloc docAllocations
	if err := xml.Unmarshal(fileData(t, e, YARNFairSchedulerPath), &alloc); err != nil {
		t.Fatal(err)
	}
	// svc: 1 cpu machine + 1/2 gpu machine = 32 vcores, 64Gi + 128Gi =
	// 196608 MiB, 2 GPUs; etl capped at 3 machines, all it may use are the
	// 3 cpu machines: 48 vcores, 192Gi = 196608 MiB, 0 GPUs.
	q := alloc.Queues[0].Queues
	if got := q[1].MinResources; got != "vcores=32, memory-mb=196608, yarn.io/gpu=2" {
		t.Errorf("svc minResources %q", got)
	}
	if got := q[0].MaxResources; got != "vcores=48, memory-mb=196608, yarn.io/gpu=0" {
		t.Errorf("etl maxResources %q", got)
	}
}
