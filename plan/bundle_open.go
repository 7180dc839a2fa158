package plan

import (
	"errors"
	"fmt"
	"io/fs"
)

// Bundle is a plan bundle read back: its index and the documents of its
// steps, decoded. Documents the bundle lacks are nil.
type Bundle struct {
	Plan      *Plan
	FairShare *FairShare
	Shapes    *ShapeCatalog
	// Ownership is the ownership PackingPlan (X-Select), Sizing the
	// sizing one (minimum nodes or cheapest mix).
	Ownership *PackingPlan
	Sizing    *PackingPlan
	DAG       *DAGSchedule
	// Simulation is the simulated check of the plan: the workload run on
	// the ownership packing's containers under the chosen policies.
	Simulation *SimulationSet
	// Other are the steps whose kind this reader does not know, kept
	// unread (a newer writer's).
	Other []PlanStep
}

// ErrDigest is returned (wrapped, naming the file) when a file of a bundle
// does not match the digest its index records.
var ErrDigest = errors.New("plan: file does not match its digest in plan.json")

// OpenBundle reads the bundle in fsys (os.DirFS of the bundle directory):
// plan.json, validated, then every step's document, each checked against
// its SHA-256 digest before it is decoded. The other files (reports,
// exports) are views that `capplan report` may re-render, so they are not
// checked here; VerifyFiles checks them. Errors name the file. Cost
// O(size of the documents).
func OpenBundle(fsys fs.FS) (*Bundle, error) {
	data, err := fs.ReadFile(fsys, PlanFile)
	if err != nil {
		return nil, fmt.Errorf("plan: reading the bundle index: %w", err)
	}
	p, err := DecodePlan(PlanFile, data)
	if err != nil {
		return nil, err
	}
	b := &Bundle{Plan: p}
	for _, s := range p.Steps {
		data, err := readChecked(fsys, s.File, s.SHA256)
		if err != nil {
			return nil, err
		}
		if err := b.add(s, data); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// VerifyFiles checks every non-document file the index lists against its
// digest, reporting each one that is missing or differs.
func (p *Plan) VerifyFiles(fsys fs.FS) error {
	var errs []error
	for _, f := range p.Files {
		if _, err := readChecked(fsys, f.File, f.SHA256); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// readChecked reads a file of the bundle and checks its digest.
func readChecked(fsys fs.FS, name, digest string) ([]byte, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("plan: %s is listed in %s: %w", name, PlanFile, err)
	}
	if got := Digest(data); got != digest {
		return nil, fmt.Errorf("%w: %s has sha256 %s, %s records %s", ErrDigest, name, got, PlanFile, digest)
	}
	return data, nil
}

// add decodes one step's document into its place in the bundle.
func (b *Bundle) add(s PlanStep, data []byte) error {
	switch s.Kind {
	case KindFairShare:
		return decodeOnce(&b.FairShare, s, data)
	case KindShapeCatalog:
		return decodeOnce(&b.Shapes, s, data)
	case KindDAGSchedule:
		return decodeOnce(&b.DAG, s, data)
	case KindSimulationSet:
		return decodeOnce(&b.Simulation, s, data)
	case KindPackingPlan:
		var doc PackingPlan
		if err := DecodeDocument(s.File, data, s.Kind, &doc); err != nil {
			return err
		}
		switch doc.Mode {
		case "ownership":
			return setOnce(&b.Ownership, &doc, s)
		case "sizing":
			return setOnce(&b.Sizing, &doc, s)
		}
		return fmt.Errorf("%s: mode is %q, want ownership or sizing", s.File, doc.Mode)
	}
	b.Other = append(b.Other, s)
	return nil
}

func decodeOnce[T any](dst **T, s PlanStep, data []byte) error {
	doc := new(T)
	if err := DecodeDocument(s.File, data, s.Kind, doc); err != nil {
		return err
	}
	return setOnce(dst, doc, s)
}

func setOnce[T any](dst **T, doc *T, s PlanStep) error {
	if *dst != nil {
		return fmt.Errorf("%s: step %q is a second %s document; a bundle holds one of each", PlanFile, s.Name, s.Kind)
	}
	*dst = doc
	return nil
}
