package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/capplan/capplan/internal/inputerr"
)

// DecodeDocument parses the JSON plan document data (named name in errors)
// into v, which must point to a document struct embedding Header, and
// checks that its apiVersion is capplan/v1 and its kind is kind. Errors name
// the file and, where the JSON decoder knows it, the line and the field:
// "plan.json: line 7: nodes[2].containers: want a list, got a string".
// Unknown fields are allowed (newer writers may add fields). Cost O(len(data)).
func DecodeDocument(name string, data []byte, kind string, v any) error {
	var head Header
	if err := json.Unmarshal(data, &head); err != nil {
		return decodeError(name, data, err)
	}
	if head.APIVersion != APIVersion {
		return fmt.Errorf("%s: apiVersion is %q, want %q", name, head.APIVersion, APIVersion)
	}
	if head.Kind != kind {
		return fmt.Errorf("%s: kind is %q, want %q", name, head.Kind, kind)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return decodeError(name, data, err)
	}
	return nil
}

// EncodeDocument returns v as the JSON every capplan document file holds:
// indented by two spaces, followed by a newline, HTML characters not
// escaped. The bytes are deterministic (encoding/json sorts map keys and
// keeps struct fields in declaration order), so the same document always
// has the same digest; the views' writers (reports.WriteJSON) use it too.
func EncodeDocument(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("plan: encode JSON: %w", err)
	}
	return buf.Bytes(), nil
}

// decodeError turns a JSON decoding error into one naming the file, the
// line and, for type mismatches, the field.
func decodeError(name string, data []byte, err error) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("%s: empty file", name)
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("%s: line %d: %v", name, inputerr.Line(data, syn.Offset), syn)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "(document)"
		}
		return fmt.Errorf("%s: line %d: %s: want %s, got %s", name, inputerr.Line(data, typ.Offset), field, typ.Type, typ.Value)
	default:
		return fmt.Errorf("%s: %v", name, err)
	}
}
