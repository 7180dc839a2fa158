package plan

import (
	"strings"
	"testing"
)

func TestDecodeDocument(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"ok", `{"apiVersion": "capplan/v1", "kind": "PackingPlan", "mode": "ownership", "lambda": 2}`, ""},
		{"empty", " \n", "p.json: empty file"},
		{"syntax", "{\n\"kind\": \"PackingPlan\",\n]", "p.json: line 3: invalid character ']'"},
		{"version", `{"apiVersion": "capplan/v2", "kind": "PackingPlan"}`, `p.json: apiVersion is "capplan/v2", want "capplan/v1"`},
		{"kind", `{"apiVersion": "capplan/v1", "kind": "FairShare"}`, `p.json: kind is "FairShare", want "PackingPlan"`},
		{"type", "{\"apiVersion\": \"capplan/v1\", \"kind\": \"PackingPlan\",\n\"nodes\": [{\"name\": 3}]}", "p.json: line 2: nodes.name: want string, got number"},
		{"header type", `{"apiVersion": 1}`, "p.json: line 1: apiVersion: want string, got number"},
		{"not an object", `[1]`, "p.json: line 1: (document): want plan.Header, got array"},
	}
	for _, tc := range cases {
		var doc PackingPlan
		err := DecodeDocument("p.json", []byte(tc.in), KindPackingPlan, &doc)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want == "" && (doc.Mode != "ownership" || doc.Lambda != 2):
			t.Errorf("%s: decoded %+v", tc.name, doc)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// FuzzDecodeDocument: any input decodes or gives an error naming the file;
// never a panic.
func FuzzDecodeDocument(f *testing.F) {
	f.Add([]byte(`{"apiVersion": "capplan/v1", "kind": "PackingPlan", "mode": "ownership", "nodes": [{"name": "a", "containers": [{"shape": "s", "owner": "o", "size": {"cpu": 1}}]}]}`))
	f.Add([]byte(`{"apiVersion": "capplan/v1", "kind": "ShapeCatalog", "shapes": [{"name": "s", "size": {"cpu": 1}}]}`))
	f.Add([]byte("{\n\"kind\": 1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var doc PackingPlan
		if err := DecodeDocument("f.json", data, KindPackingPlan, &doc); err != nil && !strings.HasPrefix(err.Error(), "f.json: ") {
			t.Fatalf("error does not name the file: %v", err)
		}
		var cat ShapeCatalog
		if err := DecodeDocument("f.json", data, KindShapeCatalog, &cat); err == nil {
			_ = CheckCatalogDocument("f.json", &cat, []string{"cpu", "memory"})
		}
	})
}
