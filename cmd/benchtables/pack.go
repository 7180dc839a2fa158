package main

import (
	"fmt"
	"math"
	"os"
	"time"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
)

// packTable prints X-Select ownership packing on google-like clusters
// through pipeline.Shapes (the X-Size catalog by local search) and
// pipeline.Pack, the road of `capplan shapes` and `capplan pack --shapes`
// (coalescing, fair shares, X-Select, the independent check): λ against
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
		inputs := pipeline.Inputs{Cluster: c, Demand: d}
		cat, err := pipeline.Shapes(pipeline.ShapesOptions{Inputs: inputs, K: 8, Eps: 1, Method: pipeline.ShapesLocal, Seed: 1})
		if err != nil {
			return err
		}
		res, err := pipeline.Pack(pipeline.PackOptions{Inputs: inputs, Catalog: cat.Doc, Shares: plan.SharesFair, Seed: 1})
		if err != nil {
			return err
		}
		doc := res.Doc
		var containers, required int64
		dev := 0.0
		for _, o := range doc.Owners {
			containers += int64(o.Packed)
			required += int64(o.Required)
			dev = math.Max(dev, math.Abs(o.Deviation))
		}
		t.AddRow(reports.TextCell(fmt.Sprintf("%d × %d × %d", sz[0], sz[1], sz[2])), reports.IntCell(containers), reports.IntCell(required),
			reports.SigCell(doc.Lambda), reports.SigCell(doc.Lambda/doc.LambdaUpperBound), reports.PercentCell(dev),
			reports.TextCell(res.Stats.Solve.Round(time.Millisecond).String()), reports.TextCell(res.Stats.Total.Round(time.Millisecond).String()))
	}
	if err := t.Render(os.Stdout, false); err != nil {
		return err
	}
	fmt.Println()
	return nil
}
