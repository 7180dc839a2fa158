package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The merges of DAG documents: each part's Result is the document of one
// unsharded run restricted to the part's slice of jobs (in slice order),
// with the summary and search counters of that slice. Putting every job
// back at its index and recomputing the aggregates from the jobs gives the
// document of the unsharded run exactly: the aggregates are sums and
// maxima over the jobs in input order, computed by the same functions
// (Summarize), and JSON numbers survive a decode/encode round trip
// unchanged.

// MergeDAGSchedule merges the parts (checked by CheckParts) of a sharded
// `dag schedule`.
func MergeDAGSchedule(parts []NamedPart) (*DAGSchedule, error) {
	docs, err := decodeResults[DAGSchedule](parts, KindDAGSchedule)
	if err != nil {
		return nil, err
	}
	jobs, err := gatherJobs(parts, func(i int) []DAGJob { return docs[i].Jobs })
	if err != nil {
		return nil, err
	}
	cut := false
	for _, d := range docs {
		cut = cut || (d.Search != nil && d.Search.CutByTimeLimit)
	}
	err = sameSkeleton(parts, func(i int) any {
		d := *docs[i]
		d.Jobs, d.Summary = nil, DAGSummary{}
		if d.Search != nil {
			s := *d.Search
			s.WorkUsed, s.CutByTimeLimit = 0, false
			d.Search = &s
		}
		return &d
	})
	if err != nil {
		return nil, err
	}
	out := docs[0]
	out.Jobs = jobs
	out.Summarize()
	if out.Search != nil {
		out.Search.CutByTimeLimit = cut
	}
	return out, nil
}

// MergeDAGBounds merges the parts of a sharded `dag bounds`.
func MergeDAGBounds(parts []NamedPart) (*DAGBounds, error) {
	docs, err := decodeResults[DAGBounds](parts, KindDAGBounds)
	if err != nil {
		return nil, err
	}
	jobs, err := gatherJobs(parts, func(i int) []DAGJobInfo { return docs[i].Jobs })
	if err != nil {
		return nil, err
	}
	err = sameSkeleton(parts, func(i int) any {
		d := *docs[i]
		d.Jobs = nil
		return &d
	})
	if err != nil {
		return nil, err
	}
	out := docs[0]
	out.Jobs = jobs
	return out, nil
}

// MergeDAGCheck merges the parts of a sharded `dag check`.
func MergeDAGCheck(parts []NamedPart) (*DAGCheck, error) {
	docs, err := decodeResults[DAGCheck](parts, KindDAGCheck)
	if err != nil {
		return nil, err
	}
	jobs, err := gatherJobs(parts, func(i int) []DAGCheckJob { return docs[i].Jobs })
	if err != nil {
		return nil, err
	}
	err = sameSkeleton(parts, func(i int) any {
		d := *docs[i]
		d.Jobs, d.Summary = nil, DAGCheckSummary{}
		return &d
	})
	if err != nil {
		return nil, err
	}
	out := docs[0]
	out.Jobs = jobs
	out.Summarize()
	return out, nil
}

// decodeResults decodes every part's Result as a document of kind D and
// checks that its header is the part's.
func decodeResults[D any](parts []NamedPart, kind string) ([]*D, error) {
	docs := make([]*D, len(parts))
	for i, p := range parts {
		docs[i] = new(D)
		if err := DecodeDocument(p.Path+": result", p.Part.Result, kind, docs[i]); err != nil {
			return nil, err
		}
	}
	return docs, nil
}

// gatherJobs puts the jobs of every part at the indices of its slice.
func gatherJobs[J any](parts []NamedPart, jobsOf func(i int) []J) ([]J, error) {
	out := make([]J, parts[0].Part.Items)
	for i, p := range parts {
		js := jobsOf(i)
		if len(js) != len(p.Part.Slice) {
			return nil, fmt.Errorf("%s: the result holds %d jobs but the slice lists %d", p.Path, len(js), len(p.Part.Slice))
		}
		for k, idx := range p.Part.Slice {
			out[idx] = js[k]
		}
	}
	return out, nil
}

// sameSkeleton checks that every part's result, without its jobs and the
// aggregates over them (skeleton(i)), is the same, and that its header is
// the part's: parts of one run agree on the machines, the rejected jobs
// and every other field.
func sameSkeleton(parts []NamedPart, skeleton func(i int) any) error {
	var first []byte
	for i, p := range parts {
		data, err := json.Marshal(skeleton(i))
		if err != nil {
			return fmt.Errorf("%s: %w", p.Path, err)
		}
		if i == 0 {
			first = data
		} else if !bytes.Equal(data, first) {
			return fmt.Errorf("%s and %s belong to the same run but their results differ beyond their jobs (machines, rejected jobs or header): were they edited?", parts[0].Path, p.Path)
		}
		var h struct{ Header }
		if err := json.Unmarshal(p.Part.Result, &h); err != nil {
			return fmt.Errorf("%s: result: %w", p.Path, err)
		}
		h.Kind = p.Part.Kind
		hp, _ := json.Marshal(p.Part.Header)
		hr, _ := json.Marshal(h.Header)
		if !bytes.Equal(hp, hr) {
			return fmt.Errorf("%s: the result's header differs from the part's: was it edited?", p.Path)
		}
	}
	return nil
}
