package plan

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// KindPart is the kind of the document one shard of a sharded run writes.
const KindPart = "Part"

// Shard is slice Index of Count: the items of a run are split into Count
// deterministic slices, and a shard processes slice Index (0 ≤ Index <
// Count).
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// String writes the shard as the --shard flag reads it: "INDEX/COUNT".
func (s Shard) String() string { return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count) }

// Part is what one shard of a sharded run writes (`--shard i/N`): enough to
// tell which run it belongs to and which items it holds, and the partial
// result. `capplan merge` combines the parts of all N shards into exactly
// the document one unsharded run writes.
//
// The Header is the header of that document: the inputs with their
// digests, the flags that define the run (never the shard or worker
// flags), the seed. Run digests the run's definition, so that parts of
// different runs are told apart before anything is merged.
type Part struct {
	Header
	// Command is the capplan command that wrote the part: "sweep", "dag
	// schedule", "dag bounds" or "dag check".
	Command string `json:"command"`
	// Document is the kind of the merged document (SimulationSweep,
	// DAGSchedule, DAGBounds, DAGCheck).
	Document string `json:"document"`
	// Run is the SHA-256 of the run's definition (RunDigest).
	Run   string `json:"run"`
	Shard Shard  `json:"shard"`
	// Items is the number of items of the whole run: sweep cells, DAG jobs.
	Items int `json:"items"`
	// Slice lists the indices of this shard's items, ascending.
	Slice []int `json:"slice"`
	// Cost is the estimated cost the shard was balanced on.
	Cost PartCost `json:"cost"`
	// Result is the partial result: for DAG commands the document of kind
	// Document holding only the slice's jobs, in slice order; for a sweep a
	// SweepPartResult.
	Result json.RawMessage `json:"result"`
}

// PartCost is the estimated cost of a shard's slice and of the whole run,
// in the unit the command's cost model counts (estimated microseconds of
// one core), and the largest shard's estimate over the mean.
type PartCost struct {
	Unit  string `json:"unit"`
	Slice int64  `json:"slice"`
	Total int64  `json:"total"`
	// MaxOverMean is the estimated cost of the costliest shard over the
	// mean shard cost (1 is perfect balance).
	MaxOverMean float64 `json:"maxOverMean"`
}

// RunDigest returns the SHA-256 of the definition of a sharded run: the
// command, the merged document's kind, the generator, the inputs with
// their digests, the flags, the seed and the number of items. Every shard
// of one run computes the same digest.
func RunDigest(command, document string, h Header, items int) string {
	def := struct {
		Command   string            `json:"command"`
		Document  string            `json:"document"`
		Generator string            `json:"generator"`
		Inputs    []Input           `json:"inputs"`
		Flags     map[string]string `json:"flags"`
		Seed      *int64            `json:"seed"`
		Items     int               `json:"items"`
	}{command, document, h.Generator, h.Inputs, h.Flags, h.Seed, items}
	data, err := json.Marshal(def)
	if err != nil { // cannot happen: strings, ints and maps of strings
		panic("plan: run digest: " + err.Error())
	}
	return Digest(data)
}

// maxListed bounds the shards an error lists.
const maxListed = 10

// NamedPart is a decoded part and the file it came from (for messages).
type NamedPart struct {
	Path string
	Part *Part
}

