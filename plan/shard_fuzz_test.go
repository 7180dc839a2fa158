package plan

import (
	"encoding/json"
	"testing"
)

// FuzzMergeParts decodes a part and merges it as a run of one shard: the
// decoder, CheckParts and the DAG merges must never panic or allocate by a
// forged count, and a merge must keep every job of the slice.
func FuzzMergeParts(f *testing.F) {
	doc := DAGBounds{Header: Header{APIVersion: APIVersion, Kind: KindDAGBounds, Generator: "g", Inputs: []Input{}},
		Format: "workload", Machines: []DAGMachineGroup{}, Jobs: []DAGJobInfo{{Name: "a", Resources: []string{}}, {Name: "b", Resources: []string{}}}}
	result, _ := json.Marshal(doc)
	h := Header{APIVersion: APIVersion, Kind: KindPart, Generator: "g", Inputs: []Input{}}
	p := Part{Header: h, Command: "dag bounds", Document: KindDAGBounds, Run: RunDigest("dag bounds", KindDAGBounds, h, 2),
		Shard: Shard{Index: 0, Count: 1}, Items: 2, Slice: []int{0, 1}, Result: result}
	seed, _ := json.Marshal(p)
	f.Add(seed)
	f.Add([]byte(`{"apiVersion":"capplan/v1","kind":"Part","shard":{"index":0,"count":1000000000000},"items":9000000000000000000,"slice":[0]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var p Part
		if DecodeDocument("fuzz", data, KindPart, &p) != nil {
			return
		}
		parts, err := CheckParts([]NamedPart{{Path: "fuzz", Part: &p}})
		if err != nil {
			return
		}
		var jobs int
		switch p.Document {
		case KindDAGBounds:
			d, err := MergeDAGBounds(parts)
			if err != nil {
				return
			}
			jobs = len(d.Jobs)
		case KindDAGSchedule:
			d, err := MergeDAGSchedule(parts)
			if err != nil {
				return
			}
			jobs = len(d.Jobs)
		case KindDAGCheck:
			d, err := MergeDAGCheck(parts)
			if err != nil {
				return
			}
			jobs = len(d.Jobs)
		default:
			return
		}
		if jobs != p.Items || jobs != len(p.Slice) {
			t.Fatalf("merged %d jobs of a part with %d items and a slice of %d", jobs, p.Items, len(p.Slice))
		}
	})
}
