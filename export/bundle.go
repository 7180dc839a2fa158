package export

import (
	"bytes"
	"fmt"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
)

// ExportDir holds the scheduler exports inside a bundle:
// export/yarn/..., export/k8s/..., export/kueue/....
const ExportDir = "export"

// BundleFiles renders every file of a plan bundle from its documents (no
// solving), in the order they are listed:
//
//   - each step's document (b.Plan.Steps: Bundle's documents by kind and
//     mode) as JSON, exactly as the step's own command writes it; its
//     digest goes into the step;
//   - with a FairShare, the YARN, Kubernetes and Kueue exports under
//     export/ (Input: the FairShare, the ownership packing naming each
//     type's nodes, and demand); what the targets cannot express comes
//     back as warnings;
//   - report.html, report.xlsx and figures/*.svg (Report), which list the
//     exports' warnings after the plan's;
//   - plan.json last: b.Plan with every other file and its digest
//     (Plan.Files), checked by plan.Plan.Validate.
//
// b.Plan's steps and files are filled in place. Identical documents give
// identical bytes.
func BundleFiles(b *plan.Bundle, demand *datasets.Demand) (*Export, error) {
	p := b.Plan
	if p == nil {
		return nil, fmt.Errorf("export: a bundle needs its index")
	}
	var files []File
	for i := range p.Steps {
		s := &p.Steps[i]
		doc, err := stepDocument(b, *s)
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		if err := reports.WriteJSON(&buf, doc); err != nil {
			return nil, err
		}
		s.SHA256 = plan.Digest(buf.Bytes())
		files = append(files, File{Path: s.File, Data: buf.Bytes()})
	}
	var warnings []string
	if b.FairShare != nil {
		in := Input{FairShare: b.FairShare, Packing: b.Ownership, Demand: demand}
		for _, target := range []func(Input) (*Export, error){YARN, Kubernetes, Kueue} {
			e, err := target(in)
			if err != nil {
				return nil, err
			}
			for _, f := range e.Files {
				f.Path = ExportDir + "/" + f.Path
				files = append(files, f)
			}
			warnings = append(warnings, e.Warnings...)
		}
	}
	r, err := Report(b, reports.HTMLOptions{Warnings: warnings})
	if err != nil {
		return nil, err
	}
	files = append(files, r.Files...)
	p.Files = p.Files[:0]
	for _, f := range files[len(p.Steps):] {
		p.Files = append(p.Files, plan.PlanFileRef{File: f.Path, SHA256: plan.Digest(f.Data)})
	}
	if err := p.Validate(plan.PlanFile); err != nil {
		return nil, fmt.Errorf("export: internal error: %w", err)
	}
	var index bytes.Buffer
	if err := reports.WriteJSON(&index, p); err != nil {
		return nil, err
	}
	files = append(files, File{Path: plan.PlanFile, Data: index.Bytes()})
	return &Export{Files: files, Warnings: warnings}, nil
}

// stepDocument is the document of a bundle step: the Bundle field of its
// kind (PackingPlans by step name).
func stepDocument(b *plan.Bundle, s plan.PlanStep) (any, error) {
	switch {
	case s.Kind == plan.KindFairShare && b.FairShare != nil:
		return b.FairShare, nil
	case s.Kind == plan.KindShapeCatalog && b.Shapes != nil:
		return b.Shapes, nil
	case s.Kind == plan.KindPackingPlan && s.Name == plan.StepOwnership && b.Ownership != nil:
		return b.Ownership, nil
	case s.Kind == plan.KindPackingPlan && s.Name == plan.StepSizing && b.Sizing != nil:
		return b.Sizing, nil
	case s.Kind == plan.KindDAGSchedule && b.DAG != nil:
		return b.DAG, nil
	case s.Kind == plan.KindSimulationSet && b.Simulation != nil:
		return b.Simulation, nil
	}
	return nil, fmt.Errorf("export: step %q (%s) has no document", s.Name, s.Kind)
}
