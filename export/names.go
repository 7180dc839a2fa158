package export

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// objectName turns a capplan name (an application or machine type) into
// the name its artefacts use: a Kubernetes namespace, ClusterQueue,
// ResourceFlavor and label value, a YARN queue and node label. Those must
// be RFC 1123 labels (lowercase letters, digits and '-', starting and
// ending with a letter or digit, at most 63 characters); a valid name stays
// as it is. Otherwise letters are lowercased, every other character
// becomes '-', runs of '-' collapse, and the ends are trimmed: "LS-t4" →
// "ls-t4", "m5.4xlarge" → "m5-4xlarge". It returns "" when nothing is left.
func objectName(name string) string {
	if len(validation.IsDNS1123Label(name)) == 0 {
		return name
	}
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
			continue
		}
		if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimRight(b.String(), "-")
	if len(s) > validation.DNS1123LabelMaxLength {
		s = strings.TrimRight(s[:validation.DNS1123LabelMaxLength], "-")
	}
	return s
}

// objectNames maps every name of one kind ("application", "machine type")
// to its object name, and fails when two names map to the same one or a
// name maps to nothing, naming both so the user can rename one.
func objectNames(kind string, names []string) ([]string, error) {
	out := make([]string, len(names))
	seen := map[string]string{}
	for i, n := range names {
		id := objectName(n)
		if id == "" {
			return nil, fmt.Errorf("%s %q has no letter or digit to name its scheduler objects: rename it", kind, n)
		}
		if prev, dup := seen[id]; dup {
			return nil, fmt.Errorf("%ss %q and %q both become %q in scheduler object names (lowercase letters, digits and '-'): rename one", kind, prev, n, id)
		}
		seen[id] = n
		out[i] = id
	}
	return out, nil
}