// CheckParts checks that parts are exactly the N shards of one run: the
// same run digest (else an error saying whether the inputs, the flags, the
// command or the capplan version differ, and how), the same shard count,
// every shard 0 … N−1 once, and slices that cover every item exactly once.
// It returns the parts ordered by shard index.
func CheckParts(parts []NamedPart) ([]NamedPart, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("no part files to merge")
	}
	first := parts[0]
	for _, p := range parts[1:] {
		if err := sameRun(first, p); err != nil {
			return nil, err
		}
	}
	n := first.Part.Shard.Count
	present := map[int]*NamedPart{}
	for i := range parts {
		p := &parts[i]
		s := p.Part.Shard
		if s.Count != n {
			return nil, fmt.Errorf("%s is shard %s but %s is shard %s: parts of a %d-way and a %d-way split cannot be merged",
				p.Path, s, first.Path, first.Part.Shard, s.Count, n)
		}
		if s.Index < 0 || s.Index >= n {
			return nil, fmt.Errorf("%s: shard %s: the index must lie in 0 … %d", p.Path, s, n-1)
		}
		if q := present[s.Index]; q != nil {
			return nil, fmt.Errorf("shard %s is given twice: %s and %s", s, q.Path, p.Path)
		}
		present[s.Index] = p
	}
	if len(present) < n {
		// Name the first few missing shards (n may be large: stop early).
		var missing []string
		for i := 0; i < n && len(missing) < maxListed; i++ {
			if present[i] == nil {
				missing = append(missing, strconv.Itoa(i))
			}
		}
		if n-len(present) > len(missing) {
			missing = append(missing, "…")
		}
		return nil, fmt.Errorf("missing shard %s of %d (have %d of %d part files): run the missing shards, then merge again",
			strings.Join(missing, ", "), n, len(parts), n)
	}
	byIndex := make([]*NamedPart, n)
	for i, p := range present {
		byIndex[i] = p
	}
	// Every item in exactly one slice: the slices, merged, are 0 … Items−1.
	// (Memory follows the slices, so a forged item count cannot exhaust
	// it.)
	type owned struct{ item, shard int }
	var all []owned
	out := make([]NamedPart, n)
	for i, p := range byIndex {
		out[i] = *p
		if !slices.IsSorted(p.Part.Slice) {
			return nil, fmt.Errorf("%s: the slice is not in ascending order", p.Path)
		}
		for _, k := range p.Part.Slice {
			if k < 0 || k >= first.Part.Items {
				return nil, fmt.Errorf("%s: item %d is outside the run's %d items", p.Path, k, first.Part.Items)
			}
			all = append(all, owned{k, i})
		}
	}
	slices.SortStableFunc(all, func(a, b owned) int { return a.item - b.item })
	for k, o := range all {
		if k > 0 && all[k-1].item == o.item {
			q := all[k-1]
			return nil, fmt.Errorf("item %d is in both shard %d (%s) and shard %d (%s)", o.item, q.shard, byIndex[q.shard].Path, o.shard, byIndex[o.shard].Path)
		}
		if o.item != k {
			return nil, fmt.Errorf("item %d of %d is in no shard's slice", k, first.Part.Items)
		}
	}
	if len(all) != first.Part.Items {
		return nil, fmt.Errorf("item %d of %d is in no shard's slice", len(all), first.Part.Items)
	}
	return out, nil
}

// sameRun explains how two parts' runs differ, or returns nil when their
// run digests agree.
func sameRun(a, b NamedPart) error {
	pa, pb := a.Part, b.Part
	if pa.Run == pb.Run {
		return nil
	}
	head := fmt.Sprintf("%s and %s belong to different runs", a.Path, b.Path)
	switch {
	case pa.Command != pb.Command || pa.Document != pb.Document:
		return fmt.Errorf("%s: capplan %s vs capplan %s", head, pa.Command, pb.Command)
	case !slices.Equal(pa.Inputs, pb.Inputs):
		return fmt.Errorf("%s: different inputs: %s", head, inputsDiff(pa.Inputs, pb.Inputs))
	case !maps.Equal(pa.Flags, pb.Flags) || !seedsEqual(pa.Seed, pb.Seed):
		return fmt.Errorf("%s: different flags: %s", head, flagsDiff(pa.Flags, pb.Flags, pa.Seed, pb.Seed))
	case pa.Generator != pb.Generator:
		return fmt.Errorf("%s: made by different capplan versions (%s vs %s)", head, pa.Generator, pb.Generator)
	case pa.Items != pb.Items:
		return fmt.Errorf("%s: %d items vs %d", head, pa.Items, pb.Items)
	}
	return fmt.Errorf("%s: run digests %s and %s differ", head, short(pa.Run), short(pb.Run))
}

// inputsDiff describes the first difference between two input lists.
func inputsDiff(a, b []Input) string {
	for i := range min(len(a), len(b)) {
		x, y := a[i], b[i]
		switch {
		case x.Role != y.Role || x.Path != y.Path:
			return fmt.Sprintf("input %d is %s %s vs %s %s", i+1, x.Role, x.Path, y.Role, y.Path)
		case x.SHA256 != y.SHA256:
			return fmt.Sprintf("%s %s has sha256 %s vs %s", x.Role, x.Path, short(x.SHA256), short(y.SHA256))
		}
	}
	return fmt.Sprintf("%d inputs vs %d", len(a), len(b))
}

// flagsDiff lists the flags whose values differ.
func flagsDiff(a, b map[string]string, sa, sb *int64) string {
	var diffs []string
	if !seedsEqual(sa, sb) {
		diffs = append(diffs, fmt.Sprintf("--seed %s vs %s", seedText(sa), seedText(sb)))
	}
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		va, oka := a[k]
		vb, okb := b[k]
		if va != vb || oka != okb {
			diffs = append(diffs, fmt.Sprintf("--%s %s vs %s", k, flagText(va, oka), flagText(vb, okb)))
		}
	}
	return strings.Join(diffs, ", ")
}

func flagText(v string, ok bool) string {
	if !ok {
		return "(unset)"
	}
	return strconv.Quote(v)
}

func seedText(s *int64) string {
	if s == nil {
		return "(none)"
	}
	return strconv.FormatInt(*s, 10)
}

func seedsEqual(a, b *int64) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// short abbreviates a hex digest for messages.
func short(digest string) string {
	if len(digest) > 12 {
		return digest[:12] + "…"
	}
	return digest
}
