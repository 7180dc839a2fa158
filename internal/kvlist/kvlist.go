package kvlist

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
)

// Pair is one KEY or KEY=VALUE entry of a list.
type Pair struct {
	Key, Value string
	// HasValue is true when the entry has an '=' (Value may still be
	// empty: "cpu=").
	HasValue bool
}

// Parse splits a comma-separated list such as "cpu=1, memory=1Gi" into its
// pairs, in order, with the spaces around keys and values trimmed. An empty
// list gives no pairs. It returns an error for an empty entry or key, for a
// key given twice, and, when valueRequired, for an entry without '='.
func Parse(s string, valueRequired bool) ([]Pair, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []Pair
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		k, v, has := strings.Cut(part, "=")
		p := Pair{Key: strings.TrimSpace(k), Value: strings.TrimSpace(v), HasValue: has}
		switch {
		case strings.TrimSpace(part) == "":
			return nil, fmt.Errorf("empty entry in %q", s)
		case p.Key == "":
			return nil, fmt.Errorf("%q: no name before '='", strings.TrimSpace(part))
		case valueRequired && !has:
			return nil, fmt.Errorf("%q: want NAME=VALUE", strings.TrimSpace(part))
		case seen[p.Key]:
			return nil, fmt.Errorf("%s given twice", p.Key)
		}
		seen[p.Key] = true
		out = append(out, p)
	}
	return out, nil
}

// Quantities parses a list of NAME=QUANTITY pairs such as
// "cpu=16,memory=64Gi" (Kubernetes quantity notation: 4, 500m, 64Gi, 1e3)
// into a map by name. Every entry needs a value; signs are not checked here.
func Quantities(s string) (map[string]resource.Quantity, error) {
	pairs, err := Parse(s, true)
	if err != nil {
		return nil, err
	}
	out := make(map[string]resource.Quantity, len(pairs))
	for _, p := range pairs {
		q, err := resource.ParseQuantity(p.Value)
		if err != nil {
			return nil, fmt.Errorf("%s=%q: not a quantity (such as 4, 500m or 64Gi)", p.Key, p.Value)
		}
		out[p.Key] = q
	}
	return out, nil
}
