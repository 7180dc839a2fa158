package dags

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/capplan/capplan/dag"
)

// PSPLIB is one single-mode RCPSP instance of PSPLIB (Kolisch & Sprecher,
// EJOR 96, 1997): one project to run on one machine whose capacities are
// the renewable resource availabilities.
type PSPLIB struct {
	// dag.DAG has one single-task stage per real job; task IDs are the PSPLIB
	// job numbers ("2" … "N-1"), resources "R1" … "Rk", Unit 1 period.
	// The dummy source (job 1) and sink (job N) are omitted.
	DAG *dag.DAG
	// Capacity is the availability of each renewable resource.
	Capacity []float64
	// Horizon is the file's horizon (the sum of durations).
	Horizon int64
	// MPM is the file's MPM-Time: the critical-path length.
	MPM int64
}

// Machines returns the instance's single machine.
func (p *PSPLIB) Machines() [][]float64 { return [][]float64{p.Capacity} }

// psplibSection names the part of a .sm file a line belongs to.
type psplibSection int

const (
	smHeader psplibSection = iota
	smProject
	smPrecedence
	smRequests
	smResources
)

// ParsePSPLIB reads a PSPLIB single-mode .sm file; name is used in
// messages. Every problem found is reported in one *dag.InputError: missing
// sections, multi-mode jobs, non-renewable resources, job numbers out of
// range, dummies with work, a job count the file's rows cannot hold, and
// durations summing to more than MaxJobTicks. Cost O(size of the file):
// nothing is sized by a count the file merely claims.
func ParsePSPLIB(name string, r io.Reader) (*PSPLIB, error) {
	var (
		problems           []string
		sec                = smHeader
		jobs, renewable    = -1, -1
		nonRenewable, dbl  int
		p                  = &PSPLIB{}
		succ               = map[int][]int{}
		dur                = map[int]int64{}
		dem                = map[int][]float64{}
		haveProject, haveR bool
	)
	bad := func(line int, format string, a ...any) {
		problems = append(problems, fmt.Sprintf("line %d: ", line)+fmt.Sprintf(format, a...))
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for ln := 1; sc.Scan(); ln++ {
		line := sc.Text()
		trim := strings.TrimSpace(line)
		key, val, isKV := strings.Cut(trim, ":")
		switch {
		case strings.HasPrefix(trim, "PROJECT INFORMATION"):
			sec = smProject
			continue
		case strings.HasPrefix(trim, "PRECEDENCE RELATIONS"):
			sec = smPrecedence
			continue
		case strings.HasPrefix(trim, "REQUESTS/DURATIONS"):
			sec = smRequests
			continue
		case strings.HasPrefix(trim, "RESOURCEAVAILABILITIES"):
			sec = smResources
			continue
		case isKV && strings.HasPrefix(key, "jobs"):
			jobs = firstInt(val)
		case isKV && strings.HasPrefix(key, "horizon"):
			p.Horizon = int64(firstInt(val))
		case isKV && strings.Contains(key, "nonrenewable"):
			nonRenewable = max(0, firstInt(val)) // a missing count is none
		case isKV && strings.Contains(key, "renewable"):
			renewable = firstInt(val)
		case isKV && strings.Contains(key, "doubly constrained"):
			dbl = max(0, firstInt(val)) // a missing count is none
		}
		f, ok := ints(trim)
		if !ok || len(f) == 0 {
			continue
		}
		switch sec {
		case smProject:
			if len(f) >= 6 && !haveProject {
				p.MPM, haveProject = int64(f[5]), true
			}
		case smPrecedence:
			if len(f) < 3 || len(f) != 3+f[2] {
				bad(ln, "precedence row needs job, modes, count and that many successors")
				continue
			}
			if f[1] != 1 {
				bad(ln, "job %d has %d modes; only single-mode instances are supported", f[0], f[1])
			}
			succ[f[0]] = f[3:]
		case smRequests:
			if renewable < 0 || len(f) != 3+renewable+nonRenewable+dbl {
				bad(ln, "request row needs job, mode, duration and one demand per resource")
				continue
			}
			dur[f[0]] = int64(f[2])
			d := make([]float64, renewable)
			for k := range d {
				d[k] = float64(f[3+k])
			}
			dem[f[0]] = d
		case smResources:
			if !haveR {
				if len(f) < renewable || renewable < 0 {
					bad(ln, "resource availabilities need %d values", renewable)
					continue
				}
				p.Capacity = make([]float64, renewable)
				for k := range p.Capacity {
					p.Capacity[k] = float64(f[k])
				}
				haveR = true
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("dag: %s: %w", name, err)
	}
	switch {
	case jobs < 2:
		problems = append(problems, "missing or bad \"jobs (incl. supersource/sink )\" line")
	case renewable < 0:
		problems = append(problems, "missing \"renewable\" line")
	case !haveR:
		problems = append(problems, "missing RESOURCEAVAILABILITIES")
	}
	if nonRenewable > 0 || dbl > 0 {
		problems = append(problems, fmt.Sprintf("%d non-renewable and %d doubly constrained resources are not supported", nonRenewable, dbl))
	}
	if jobs > len(succ)+len(dur) {
		// Every job needs a precedence row and a request row: checked
		// before anything is sized by the claimed count (a row or two
		// missing are listed job by job below).
		problems = append(problems, fmt.Sprintf("\"jobs (incl. supersource/sink)\" says %d jobs, but the file has %d precedence rows and %d request rows", jobs, len(succ), len(dur)))
	}
	if len(problems) > 0 {
		return nil, &dag.InputError{Source: name, Problems: problems}
	}
	for j := 1; j <= jobs; j++ {
		if _, ok := succ[j]; !ok {
			problems = append(problems, fmt.Sprintf("job %d has no precedence row", j))
		}
		if _, ok := dur[j]; !ok {
			problems = append(problems, fmt.Sprintf("job %d has no request row", j))
		} else if dur[j] < 0 {
			problems = append(problems, fmt.Sprintf("job %d has negative duration %d", j, dur[j]))
		}
	}
	for _, j := range []int{1, jobs} {
		if dur[j] != 0 {
			problems = append(problems, fmt.Sprintf("dummy job %d has duration %d, want 0", j, dur[j]))
		}
	}
	if len(problems) > 0 {
		return nil, &dag.InputError{Source: name, Problems: problems}
	}
	res := make([]string, renewable)
	for k := range res {
		res[k] = "R" + strconv.Itoa(k+1)
	}
	b := dag.NewBuilder(name, res, 1)
	idx := make(map[int]int, jobs)
	for j := 2; j < jobs; j++ {
		idx[j] = b.AddTask(strconv.Itoa(j), -1, dur[j], dem[j])
	}
	for j := 1; j <= jobs; j++ {
		for _, s := range succ[j] {
			if s < 1 || s > jobs {
				problems = append(problems, fmt.Sprintf("job %d has successor %d outside 1..%d", j, s, jobs))
				continue
			}
			u, okU := idx[j]
			v, okV := idx[s]
			if okU && okV {
				b.AddEdge(u, v)
			}
		}
	}
	if len(problems) > 0 {
		return nil, &dag.InputError{Source: name, Problems: problems}
	}
	d, err := b.Build()
	if err != nil {
		return nil, err
	}
	if err := CheckTicks(d); err != nil {
		return nil, err
	}
	p.DAG = d
	return p, nil
}

// PSPLIBKey identifies an instance by parameter combination P and
// instance number I (file j30<P>_<I>.sm).
type PSPLIBKey struct{ P, I int }

// ParsePSPLIBTable reads a PSPLIB result list (j30opt.sm, j30hrs.sm,
// j60hrs.sm, j60lb.sm, …). Every row whose first three fields are
// integers is a result: (P, I) maps to the integer fields after P and I,
// up to the first field that is not an integer. So j30opt.sm and the hrs
// files give [makespan], and the lb files give [UB, LB]. Header and
// separator lines are skipped. A (P, I) listed twice is an *dag.InputError.
func ParsePSPLIBTable(name string, r io.Reader) (map[PSPLIBKey][]int64, error) {
	out := map[PSPLIBKey][]int64{}
	var problems []string
	sc := bufio.NewScanner(r)
	for ln := 1; sc.Scan(); ln++ {
		var vals []int64
		for _, w := range strings.Fields(sc.Text()) {
			v, err := strconv.ParseInt(w, 10, 64)
			if err != nil {
				break
			}
			vals = append(vals, v)
		}
		if len(vals) < 3 {
			continue
		}
		k := PSPLIBKey{int(vals[0]), int(vals[1])}
		if _, dup := out[k]; dup {
			problems = append(problems, fmt.Sprintf("line %d: instance %d_%d listed again", ln, k.P, k.I))
			continue
		}
		out[k] = vals[2:]
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("dag: %s: %w", name, err)
	}
	if len(problems) > 0 {
		return nil, &dag.InputError{Source: name, Problems: problems}
	}
	return out, nil
}

// ints parses a line of whitespace-separated integers.
func ints(s string) ([]int, bool) {
	fs := strings.Fields(s)
	out := make([]int, len(fs))
	for i, w := range fs {
		v, err := strconv.Atoi(w)
		if err != nil {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// firstInt returns the first integer field of s, or -1.
func firstInt(s string) int {
	for _, w := range strings.Fields(s) {
		if v, err := strconv.Atoi(w); err == nil {
			return v
		}
	}
	return -1
}
