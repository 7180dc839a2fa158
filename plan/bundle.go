package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"strings"
)

// KindPlan is the kind of the index document of a plan bundle.
const KindPlan = "Plan"

// PlanFile is the name of the index document at the root of a bundle.
const PlanFile = "plan.json"

// Step names of a bundle, in pipeline order. A bundle may hold steps of
// other names (newer writers); readers keep them as Bundle.Other.
const (
	StepFairShare = "fairshare"
	StepShapes    = "shapes"
	StepOwnership = "ownership"
	StepSizing    = "sizing"
	StepDAG       = "dag"
	// StepSimulation is the simulated check of the plan (a
	// SimulationSet).
	StepSimulation = "simulation"
)

// Plan is the index document of a plan bundle (`capplan plan -o DIR`):
// which command made the bundle from which inputs, and every step's
// document by file name and SHA-256 digest, so that each document can be
// checked against the index and re-verified without re-solving.
//
// The Header records the generator, every input with its digest, the
// flags and the seed. Documents are separate files of the bundle
// directory, each the same document the step's own command writes.
type Plan struct {
	Header
	// CommandLine is the command that made the bundle, one argument per
	// entry, starting with the program ("capplan", "plan", "-c", ...).
	CommandLine []string `json:"commandLine"`
	// Steps are the pipeline's steps, in the order they ran.
	Steps []PlanStep `json:"steps"`
	// Warnings name every problem the plan met (a demand no machine can
	// hold, a job larger than any machine, ...), each with its step; a
	// bundle with warnings holds the feasible part of the plan.
	Warnings []PlanWarning `json:"warnings"`
	// Files lists the other files of the bundle (reports, figures,
	// exports) with their digests, so a copy can be checked whole.
	Files []PlanFileRef `json:"files,omitempty"`
	// SizingCurve, optional, is the cost of sizing the cluster for a
	// range of node counts or demand levels, one point per sizing solved
	// (the sizing PackingPlan holds one point: its own). Reports draw it as
	// the cost-vs-nodes curve.
	SizingCurve []SizingPoint `json:"sizingCurve,omitempty"`
}

// PlanStep is one step of a bundle and its document.
type PlanStep struct {
	// Name says what the step did (StepFairShare, StepShapes, ...).
	Name string `json:"name"`
	// Kind is the document's kind (FairShare, ShapeCatalog, ...).
	Kind string `json:"kind"`
	// File is the document's path in the bundle, slash-separated and
	// relative ("fairshare.json").
	File string `json:"file"`
	// SHA256 is the lowercase hex SHA-256 digest of the file's bytes.
	SHA256 string `json:"sha256"`
}

// PlanWarning is one problem of a plan, in the user's words.
type PlanWarning struct {
	Step    string `json:"step,omitempty"`
	Message string `json:"message"`
}

// PlanFileRef is a non-document file of a bundle and its digest.
type PlanFileRef struct {
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

// SizingPoint is one solved sizing: Nodes bought at Cost (in the node
// prices' unit; the node count when nodes are unpriced), with the lower
// bound on the cost proved for it. Label says what varied ("forecast ×
// 1.25", "std only").
type SizingPoint struct {
	Label      string  `json:"label,omitempty"`
	Nodes      int     `json:"nodes"`
	Cost       float64 `json:"cost"`
	LowerBound float64 `json:"lowerBound,omitempty"`
}

// Digest is the lowercase hex SHA-256 digest of data, as documents record
// their inputs and bundles their files.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// DecodePlan parses and validates the index document of a bundle (named
// name in errors): DecodeDocument, then Validate.
func DecodePlan(name string, data []byte) (*Plan, error) {
	var p Plan
	if err := DecodeDocument(name, data, KindPlan, &p); err != nil {
		return nil, err
	}
	if err := p.Validate(name); err != nil {
		return nil, err
	}
	return &p, nil
}

// Validate checks what readers of a bundle rely on, reporting every
// problem with its field path ("plan.json: steps[1].sha256: ..."): a
// command line; at least one step, each with a unique name, a kind, a
// clean relative file name (not plan.json, no "..") used once, and a
// 64-digit lowercase hex digest; inputs with such digests; warnings with
// messages; sizing points with finite, non-negative numbers.
func (p *Plan) Validate(name string) error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s: %s", name, field, fmt.Sprintf(format, args...)))
	}
	if len(p.CommandLine) == 0 {
		bad("commandLine", "missing: a bundle records the command that made it")
	}
	for i, in := range p.Inputs {
		if !isDigest(in.SHA256) {
			bad(fmt.Sprintf("inputs[%d].sha256", i), "want 64 lowercase hex digits, got %q", in.SHA256)
		}
	}
	if len(p.Steps) == 0 {
		bad("steps", "a bundle has at least one step")
	}
	files := map[string]string{}
	// checkFile checks one file reference: a clean relative path, used
	// once in the bundle, and a digest.
	checkFile := func(field, file, digest string) {
		if err := checkBundlePath(file); err != nil {
			bad(field+".file", "%v", err)
		} else if prev, dup := files[file]; dup {
			bad(field+".file", "%q is also the file of %s", file, prev)
		} else {
			files[file] = field
		}
		if !isDigest(digest) {
			bad(field+".sha256", "want 64 lowercase hex digits, got %q", digest)
		}
	}
	names := map[string]int{}
	for i, s := range p.Steps {
		field := fmt.Sprintf("steps[%d]", i)
		if s.Name == "" {
			bad(field+".name", "missing")
		} else if j, dup := names[s.Name]; dup {
			bad(field+".name", "%q is also the name of steps[%d]", s.Name, j)
		} else {
			names[s.Name] = i
		}
		if s.Kind == "" {
			bad(field+".kind", "missing")
		}
		checkFile(field, s.File, s.SHA256)
	}
	for i, f := range p.Files {
		field := fmt.Sprintf("files[%d]", i)
		checkFile(field, f.File, f.SHA256)
	}
	for i, w := range p.Warnings {
		if strings.TrimSpace(w.Message) == "" {
			bad(fmt.Sprintf("warnings[%d].message", i), "missing")
		}
	}
	for i, pt := range p.SizingCurve {
		field := fmt.Sprintf("sizingCurve[%d]", i)
		if pt.Nodes < 0 {
			bad(field+".nodes", "negative: %d", pt.Nodes)
		}
		for _, v := range []struct {
			name string
			x    float64
		}{{"cost", pt.Cost}, {"lowerBound", pt.LowerBound}} {
			if math.IsNaN(v.x) || math.IsInf(v.x, 0) || v.x < 0 {
				bad(field+"."+v.name, "want a finite number ≥ 0, got %v", v.x)
			}
		}
	}
	return errors.Join(errs...)
}

// checkBundlePath accepts a clean, relative, slash-separated path inside
// the bundle other than the index itself.
func checkBundlePath(p string) error {
	switch {
	case p == "":
		return errors.New("missing")
	case !fs.ValidPath(p) || p == ".":
		return fmt.Errorf("%q is not a clean relative path inside the bundle", p)
	case path.Clean(p) == PlanFile:
		return fmt.Errorf("%q is the bundle's index", p)
	}
	return nil
}

func isDigest(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
