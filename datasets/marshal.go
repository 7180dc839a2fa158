package datasets

import (
	"fmt"
	"io"
	"math"
	"math/big"
	"slices"
	"strconv"

	"go.yaml.in/yaml/v2"
	"k8s.io/apimachinery/pkg/api/resource"
)

// WriteYAML writes v, a *Cluster, *Demand or *Workload, as a capplan/v1
// YAML document that LoadCluster, LoadDemand or LoadWorkload read back to
// an equal model. Keys come in schema order and maps sorted, so equal
// models give equal bytes. Two things are not kept: the nodes of a kubectl
// inventory one by one (a group of its members is written as one group of
// their count, with the labels they share and their racks round-robin, so
// node "n1" of group "m5.large" comes back as "m5.large-0"), and weights
// that are not finite decimals, which are written rounded to float64.
func WriteYAML(w io.Writer, v any) error {
	b, err := MarshalYAML(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// MarshalYAML returns the document WriteYAML writes.
func MarshalYAML(v any) ([]byte, error) {
	var doc yaml.MapSlice
	switch v := v.(type) {
	case *Cluster:
		doc = clusterDoc(v)
	case *Demand:
		doc = demandDoc(v)
	case *Workload:
		doc = workloadDoc(v)
	default:
		return nil, fmt.Errorf("datasets: cannot write %T as YAML; want *Cluster, *Demand or *Workload", v)
	}
	return yaml.Marshal(doc)
}

type items = yaml.MapSlice

func header(kind string) items {
	return items{{Key: "apiVersion", Value: APIVersion}, {Key: "kind", Value: kind}}
}

func clusterDoc(c *Cluster) items {
	groups := make([]any, len(c.Groups))
	for i := range c.Groups {
		g := &c.Groups[i]
		doc := items{{Key: "name", Value: g.Name}, {Key: "count", Value: g.Count}}
		racks := g.Racks
		if g.Members != nil {
			racks = memberRacks(g)
		}
		switch len(racks) {
		case 0:
		case 1:
			doc = append(doc, yaml.MapItem{Key: "rack", Value: racks[0]})
		default:
			doc = append(doc, yaml.MapItem{Key: "racks", Value: racks})
		}
		if len(g.Labels) > 0 {
			doc = append(doc, yaml.MapItem{Key: "labels", Value: stringsDoc(g.Labels)})
		}
		if len(g.Taints) > 0 {
			taints := make([]any, len(g.Taints))
			for k, t := range g.Taints {
				taint := items{{Key: "key", Value: t.Key}}
				if t.Value != "" {
					taint = append(taint, yaml.MapItem{Key: "value", Value: t.Value})
				}
				taints[k] = append(taint, yaml.MapItem{Key: "effect", Value: string(t.Effect)})
			}
			doc = append(doc, yaml.MapItem{Key: "taints", Value: taints})
		}
		capacity := items{}
		for j, q := range g.Capacity {
			if !q.IsZero() {
				capacity = append(capacity, yaml.MapItem{Key: c.Resources[j], Value: quantityValue(q)})
			}
		}
		groups[i] = append(doc, yaml.MapItem{Key: "capacity", Value: capacity})
	}
	return append(header(KindCluster),
		yaml.MapItem{Key: "resources", Value: c.Resources},
		yaml.MapItem{Key: "nodes", Value: groups})
}

// memberRacks returns the racks of a kubectl group's members when every
// member has one (written round-robin, one per node), else none.
func memberRacks(g *NodeGroup) []string {
	racks := make([]string, len(g.Members))
	for i, m := range g.Members {
		if m.Rack == "" {
			return nil
		}
		racks[i] = m.Rack
	}
	if len(racks) > 0 && slices.Equal(racks, slices.Repeat(racks[:1], len(racks))) {
		return racks[:1]
	}
	return racks
}

func demandDoc(d *Demand) items {
	apps := make([]any, len(d.Applications))
	for i := range d.Applications {
		a := &d.Applications[i]
		doc := items{{Key: "name", Value: a.Name}}
		if w := weightOf(a); w.Cmp(big.NewRat(1, 1)) != 0 {
			doc = append(doc, yaml.MapItem{Key: "weight", Value: ratValue(w)})
		}
		if a.MaxMachines > 0 {
			doc = append(doc, yaml.MapItem{Key: "maxMachines", Value: a.MaxMachines})
		}
		if a.SelectorText != "" {
			doc = append(doc, yaml.MapItem{Key: "selector", Value: a.SelectorText})
		}
		if len(a.MinCapacity) > 0 {
			doc = append(doc, yaml.MapItem{Key: "minCapacity", Value: quantitiesDoc(a.MinCapacity)})
		}
		switch {
		case a.Sharing.Bound != nil:
			doc = append(doc, yaml.MapItem{Key: "sharing", Value: items{{Key: "bound", Value: *a.Sharing.Bound}}})
		case a.Sharing.Alone:
			doc = append(doc, yaml.MapItem{Key: "sharing", Value: items{{Key: "alone", Value: true}}})
		}
		if len(a.ColocateWith) > 0 {
			doc = append(doc, yaml.MapItem{Key: "colocateWith", Value: a.ColocateWith})
		}
		if len(a.ExlocateWith) > 0 {
			doc = append(doc, yaml.MapItem{Key: "exlocateWith", Value: a.ExlocateWith})
		}
		if a.MaxPerNode > 0 {
			doc = append(doc, yaml.MapItem{Key: "maxPerNode", Value: a.MaxPerNode})
		}
		if len(a.Tolerations) > 0 {
			tols := make([]any, len(a.Tolerations))
			for k, t := range a.Tolerations {
				tol := items{}
				for _, kv := range [][2]string{{"key", t.Key}, {"operator", string(t.Operator)}, {"value", t.Value}, {"effect", string(t.Effect)}} {
					if kv[1] != "" {
						tol = append(tol, yaml.MapItem{Key: kv[0], Value: kv[1]})
					}
				}
				if t.TolerationSeconds != nil {
					tol = append(tol, yaml.MapItem{Key: "tolerationSeconds", Value: *t.TolerationSeconds})
				}
				tols[k] = tol
			}
			doc = append(doc, yaml.MapItem{Key: "tolerations", Value: tols})
		}
		if len(a.Requests) > 0 {
			reqs := make([]any, len(a.Requests))
			for j, r := range a.Requests {
				req := items{{Key: "shape", Value: quantitiesDoc(r.Shape)}, {Key: "count", Value: r.Count}}
				if r.Duration > 0 {
					req = append(req, yaml.MapItem{Key: "duration", Value: secondsValue(r.Duration)})
				}
				reqs[j] = req
			}
			doc = append(doc, yaml.MapItem{Key: "requests", Value: reqs})
		}
		apps[i] = doc
	}
	return append(header(KindDemand), yaml.MapItem{Key: "applications", Value: apps})
}

func workloadDoc(w *Workload) items {
	jobs := make([]any, len(w.Jobs))
	for i := range w.Jobs {
		j := &w.Jobs[i]
		doc := items{{Key: "name", Value: j.Name}}
		if j.Arrival != 0 {
			doc = append(doc, yaml.MapItem{Key: "arrival", Value: secondsValue(j.Arrival)})
		}
		if j.Group != "" {
			doc = append(doc, yaml.MapItem{Key: "group", Value: j.Group})
		}
		if j.Tasks != nil {
			tasks := make([]any, len(j.Tasks))
			for k, t := range j.Tasks {
				tasks[k] = withAfter(items{{Key: "id", Value: t.ID}, {Key: "duration", Value: secondsValue(t.Duration)},
					{Key: "demand", Value: quantitiesDoc(t.Demand)}}, t.After)
			}
			doc = append(doc, yaml.MapItem{Key: "tasks", Value: tasks})
		} else {
			stages := make([]any, len(j.Stages))
			for k, s := range j.Stages {
				st := withAfter(items{{Key: "name", Value: s.Name}, {Key: "tasks", Value: s.Tasks},
					{Key: "duration", Value: secondsValue(s.Duration)}, {Key: "demand", Value: quantitiesDoc(s.Demand)}}, s.After)
				if s.Edge != Barrier {
					st = append(st, yaml.MapItem{Key: "edge", Value: s.Edge.String()})
				}
				stages[k] = st
			}
			doc = append(doc, yaml.MapItem{Key: "stages", Value: stages})
		}
		jobs[i] = doc
	}
	return append(header(KindWorkload), yaml.MapItem{Key: "jobs", Value: jobs})
}

func withAfter(doc items, after []string) items {
	if len(after) > 0 {
		doc = append(doc, yaml.MapItem{Key: "after", Value: after})
	}
	return doc
}

func stringsDoc(m map[string]string) items {
	out := make(items, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, yaml.MapItem{Key: k, Value: m[k]})
	}
	return out
}

func quantitiesDoc(m map[string]resource.Quantity) items {
	out := make(items, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, yaml.MapItem{Key: k, Value: quantityValue(m[k])})
	}
	return out
}

// quantityValue writes a quantity as a plain integer when it is one, else
// in canonical Kubernetes notation ("128Gi", "500m").
func quantityValue(q resource.Quantity) any {
	s := q.String()
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i
	}
	return s
}

// maxExactInt is 2^53, below which float64 holds every integer exactly.
const maxExactInt = 1 << 53

func secondsValue(f float64) any {
	if f == math.Trunc(f) && math.Abs(f) < maxExactInt {
		return int64(f)
	}
	return f
}

func ratValue(r *big.Rat) any {
	if r.IsInt() && r.Num().IsInt64() {
		return r.Num().Int64()
	}
	f, _ := r.Float64()
	return f
}
