package plan

import (
	"strings"
	"testing"
)

// part makes shard i of n of a run over items, holding slice.
func part(path string, i, n, items int, slice []int, inputs []Input, flags map[string]string) NamedPart {
	h := Header{APIVersion: APIVersion, Kind: KindPart, Generator: "capplan test", Inputs: inputs, Flags: flags}
	return NamedPart{Path: path, Part: &Part{Header: h, Command: "dag bounds", Document: KindDAGBounds,
		Run: RunDigest("dag bounds", KindDAGBounds, h, items), Shard: Shard{Index: i, Count: n}, Items: items, Slice: slice}}
}

func TestCheckParts(t *testing.T) {
	in := []Input{{Role: "alibaba", Path: "b.csv", SHA256: "1111111111111111"}}
	other := []Input{{Role: "alibaba", Path: "b.csv", SHA256: "2222222222222222"}}
	flags := map[string]string{"machines": "2"}
	ok := func() []NamedPart {
		return []NamedPart{part("p1", 1, 3, 5, []int{1, 4}, in, flags), part("p0", 0, 3, 5, []int{0, 3}, in, flags), part("p2", 2, 3, 5, []int{2}, in, flags)}
	}
	got, err := CheckParts(ok())
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range got {
		if p.Part.Shard.Index != i {
			t.Errorf("position %d holds shard %d: want parts ordered by shard", i, p.Part.Shard.Index)
		}
	}
	cases := []struct {
		name  string
		parts func() []NamedPart
		want  string
	}{
		{"missing shard", func() []NamedPart { return ok()[:2] }, "missing shard 2 of 3"},
		{"repeated shard", func() []NamedPart {
			return append(ok(), part("p0-copy", 0, 3, 5, []int{0, 3}, in, flags))
		}, "shard 0/3 is given twice: p0 and p0-copy"},
		{"other input", func() []NamedPart {
			ps := ok()
			ps[2] = part("p2", 2, 3, 5, []int{2}, other, flags)
			return ps
		}, "p1 and p2 belong to different runs: different inputs: alibaba b.csv has sha256 111111111111… vs 222222222222…"},
		{"other flags", func() []NamedPart {
			ps := ok()
			ps[1] = part("p0", 0, 3, 5, []int{0, 3}, in, map[string]string{"machines": "4"})
			return ps
		}, `different flags: --machines "2" vs "4"`},
		{"other split", func() []NamedPart {
			ps := ok()
			ps[2] = part("p2", 2, 4, 5, []int{2}, in, flags)
			return ps
		}, "parts of a 4-way and a 3-way split"},
		{"overlapping slices", func() []NamedPart {
			ps := ok()
			ps[2] = part("p2", 2, 3, 5, []int{2, 3}, in, flags)
			return ps
		}, "item 3 is in both shard 0 (p0) and shard 2 (p2)"},
		{"uncovered item", func() []NamedPart {
			ps := ok()
			ps[2] = part("p2", 2, 3, 5, []int{}, in, flags)
			return ps
		}, "item 2 of 5 is in no shard's slice"},
		{"none", func() []NamedPart { return nil }, "no part files"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CheckParts(tc.parts())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestRunDigest(t *testing.T) {
	seed := int64(1)
	h := Header{Generator: "g", Inputs: []Input{{Role: "r", Path: "p", SHA256: "s"}}, Flags: map[string]string{"a": "1"}, Seed: &seed}
	d := RunDigest("dag schedule", KindDAGSchedule, h, 10)
	if d != RunDigest("dag schedule", KindDAGSchedule, h, 10) || len(d) != 64 {
		t.Fatalf("digest %q is not a stable SHA-256", d)
	}
	seed2 := int64(2)
	for name, other := range map[string]string{
		"command": RunDigest("dag bounds", KindDAGSchedule, h, 10),
		"items":   RunDigest("dag schedule", KindDAGSchedule, h, 11),
		"seed":    RunDigest("dag schedule", KindDAGSchedule, Header{Generator: "g", Inputs: h.Inputs, Flags: h.Flags, Seed: &seed2}, 10),
		"flags":   RunDigest("dag schedule", KindDAGSchedule, Header{Generator: "g", Inputs: h.Inputs, Flags: map[string]string{"a": "2"}, Seed: &seed}, 10),
	} {
		if other == d {
			t.Errorf("a different %s gives the same digest", name)
		}
	}
}
