package datasets

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	yamlv2 "go.yaml.in/yaml/v2"
)

// The readers of a sweep file's axes; each reports its problems with the
// field path and returns what it could read.

// readSweepWorkloads reads the workloads axis; cluster and demand are the
// sweep's defaults for workload files.
func readSweepWorkloads(o object, cluster, demand string) []SweepWorkload {
	list, ok := o.list(AxisWorkloads, true)
	if ok && len(list) == 0 {
		o.ps.Add(AxisWorkloads, "list at least one workload")
	}
	var out []SweepWorkload
	for i, v := range list {
		path := indexPath(AxisWorkloads, i)
		w := SweepWorkload{Path: path, Cluster: cluster, Demand: demand}
		if f, isStr := v.(string); isStr {
			w.File = f
			out = append(out, w)
			continue
		}
		wo, ok := asObject(o.ps, path, v, sweepWorkloadFields)
		if !ok {
			continue
		}
		w.Name, _ = wo.str("name", false)
		w.File, _ = wo.str("file", false)
		w.Generator, _ = wo.str("generator", false)
		if e, has := wo.get("example"); has {
			b, isBool := e.(bool)
			if !isBool {
				o.ps.Add(wo.at("example"), "must be true or false, got %s", describe(e))
			}
			w.Example = b
		}
		if w.File == "" {
			// The sweep's cluster and demand are those of workload
			// files; a generator brings its own, the example too unless
			// the entry names one.
			w.Cluster, w.Demand = "", ""
		}
		if c, ok := wo.str("cluster", false); ok {
			w.Cluster = c
		}
		if d, ok := wo.str("demand", false); ok {
			w.Demand = d
		}
		w.Params = readScalarMap(wo, "params")
		n := 0
		for _, set := range []bool{w.File != "", w.Generator != "", w.Example} {
			if set {
				n++
			}
		}
		if n != 1 {
			o.ps.Add(path, "give exactly one of file, generator and example: true")
			continue
		}
		out = append(out, w)
	}
	return out
}

func readSweepPolicies(o object) []SweepPolicy {
	list, ok := o.list(AxisPolicies, true)
	if ok && len(list) == 0 {
		o.ps.Add(AxisPolicies, "list at least one policy")
	}
	var out []SweepPolicy
	for i, v := range list {
		path := indexPath(AxisPolicies, i)
		if n, isStr := v.(string); isStr {
			if strings.TrimSpace(n) == "" {
				o.ps.Add(path, "must not be empty")
				continue
			}
			out = append(out, SweepPolicy{Path: path, Name: n})
			continue
		}
		po, ok := asObject(o.ps, path, v, sweepPolicyFields)
		if !ok {
			continue
		}
		n, ok := po.name("name")
		if !ok {
			continue
		}
		out = append(out, SweepPolicy{Path: path, Name: n, Params: readScalarMap(po, "params")})
	}
	return out
}

// readSweepSeeds reads seeds: a list of whole numbers or a range "A..B"
// (both ends included); [1] when absent.
func readSweepSeeds(o object) []uint64 {
	v, ok := o.get(AxisSeeds)
	if !ok {
		return []uint64{1}
	}
	if r, isStr := v.(string); isStr {
		a, b, found := strings.Cut(r, "..")
		lo, err1 := strconv.ParseUint(strings.TrimSpace(a), 10, 63)
		hi, err2 := strconv.ParseUint(strings.TrimSpace(b), 10, 63)
		switch {
		case !found || err1 != nil || err2 != nil:
			o.ps.Add(AxisSeeds, "got %q, want a range FIRST..LAST such as 1..20, or a list of seeds", clip(r))
			return nil
		case lo > hi:
			o.ps.Add(AxisSeeds, "the range %q is empty: the first seed must not exceed the last", r)
			return nil
		case hi-lo >= MaxSweepValues:
			o.ps.Add(AxisSeeds, "the range %q has %d seeds; at most %d", r, hi-lo+1, MaxSweepValues)
			return nil
		}
		var out []uint64
		for s := lo; s <= hi; s++ {
			out = append(out, s)
		}
		return out
	}
	var out []uint64
	for i, x := range sweepList(o, AxisSeeds, v) {
		n, isNum := x.(json.Number)
		if !isNum {
			o.ps.Add(indexPath(AxisSeeds, i), "must be a whole number, got %s", describe(x))
			continue
		}
		if s, ok := checkInteger(o.ps, indexPath(AxisSeeds, i), n, 0, math.MaxInt64); ok {
			out = append(out, uint64(s))
		}
	}
	if len(out) == 0 && o.ps.Len() == 0 {
		o.ps.Add(AxisSeeds, "list at least one seed")
	}
	return out
}

