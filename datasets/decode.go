package datasets

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"

	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"

	"github.com/capplan/capplan/internal/inputerr"
)

// decodeTree parses a YAML or JSON document into a generic tree of
// map[string]any, []any, string, json.Number, bool and nil. Numbers keep
// their literal text (YAML numbers pass through float64 on the way; see
// parseRat for how both are read). Syntax errors, duplicate keys, several
// documents and empty documents are reported; ok is false when there is no
// tree.
func decodeTree(ps *inputerr.List, data []byte) (tree any, ok bool) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // UTF-8 byte-order mark
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		ps.Add("", "file is empty")
		return nil, false
	}
	var js []byte
	var err error
	if trimmed[0] == '{' || trimmed[0] == '[' {
		// JSON first: it keeps number literals as written and accepts tab
		// indentation, which YAML forbids. Flow-style YAML that is not
		// JSON is read as YAML.
		tree, jerr := decodeJSON(data)
		if jerr == nil {
			return checkRoot(ps, tree)
		}
		var trailing errTrailing
		if js, err = yaml.YAMLToJSONStrict(data); err != nil || errors.As(jerr, &trailing) {
			reportJSONError(ps, data, jerr)
			return nil, false
		}
	} else if js, err = yaml.YAMLToJSONStrict(data); err != nil {
		if !isNonFiniteError(err) || !reportNonFinite(ps, data) {
			reportYAMLError(ps, err)
		}
		return nil, false
	}
	if bytes.Contains(data, []byte("---")) && hasSecondDocument(data) {
		ps.Add("", "the file holds more than one YAML document; give one document per file")
		return nil, false
	}
	tree, err = decodeJSON(js)
	if err != nil { // cannot happen: the YAML library wrote this JSON
		ps.Add("", "cannot convert the YAML to JSON: %v", err)
		return nil, false
	}
	return checkRoot(ps, tree)
}

func checkRoot(ps *inputerr.List, tree any) (any, bool) {
	switch tree.(type) {
	case nil:
		ps.Add("", "file is empty (only comments or null)")
		return nil, false
	case map[string]any:
		return tree, true
	default:
		ps.Add("", "the document must be a mapping with apiVersion and kind, got %s", describe(tree))
		return nil, false
	}
}

// hasSecondDocument reports whether a YAML stream holds a non-empty
// document after its first one (the YAML to JSON conversion reads only the
// first).
func hasSecondDocument(data []byte) bool {
	dec := yamlv2.NewDecoder(bytes.NewReader(data))
	var first, second any
	if dec.Decode(&first) != nil {
		return false
	}
	return dec.Decode(&second) == nil && second != nil
}

// decodeJSON decodes exactly one JSON value, keeping numbers as json.Number.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var extra any
	if err := dec.Decode(&extra); err != io.EOF {
		return nil, errTrailing{offset: dec.InputOffset()}
	}
	return v, nil
}

// errTrailing reports content after the single JSON value of a file.
type errTrailing struct{ offset int64 }

func (e errTrailing) Error() string { return "unexpected content after the JSON document" }

func reportJSONError(ps *inputerr.List, data []byte, err error) {
	var syn *json.SyntaxError
	var tr errTrailing
	switch {
	case errors.As(err, &syn):
		ps.Add(inputerr.AtLine(inputerr.Line(data, syn.Offset)), "invalid JSON: %s", syn.Error())
	case errors.As(err, &tr):
		ps.Add(inputerr.AtLine(inputerr.Line(data, tr.offset)), "%s", tr.Error())
	case errors.Is(err, io.ErrUnexpectedEOF):
		ps.Add("", "invalid JSON: the file ends in the middle of a value")
	default:
		ps.Add("", "invalid JSON: %v", err)
	}
}

var yamlLineRE = regexp.MustCompile(`line (\d+): (.*)`)

// reportYAMLError turns a YAML library error into problems, one per line
// number it mentions.
func reportYAMLError(ps *inputerr.List, err error) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	found := false
	for _, ln := range strings.Split(msg, "\n") {
		if m := yamlLineRE.FindStringSubmatch(ln); m != nil {
			detail := m[2]
			if strings.Contains(detail, "already set in map") {
				detail = "duplicate key: " + detail
			}
			ps.Add("line "+m[1], "invalid YAML: %s", detail)
			found = true
		}
	}
	if !found {
		ps.Add("", "invalid YAML: %s", msg)
	}
}

// describe names the type of a tree value for messages.
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	case string:
		return "the string " + strconv.Quote(clip(v))
	case json.Number:
		return "the number " + clip(v.String())
	case bool:
		return strconv.FormatBool(v)
	default:
		return "an unsupported value"
	}
}

// clipLen bounds how much of a user's value a message repeats.
const clipLen = 60

func clip(s string) string {
	if len(s) <= clipLen {
		return s
	}
	return s[:clipLen] + "..."
}
