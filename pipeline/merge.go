package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/plan"
)

// PartFileName is the file a shard's part is written to in an output
// directory: "<command>-part-<i>-of-<N>.json" with the command's last word
// ("sweep", "schedule", "bounds", "check").
func PartFileName(command string, s plan.Shard) string {
	words := strings.Fields(command)
	return fmt.Sprintf("%s-part-%d-of-%d.json", words[len(words)-1], s.Index, s.Count)
}

// partFileRE matches the names PartFileName gives.
var partFileRE = regexp.MustCompile(`^[a-z]+-part-[0-9]+-of-[0-9]+\.json$`)

// SweepPartsDir is the directory of a sweep's output directory that holds
// its parts.
const SweepPartsDir = "parts"

// MergeOptions name the parts to merge.
type MergeOptions struct {
	// Paths are part files, or directories whose part files (named as
	// PartFileName names them, directly inside or in their parts/
	// subdirectory) are all merged.
	Paths []string
}

// MergeResult is the merged document: one of *plan.DAGSchedule,
// *plan.DAGBounds, *plan.DAGCheck and *plan.SimulationSweep, with its kind
// and the number of parts it came from.
type MergeResult struct {
	Kind  string
	Doc   any
	Parts int
}

// Merge combines the parts of the N shards of one run into the document
// the unsharded run writes, byte for byte once encoded alike:
//
//  1. read every part (a file, or the part files of a directory);
//  2. check that they are exactly shards 0 … N−1 of one run
//     (plan.CheckParts: same inputs, flags and version, no shard missing
//     or repeated, every item in exactly one slice);
//  3. put every item back at its index and recompute what the whole run
//     computes from all items: the DAG summaries, and for a sweep the
//     pairing with the baseline and the aggregates across seeds
//     (buildSweepDoc, as Sweep does).
func Merge(o MergeOptions) (*MergeResult, error) {
	files, err := partFiles(o.Paths)
	if err != nil {
		return nil, err
	}
	parts := make([]plan.NamedPart, len(files))
	for i, f := range files {
		p, err := readPart(f)
		if err != nil {
			return nil, err
		}
		parts[i] = plan.NamedPart{Path: f, Part: p}
	}
	parts, err = plan.CheckParts(parts)
	if err != nil {
		return nil, err
	}
	out := &MergeResult{Kind: parts[0].Part.Document, Parts: len(parts)}
	switch out.Kind {
	case plan.KindDAGSchedule:
		out.Doc, err = plan.MergeDAGSchedule(parts)
	case plan.KindDAGBounds:
		out.Doc, err = plan.MergeDAGBounds(parts)
	case plan.KindDAGCheck:
		out.Doc, err = plan.MergeDAGCheck(parts)
	case plan.KindSimulationSweep:
		out.Doc, err = mergeSweep(parts)
	default:
		err = fmt.Errorf("%s: parts of a %s cannot be merged (known: %s, %s, %s, %s)", parts[0].Path, out.Kind,
			plan.KindSimulationSweep, plan.KindDAGSchedule, plan.KindDAGBounds, plan.KindDAGCheck)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// partFiles expands directories into their part files, in name order, and
// refuses a path named twice.
func partFiles(paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, optionErrorf("give the part files to merge, or the directories that hold them")
	}
	var out []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, datasetsOpenError(err))
		}
		if !fi.IsDir() {
			out = append(out, p)
			continue
		}
		var found []string
		for _, dir := range []string{p, filepath.Join(p, SweepPartsDir)} {
			entries, err := os.ReadDir(dir)
			if err != nil {
				continue
			}
			for _, e := range entries {
				if !e.IsDir() && partFileRE.MatchString(e.Name()) {
					found = append(found, filepath.Join(dir, e.Name()))
				}
			}
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no part files (NAME-part-I-of-N.json) in it or in its %s/ directory", p, SweepPartsDir)
		}
		slices.SortFunc(found, comparePartNames)
		out = append(out, found...)
	}
	for i, f := range out {
		for _, g := range out[:i] {
			if filepath.Clean(f) == filepath.Clean(g) {
				return nil, optionErrorf("%s is given twice", f)
			}
		}
	}
	return out, nil
}

// comparePartNames orders part files by shard index (numerically), then
// by name.
func comparePartNames(a, b string) int {
	num := func(s string) int {
		base := filepath.Base(s)
		i := strings.Index(base, "-part-")
		if i < 0 {
			return 0
		}
		rest := base[i+len("-part-"):]
		n, _ := strconv.Atoi(rest[:strings.Index(rest, "-")])
		return n
	}
	if d := num(a) - num(b); d != 0 {
		return d
	}
	return strings.Compare(a, b)
}

// datasetsOpenError words a stat error as the input readers do.
func datasetsOpenError(err error) error {
	if os.IsNotExist(err) {
		return fmt.Errorf("no such file or directory")
	}
	return err
}

// readPart reads and decodes one part file.
func readPart(path string) (*plan.Part, error) {
	data, err := datasets.ReadFile(path, 0)
	if err != nil {
		return nil, err
	}
	var p plan.Part
	if err := plan.DecodeDocument(path, data, plan.KindPart, &p); err != nil {
		return nil, err
	}
	switch {
	case p.Shard.Count < 1:
		return nil, fmt.Errorf("%s: shard %s: the count must be at least 1", path, p.Shard)
	case p.Items < 0 || len(p.Slice) > p.Items:
		return nil, fmt.Errorf("%s: %d items in the slice of a run of %d", path, len(p.Slice), p.Items)
	case len(bytes.TrimSpace(p.Result)) == 0 || bytes.Equal(bytes.TrimSpace(p.Result), []byte("null")):
		return nil, fmt.Errorf("%s: the part has no result", path)
	case p.Run == "" || p.Document == "":
		return nil, fmt.Errorf("%s: the part names no run or document kind", path)
	}
	return &p, nil
}

// mergeSweep merges the parts of a sharded sweep.
func mergeSweep(parts []plan.NamedPart) (*plan.SimulationSweep, error) {
	var all plan.SweepPartResult
	var first []byte
	for i, p := range parts {
		var r plan.SweepPartResult
		if err := json.Unmarshal(p.Part.Result, &r); err != nil {
			return nil, fmt.Errorf("%s: result: %w", p.Path, err)
		}
		info, _ := json.Marshal(r.Sweep)
		if i == 0 {
			first, all.Sweep = info, r.Sweep
			all.Cells = make([]plan.SweepPartCell, p.Part.Items)
		} else if !bytes.Equal(info, first) {
			return nil, fmt.Errorf("%s and %s belong to the same run but describe different sweeps: were they edited?", parts[0].Path, p.Path)
		}
		if len(r.Cells) != len(p.Part.Slice) {
			return nil, fmt.Errorf("%s: the result holds %d cells but the slice lists %d", p.Path, len(r.Cells), len(p.Part.Slice))
		}
		for k, idx := range p.Part.Slice {
			if r.Cells[k].Index != idx {
				return nil, fmt.Errorf("%s: cell %d of the result is cell %d, but the slice says %d", p.Path, k, r.Cells[k].Index, idx)
			}
			all.Cells[idx] = r.Cells[k]
		}
	}
	h := parts[0].Part.Header
	h.Kind = plan.KindSimulationSweep
	return buildSweepDoc(h, all), nil
}
