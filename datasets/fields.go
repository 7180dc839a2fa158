package datasets

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/capplan/capplan/internal/inputerr"
	suggestpkg "github.com/capplan/capplan/internal/suggest"
)

// object is a mapping of the input tree under a field path, with typed
// getters that report every problem they meet. A null value counts as
// absent, as in Kubernetes manifests.
type object struct {
	ps   *inputerr.List
	path string
	m    map[string]any
}

// asObject checks that v is a mapping. Unless known is nil, every key not
// in known is reported as an unknown field.
func asObject(ps *inputerr.List, path string, v any, known []string) (object, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		ps.Add(path, "must be a mapping, got %s", describe(v))
		return object{}, false
	}
	if known != nil {
		for _, k := range sortedKeys(m) {
			if !slices.Contains(known, k) {
				ps.Add(fieldPath(path, k), "unknown field%s", suggest(k, known))
			}
		}
	}
	return object{ps: ps, path: path, m: m}, true
}

// at returns the path of the field key.
func (o object) at(key string) string { return fieldPath(o.path, key) }

// get returns the value of key, and false when it is absent or null.
func (o object) get(key string) (any, bool) {
	v, ok := o.m[key]
	return v, ok && v != nil
}

// has reports whether key is present and not null.
func (o object) has(key string) bool {
	_, ok := o.get(key)
	return ok
}

func (o object) missing(key string) {
	o.ps.Add(o.at(key), "missing required field")
}

// str returns the string at key. ok is false when it is absent (reported if
// required) or not a string (always reported).
func (o object) str(key string, required bool) (string, bool) {
	v, ok := o.get(key)
	if !ok {
		if required {
			o.missing(key)
		}
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		o.ps.Add(o.at(key), "must be a string, got %s%s", describe(v), quoteHint(v))
		return "", false
	}
	return s, true
}

// name returns a required non-empty string.
func (o object) name(key string) (string, bool) {
	s, ok := o.str(key, true)
	if ok && strings.TrimSpace(s) == "" {
		o.ps.Add(o.at(key), "must not be empty")
		return "", false
	}
	return s, ok
}

// number returns the number literal at key.
func (o object) number(key string, required bool) (json.Number, bool) {
	v, ok := o.get(key)
	if !ok {
		if required {
			o.missing(key)
		}
		return "", false
	}
	n, ok := v.(json.Number)
	if !ok {
		hint := ""
		if s, isStr := v.(string); isStr {
			if _, err := strconv.ParseFloat(s, 64); err == nil {
				hint = " (remove the quotes)"
			}
		}
		o.ps.Add(o.at(key), "must be a number, got %s%s", describe(v), hint)
		return "", false
	}
	return n, true
}

// integer returns the integer at key, checked to lie in [lo, hi].
func (o object) integer(key string, required bool, lo, hi int64) (int64, bool) {
	n, ok := o.number(key, required)
	if !ok {
		return 0, false
	}
	return checkInteger(o.ps, o.at(key), n, lo, hi)
}

// Bounds of a time in seconds (durations, arrivals). A positive time is
// at least MinSeconds, the finest tick capplan schedules and simulates in
// (1 ms), so that it never rounds to nothing, and at most MaxSeconds
// (10^9 s, about 31.7 years), so that every time converts to whole ticks
// far inside int64.
const (
	MinSeconds = 1e-3
	MaxSeconds = 1e9
)

// seconds returns a number of seconds at key, 0 or in [MinSeconds,
// MaxSeconds]; positive unless zeroOK.
func (o object) seconds(key string, required, zeroOK bool) (float64, bool) {
	n, ok := o.number(key, required)
	if !ok {
		return 0, false
	}
	x, ok := checkFloat(o.ps, o.at(key), n, zeroOK, " seconds")
	switch {
	case !ok || x == 0:
		return x, ok
	case x < MinSeconds:
		o.ps.Add(o.at(key), "%s seconds is shorter than 1ms (%g s), the finest tick capplan computes in%s", clip(n.String()), MinSeconds, map[bool]string{true: "; give 0 or at least 0.001", false: "; give at least 0.001"}[zeroOK])
		return 0, false
	case x > MaxSeconds:
		o.ps.Add(o.at(key), "%s seconds is longer than %g seconds (about 31.7 years), the longest time capplan accepts", clip(n.String()), MaxSeconds)
		return 0, false
	}
	return x, true
}

// list returns the list at key.
func (o object) list(key string, required bool) ([]any, bool) {
	v, ok := o.get(key)
	if !ok {
		if required {
			o.missing(key)
		}
		return nil, false
	}
	l, ok := v.([]any)
	if !ok {
		o.ps.Add(o.at(key), "must be a list, got %s", describe(v))
		return nil, false
	}
	return l, true
}

// mapping returns the mapping at key, whose keys are data (labels,
// quantities), so none is unknown.
func (o object) mapping(key string, required bool) (map[string]any, bool) {
	v, ok := o.get(key)
	if !ok {
		if required {
			o.missing(key)
		}
		return nil, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		o.ps.Add(o.at(key), "must be a mapping, got %s", describe(v))
		return nil, false
	}
	return m, true
}

// stringList returns the optional list of strings at key. ok is false when
// it is absent or any entry is not a string (each such entry is reported).
func (o object) stringList(key string) ([]string, bool) {
	l, ok := o.list(key, false)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(l))
	for i, v := range l {
		s, isStr := v.(string)
		if !isStr {
			o.ps.Add(indexPath(o.at(key), i), "must be a string, got %s%s", describe(v), quoteHint(v))
			ok = false
			continue
		}
		out = append(out, s)
	}
	return out, ok
}

// quoteHint suggests quoting a YAML scalar that was read as a number or a
// boolean (yes, no, on, off and true are booleans in YAML 1.1).
func quoteHint(v any) string {
	switch v := v.(type) {
	case bool:
		return fmt.Sprintf(` (quote it: "%t")`, v)
	case json.Number:
		return fmt.Sprintf(` (quote it: "%s")`, v)
	}
	return ""
}

var plainKeyRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// fieldPath appends a key to a path: a.b, or a["x.y/z"] for keys that are
// not plain identifiers.
func fieldPath(path, key string) string {
	if !plainKeyRE.MatchString(key) {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// indexPath appends a list index to a path.
func indexPath(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// suggest returns `; did you mean "x"?` for the closest of known
// (suggest.Closest), or the list of known names when none is close.
func suggest(name string, known []string) string {
	if best, ok := suggestpkg.Closest(name, known); ok {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	return " (known: " + strings.Join(known, ", ") + ")"
}
