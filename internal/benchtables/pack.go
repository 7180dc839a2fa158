package main

import (
	"fmt"
	"math"
	"os"
	"time"

	"github.com/capplan/capplan/binpack/xselect"
	"github.com/capplan/capplan/binpack/xsize"
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
)

// packTable prints X-Select ownership packing on google-like clusters, the
// same path as `capplan pack --shapes` (coalescing, the X-Size catalog by
// local search, fair shares, X-Select, the independent check): λ against
// its upper bound, containers packed, the largest share deviation, and the
// time of X-Select alone and of the whole plan (catalog excluded).
func packTable(quick bool) error {
	sizes := [][3]int{{50, 20, 1000}, {200, 100, 10_000}}
	if quick {
		sizes = sizes[:1]
	}
	t := reports.Table{
		Title: "X-Select ownership packing (google-like clusters, K = 8 shapes, fair shares; target: 100,000 containers on 10,000 nodes ≤ 10 s)",
		Header: []string{"apps × types × nodes", "containers", "required", "λ", "λ / upper", "max |deviation|",
			"x-select", "plan total"},
		Align: []reports.Align{reports.AlignLeft, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight,
			reports.AlignRight, reports.AlignRight, reports.AlignRight},
	}
	for _, sz := range sizes {
		c, d := datasets.GoogleLike(datasets.GoogleParams{Users: sz[0], Types: sz[1], Machines: sz[2]}, 1)
		// Scale the request counts so the forecast is about ten
		// containers per node.
		for a := range d.Applications {
			for r := range d.Applications[a].Requests {
				d.Applications[a].Requests[r].Count *= int64(max(1, 10*sz[2]/(sz[0]*60)))
			}
		}
		si, err := plan.NewShapeInput(c, d, 8, xsize.SumCost, false)
		if err != nil {
			return err
		}
		sol, err := xsize.LocalSearch(si.Problem, xsize.LocalOptions{Seed: 1})
		if err != nil {
			return err
		}
		cat := plan.NewShapeCatalog(plan.Header{}, si, sol, nil)
		t0 := time.Now()
		inst, err := datasets.Coalesce(c, d)
		if err != nil {
			return err
		}
		oi, err := plan.NewOwnershipInput(c, d, inst, cat, plan.SharesFair)
		if err != nil {
			return err
		}
		t1 := time.Now()
		xp, err := xselect.Solve(oi.Problem, xselect.Options{Seed: 1})
		if err != nil {
			return err
		}
		t2 := time.Now()
		if err := xselect.Check(oi.Problem, xp); err != nil {
			return fmt.Errorf("x-select plan failed its check: %w", err)
		}
		doc := plan.NewOwnershipPlan(plan.Header{}, oi, xp, false, nil)
		total := time.Since(t0)
		var containers, required int64
		dev := 0.0
		for _, o := range doc.Owners {
			containers += int64(o.Packed)
			required += int64(o.Required)
			dev = math.Max(dev, math.Abs(o.Deviation))
		}
		t.AddRow(reports.TextCell(fmt.Sprintf("%d × %d × %d", sz[0], sz[1], sz[2])), reports.IntCell(containers), reports.IntCell(required),
			reports.SigCell(xp.Lambda), reports.SigCell(xp.Lambda/xp.LambdaUpper), reports.PercentCell(dev),
			reports.TextCell(t2.Sub(t1).Round(time.Millisecond).String()), reports.TextCell(total.Round(time.Millisecond).String()))
	}
	if err := t.Render(os.Stdout, false); err != nil {
		return err
	}
	fmt.Println()
	return nil
}
