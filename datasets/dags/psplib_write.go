package dags

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"
)

// WritePSPLIB writes p as a PSPLIB single-mode .sm file that ParsePSPLIB
// reads back to the same project: the dummy source (job 1) before the
// tasks in their order (jobs 2 … N+1) and the dummy sink (job N+2) after
// them, the source's successors being the tasks without predecessors
// and the sink's predecessors those without successors. Durations,
// requests and capacities must be whole numbers, as in PSPLIB.
func WritePSPLIB(w io.Writer, p *PSPLIB) error {
	d := p.DAG
	n, K := len(d.Tasks), len(p.Capacity)
	whole := func(x float64) (int64, bool) { return int64(x), x >= 0 && x == math.Trunc(x) && x < 1<<53 }
	for i := range d.Tasks {
		for k, r := range d.Tasks[i].Demand[:K] {
			if _, ok := whole(r); !ok {
				return fmt.Errorf("psplib: task %s requests %v of %s: PSPLIB needs whole numbers", d.Tasks[i].ID, r, d.Resources[k])
			}
		}
	}
	for k, c := range p.Capacity {
		if _, ok := whole(c); !ok {
			return fmt.Errorf("psplib: capacity %v of %s: PSPLIB needs whole numbers", c, d.Resources[k])
		}
	}
	bw := bufio.NewWriter(w)
	rule := strings.Repeat("*", 72) + "\n"
	fmt.Fprint(bw, rule)
	fmt.Fprintf(bw, "file with basedata            : %s\n", d.Name)
	fmt.Fprintf(bw, "initial value random generator: 0\n")
	fmt.Fprint(bw, rule)
	fmt.Fprintf(bw, "projects                      :  1\n")
	fmt.Fprintf(bw, "jobs (incl. supersource/sink ):  %d\n", n+2)
	fmt.Fprintf(bw, "horizon                       :  %d\n", p.Horizon)
	fmt.Fprintf(bw, "RESOURCES\n  - renewable                 :  %d   R\n  - nonrenewable              :  0   N\n  - doubly constrained        :  0   D\n", K)
	fmt.Fprint(bw, rule)
	fmt.Fprintf(bw, "PROJECT INFORMATION:\npronr.  #jobs rel.date duedate tardcost  MPM-Time\n")
	fmt.Fprintf(bw, "    1  %5d      0  %6d        0  %8d\n", n, p.MPM, p.MPM)
	fmt.Fprint(bw, rule)
	fmt.Fprintf(bw, "PRECEDENCE RELATIONS:\njobnr.    #modes  #successors   successors\n")
	succRow := func(job int, succ []int) {
		fmt.Fprintf(bw, "%4d        1  %9d        ", job, len(succ))
		for _, s := range succ {
			fmt.Fprintf(bw, " %3d", s)
		}
		fmt.Fprintln(bw)
	}
	var starts []int
	for i := range d.Tasks {
		if len(d.Preds(i)) == 0 {
			starts = append(starts, i+2)
		}
	}
	succRow(1, starts)
	for i := range d.Tasks {
		succ := make([]int, 0, len(d.Succs(i)))
		for _, j := range d.Succs(i) {
			succ = append(succ, j+2)
		}
		if len(succ) == 0 {
			succ = append(succ, n+2)
		}
		succRow(i+2, succ)
	}
	succRow(n+2, nil)
	fmt.Fprint(bw, rule)
	fmt.Fprintf(bw, "REQUESTS/DURATIONS:\njobnr. mode duration")
	for k := range K {
		fmt.Fprintf(bw, "  R%2d", k+1)
	}
	fmt.Fprintf(bw, "\n%s\n", strings.Repeat("-", 72))
	reqRow := func(job int, dur int64, dem []float64) {
		fmt.Fprintf(bw, "%3d      1  %3d    ", job, dur)
		for k := range K {
			var r int64
			if dem != nil {
				r, _ = whole(dem[k])
			}
			fmt.Fprintf(bw, " %4d", r)
		}
		fmt.Fprintln(bw)
	}
	reqRow(1, 0, nil)
	for i := range d.Tasks {
		reqRow(i+2, d.Tasks[i].Duration, d.Tasks[i].Demand)
	}
	reqRow(n+2, 0, nil)
	fmt.Fprint(bw, rule)
	fmt.Fprintf(bw, "RESOURCEAVAILABILITIES:\n")
	for k := range K {
		fmt.Fprintf(bw, "  R%2d", k+1)
	}
	fmt.Fprintln(bw)
	for _, c := range p.Capacity {
		v, _ := whole(c)
		fmt.Fprintf(bw, " %4d", v)
	}
	fmt.Fprintln(bw)
	fmt.Fprint(bw, rule)
	return bw.Flush()
}
