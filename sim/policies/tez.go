package policies

import (
	"math/big"

	"github.com/capplan/capplan/sim"
)

// Graphene's baselines under their paper's names [SEED graphene §7.1;
// SIMULATE.md §5.2], so that one `--compare` runs them side by side:
//
//   - tez: Tez on YARN's Capacity Scheduler, breadth-first inside a job
//     (capacity intra=bfs);
//   - tez-cp: the same with critical-path order inside a job
//     (capacity intra=cp);
//   - tez-tetris: Tetris packing across jobs, breadth-first inside a job
//     (tetris intra=bfs).
//
// They are the capacity and tetris policies with other defaults; every
// parameter of those stays settable.
func init() {
	capDef := func(intra sim.Intra) CapacityParams {
		return CapacityParams{Max: big.NewRat(1, 1), Intra: intra, Place: Placement{Rule: PlaceFirst, K: DefaultK}, Wait: 15}
	}
	for _, a := range []struct {
		name, doc string
		intra     sim.Intra
	}{
		{"tez", "Graphene's Tez baseline: capacity queues, breadth-first order inside a job (capacity intra=bfs)", sim.IntraBFS},
		{"tez-cp", "Graphene's Tez+CP baseline: capacity queues, critical-path order inside a job (capacity intra=cp)", sim.IntraCP},
	} {
		register(typed(a.name, a.doc, capDef(a.intra), (*CapacityParams).bind, newCapacity))
	}
	register(typed("tez-tetris", "Graphene's Tez+Tetris baseline: tetris packing across jobs, breadth-first inside a job (tetris intra=bfs)",
		TetrisParams{F: 0, M: 0.2, Intra: sim.IntraBFS, K: DefaultK}, (*TetrisParams).bind,
		func(p TetrisParams) sim.Policy { return newTetris("tez-tetris", p) }))
}
