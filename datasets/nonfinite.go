package datasets

import (
	"math"
	"strconv"
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"

	"github.com/capplan/capplan/internal/inputerr"
)

// reportNonFinite reports every YAML float that is not a finite number
// (.nan, .inf, -.inf, which JSON and capplan cannot hold) by field path and
// line, and says whether it found one. decodeTree calls it when the YAML
// to JSON conversion fails on such a value, which names neither.
func reportNonFinite(ps *inputerr.List, data []byte) bool {
	var doc yamlv3.Node
	if yamlv3.Unmarshal(data, &doc) != nil {
		return false
	}
	found := false
	var walk func(n *yamlv3.Node, path string)
	walk = func(n *yamlv3.Node, path string) {
		switch n.Kind {
		case yamlv3.DocumentNode:
			for _, c := range n.Content {
				walk(c, path)
			}
		case yamlv3.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				walk(n.Content[i+1], fieldPath(path, n.Content[i].Value))
			}
		case yamlv3.SequenceNode:
			for i, c := range n.Content {
				walk(c, path+"["+strconv.Itoa(i)+"]")
			}
		case yamlv3.ScalarNode:
			if n.ShortTag() != "!!float" {
				return
			}
			var f float64
			if n.Decode(&f) == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
				ps.Add(path, "line %d: %s is not a finite number; give a number such as 1.5", n.Line, clip(n.Value))
				found = true
			}
		}
	}
	walk(&doc, "")
	return found
}

// isNonFiniteError reports the YAML to JSON conversion's error for a
// NaN or infinite float.
func isNonFiniteError(err error) bool {
	return strings.Contains(err.Error(), "unsupported value")
}
