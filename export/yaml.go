package export

import (
	"bytes"
	"encoding/json"
	"fmt"

	"sigs.k8s.io/yaml"
)

// anySlice converts a slice of objects for marshalObjects.
func anySlice[T any](s []T) []any {
	out := make([]any, len(s))
	for i := range s {
		out[i] = s[i]
	}
	return out
}

// marshalObjects writes the comment lines and the objects as a YAML
// stream, one document each, separated by "---". Each object is encoded
// through its JSON form (its API field names), without the server-side
// status, and with keys in sorted order.
func marshalObjects(comment []string, objects []any) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(commentLines("# ", comment))
	for i, obj := range objects {
		data, err := marshalObject(obj)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteString("---\n")
		}
		b.Write(data)
	}
	return b.Bytes(), nil
}

// pruneNulls removes the null fields of a decoded JSON object, at every
// depth: fields the Go types do not mark omitempty (a snippet's
// "containers: null") say nothing.
func pruneNulls(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
				continue
			}
			pruneNulls(e)
		}
	case []any:
		for _, e := range x {
			pruneNulls(e)
		}
	}
}

// marshalObject is one object as YAML, without its status.
func marshalObject(obj any) ([]byte, error) {
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("export: encode %T: %w", obj, err)
	}
	var tree map[string]any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return nil, fmt.Errorf("export: encode %T: %w", obj, err)
	}
	delete(tree, "status")
	pruneNulls(tree)
	out, err := yaml.Marshal(tree)
	if err != nil {
		return nil, fmt.Errorf("export: encode %T: %w", obj, err)
	}
	return out, nil
}