// sweepList returns the values of an axis given as a list or as a single
// value, reporting an empty or oversized list.
func sweepList(o object, key string, v any) []any {
	l, isList := v.([]any)
	if !isList {
		return []any{v}
	}
	switch {
	case len(l) == 0:
		o.ps.Add(key, "list at least one value, or leave the axis out")
	case len(l) > MaxSweepValues:
		o.ps.Add(key, "%d values; at most %d", len(l), MaxSweepValues)
		return nil
	}
	return l
}

// readSweepNumbers reads an optional axis of numbers in [lo, hi].
func readSweepNumbers(o object, key string, lo, hi float64) []float64 {
	v, ok := o.get(key)
	if !ok {
		return nil
	}
	var out []float64
	for i, x := range sweepList(o, key, v) {
		path := indexPath(key, i)
		n, isNum := x.(json.Number)
		if !isNum {
			o.ps.Add(path, "must be a number, got %s%s", describe(x), quoteHint(x))
			continue
		}
		f, err := strconv.ParseFloat(n.String(), 64)
		if err != nil || math.IsNaN(f) || f < lo || f > hi {
			if math.IsInf(hi, 1) {
				o.ps.Add(path, "must be a number ≥ %v, got %s", lo, clip(n.String()))
			} else {
				o.ps.Add(path, "must be a number in [%v, %v], got %s", lo, hi, clip(n.String()))
			}
			continue
		}
		if slices.Contains(out, f) {
			o.ps.Add(path, "repeats the value %v", f)
			continue
		}
		out = append(out, f)
	}
	return out
}

// readSweepParams reads the policy parameter axes, in the file's order of
// their keys (order holds "params.KEY" entries when it could be read).
func readSweepParams(o object, order []string) []SweepParam {
	m, ok := o.mapping(AxisParams, false)
	if !ok {
		return nil
	}
	keys := sortedKeys(m)
	var fileOrder []string
	for _, k := range order {
		if p, ok := strings.CutPrefix(k, AxisParams+"."); ok {
			if _, in := m[p]; in {
				fileOrder = append(fileOrder, p)
			}
		}
	}
	if len(fileOrder) == len(keys) {
		keys = fileOrder
	}
	var out []SweepParam
	for _, k := range keys {
		path := fieldPath(AxisParams, k)
		pol, key, found := strings.Cut(k, ".")
		if !found || pol == "" || key == "" {
			o.ps.Add(path, "want POLICY.KEY, such as tetris.f")
			continue
		}
		p := SweepParam{Path: path, Policy: pol, Key: key}
		for i, x := range sweepList(o, path, m[k]) {
			t, ok := scalarText(x)
			if !ok {
				o.ps.Add(indexPath(path, i), "must be a number, a string or a boolean, got %s", describe(x))
				continue
			}
			if slices.Contains(p.Values, t) {
				o.ps.Add(indexPath(path, i), "repeats the value %s", t)
				continue
			}
			p.Values = append(p.Values, t)
		}
		out = append(out, p)
	}
	return out
}

// readScalarMap reads an optional mapping of scalars as text.
func readScalarMap(o object, key string) map[string]string {
	m, ok := o.mapping(key, false)
	if !ok {
		return nil
	}
	out := map[string]string{}
	for _, k := range sortedKeys(m) {
		t, ok := scalarText(m[k])
		if !ok {
			o.ps.Add(fieldPath(o.at(key), k), "must be a number, a string or a boolean, got %s", describe(m[k]))
			continue
		}
		out[k] = t
	}
	return out
}

// scalarText writes a scalar as the command line would give it.
func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

// keyOrder returns the sweep's axis keys in the order the file gives them,
// with each parameter axis as "params.KEY" after "params"; the default
// order when the file cannot be read that way (YAML's own errors are
// reported by decodeTree).
func keyOrder(data []byte) []string {
	var top yamlv2.MapSlice
	if err := yamlv2.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &top); err != nil {
		return sweepAxes
	}
	var out []string
	for _, it := range top {
		k, _ := it.Key.(string)
		if !slices.Contains(sweepAxes, k) || slices.Contains(out, k) {
			continue
		}
		out = append(out, k)
		if k != AxisParams {
			continue
		}
		if params, ok := it.Value.(yamlv2.MapSlice); ok {
			for _, p := range params {
				if pk, ok := p.Key.(string); ok {
					out = append(out, AxisParams+"."+pk)
				}
			}
		}
	}
	for _, k := range sweepAxes {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}
