package datasets

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/capplan/capplan/internal/inputerr"
)

// Vector is an amount of every resource of a Cluster, in the order of
// Cluster.Resources. A resource a node group does not list is the zero
// Quantity.
type Vector []resource.Quantity

// Milli returns q exactly in thousandths of its base unit (millicores,
// millibytes). ok is false when q is not a whole number of thousandths or
// when that number does not fit in an int64. Every quantity of a loaded
// model passes.
func Milli(q resource.Quantity) (milli int64, ok bool) {
	m, reason := milliOf(q)
	return m, reason == milliExact
}

// Base returns q in base units (cores, bytes) as a float64, for output.
func Base(q resource.Quantity) float64 {
	if m, ok := Milli(q); ok {
		return float64(m) / 1000
	}
	return q.AsApproximateFloat64()
}

// Milli returns the exact milli-values of v. It panics if an entry fails
// Milli, which no loaded or generated model does.
func (v Vector) Milli() []int64 {
	out := make([]int64, len(v))
	for i, q := range v {
		m, ok := Milli(q)
		if !ok {
			panic("datasets: quantity " + q.String() + " has no exact int64 milli-value")
		}
		out[i] = m
	}
	return out
}

// Base returns v in base units (cores, bytes), for output.
func (v Vector) Base() []float64 {
	out := make([]float64, len(v))
	for i, q := range v {
		out[i] = Base(q)
	}
	return out
}

type milliReason int

const (
	milliExact milliReason = iota
	milliTooFine
	milliTooLarge
)

// milliOf computes the milli-value of q from its canonical decimal form
// mantissa·10^exponent, without the rounding of Quantity.MilliValue.
func milliOf(q resource.Quantity) (int64, milliReason) {
	digits, exp := q.AsCanonicalBytes(nil)
	s := string(digits)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if strings.Trim(s, "0") == "" {
		return 0, milliExact
	}
	// The canonical mantissa carries at most two trailing zeros (added to
	// make the exponent a multiple of 3), so a value is a whole number of
	// thousandths exactly when its exponent is at least -3.
	shift := int64(exp) + 3
	if shift < 0 {
		return 0, milliTooFine
	}
	m, err := strconv.ParseInt(s, 10, 64)
	if err != nil || shift > 18 {
		return 0, milliTooLarge
	}
	for ; shift > 0; shift-- {
		if m > math.MaxInt64/10 {
			return 0, milliTooLarge
		}
		m *= 10
	}
	if neg {
		m = -m
	}
	return m, milliExact
}

// sign selects what quantities a field accepts.
type sign int

const (
	positive    sign = iota // > 0: capacities, request shapes
	nonNegative             // ≥ 0: task demands
)

// parseQuantity converts a tree value (a string such as "64Gi" or a plain
// number) to a Quantity, reporting at path.
func parseQuantity(ps *inputerr.List, path string, v any, want sign) (resource.Quantity, bool) {
	var text string
	switch v := v.(type) {
	case string:
		text = strings.TrimSpace(v)
	case json.Number:
		text = v.String()
	default:
		ps.Add(path, "must be a quantity such as 64Gi, 500m or 8, got %s", describe(v))
		return resource.Quantity{}, false
	}
	if reason := quantityTextProblem(text); reason != "" {
		ps.Add(path, "quantity %q %s", clip(text), reason)
		return resource.Quantity{}, false
	}
	q, err := resource.ParseQuantity(text)
	if err != nil {
		ps.Add(path, "invalid quantity %q: use Kubernetes notation such as 64Gi, 500m or 8", clip(text))
		return resource.Quantity{}, false
	}
	switch {
	case q.Sign() < 0:
		ps.Add(path, "must not be negative, got %s", clip(text))
		return resource.Quantity{}, false
	case q.IsZero() && want == positive:
		ps.Add(path, "must be > 0, got %s (leave the resource out for none)", clip(text))
		return resource.Quantity{}, false
	}
	switch _, reason := milliOf(q); reason {
	case milliTooFine:
		ps.Add(path, "quantity %s is finer than 1m (one thousandth); capplan computes in whole thousandths", clip(text))
		return resource.Quantity{}, false
	case milliTooLarge:
		ps.Add(path, "quantity %s is too large: its milli-value overflows int64 (at most about 9.2e15 base units)", clip(text))
		return resource.Quantity{}, false
	}
	return q, true
}

// Bounds on the text of a quantity, checked before resource.ParseQuantity:
// its cost grows steeply with the length and the exponent of the text (a
// 100-kB mantissa takes seconds, 1e-9999999 a second), and real quantities
// ("31068720Ki", "7910m", "1.5e3") are far inside both.
const (
	maxQuantityLen      = 40
	maxQuantityExponent = 30 // 1e19 base units already overflow milli-units
)

var quantityExponentRE = regexp.MustCompile(`[eE]([+-]?[0-9]+)$`)

// quantityTextProblem returns why text is refused before parsing, or "".
func quantityTextProblem(text string) string {
	if len(text) > maxQuantityLen {
		return fmt.Sprintf("is too long (at most %d characters)", maxQuantityLen)
	}
	if m := quantityExponentRE.FindStringSubmatch(text); m != nil {
		if e, err := strconv.Atoi(m[1]); err != nil || e > maxQuantityExponent || e < -maxQuantityExponent {
			return fmt.Sprintf("has an exponent outside ±%d", maxQuantityExponent)
		}
	}
	return ""
}

// quantityMap parses a mapping of resource name → quantity at path.
func quantityMap(ps *inputerr.List, path string, m map[string]any, want sign) map[string]resource.Quantity {
	out := make(map[string]resource.Quantity, len(m))
	for _, k := range sortedKeys(m) {
		p := fieldPath(path, k)
		if !checkResourceName(ps, p, k) {
			continue
		}
		if q, ok := parseQuantity(ps, p, m[k], want); ok {
			out[k] = q
		}
	}
	return out
}

// formatQuantities renders a quantity map as "cpu=2, memory=4Gi", sorted by
// name, for messages.
func formatQuantities(m map[string]resource.Quantity) string {
	parts := make([]string, 0, len(m))
	for _, k := range sortedKeys(m) {
		q := m[k]
		parts = append(parts, k+"="+q.String())
	}
	return strings.Join(parts, ", ")
}
