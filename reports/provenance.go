package reports

import (
	"maps"
	"slices"

	"github.com/capplan/capplan/plan"
)

// addProvenance appends a document's provenance to a key/value table: the
// generator, every input with its SHA-256 digest, the seed and the flags
// in name order.
func addProvenance(t *Table, h *plan.Header) {
	add := func(key string, v Cell) { t.AddRow(TextCell(key), v) }
	add("generator", TextCell(h.Generator))
	for _, in := range h.Inputs {
		add("input "+in.Role, TextCell(in.Path))
		add("input "+in.Role+" sha256", TextCell(in.SHA256))
	}
	if h.Seed != nil {
		add("seed", IntCell(*h.Seed))
	}
	for _, name := range slices.Sorted(maps.Keys(h.Flags)) {
		add("flag "+name, TextCell(h.Flags[name]))
	}
}
