package dag

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// psplibStats summarises one method over a PSPLIB set.
type psplibStats struct {
	sumDev   float64 // Σ (makespan − ref)/ref
	sumDevCP float64 // Σ (makespan − cp)/cp
	optimal  int     // makespan ≤ ref
	n        int
	elapsed  time.Duration
}

func (s *psplibStats) add(ms, ref, cp int64, took time.Duration) {
	s.n++
	s.sumDev += float64(ms-ref) / float64(ref)
	s.sumDevCP += float64(ms-cp) / float64(cp)
	if ms <= ref {
		s.optimal++
	}
	s.elapsed += took
}

func (s psplibStats) String() string {
	return fmt.Sprintf("dev-ref %6.2f%%  dev-cp %6.2f%%  at-ref %3d/%d  %7.3f ms/inst", 100*s.sumDev/float64(s.n),
		100*s.sumDevCP/float64(s.n), s.optimal, s.n, float64(s.elapsed.Microseconds())/1000/float64(s.n))
}

// j60LowerBounds reads the published J60 lower bounds (410 rows).
func j60LowerBounds(t testing.TB) map[PSPLIBKey][]int64 {
	p := needData(t, filepath.Join("psplib", "j60", "j60lb.sm"))
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lb, err := ParsePSPLIBTable("j60lb.sm", f)
	if err != nil {
		t.Fatal(err)
	}
	if len(lb) != 410 {
		t.Fatalf("j60lb.sm: %d rows, want 410", len(lb))
	}
	return lb
}

// TestPSPLIBBaselines runs every single-pass method on all 480 J30
// instances, and Graphene and CP on all 480 J60 instances: every schedule
// passes the checker, none beats the proven J30 optimum, and none beats a
// published J60 lower bound. It logs per method the mean deviation from
// the reference (J30 optimum, J60 best known) and from the critical path.
// BenchmarkPSPLIBMethods logs the J60 table for every method.
func TestPSPLIBBaselines(t *testing.T) {
	psplibMethods(t, map[string][]string{"j30": Methods(), "j60": {"graphene", "cp"}})
}

// BenchmarkPSPLIBMethods logs the single-pass table of every method on
// J30 and J60 (go test -run '^$' -bench PSPLIBMethods -benchtime 1x -v).
func BenchmarkPSPLIBMethods(b *testing.B) {
	for i := 0; i < b.N; i++ {
		psplibMethods(b, map[string][]string{"j30": Methods(), "j60": Methods()})
	}
}

func psplibMethods(t testing.TB, which map[string][]string) {
	lb60 := j60LowerBounds(t)
	for _, set := range []struct{ name, ref string }{{"j30", "j30opt.sm"}, {"j60", "j60hrs.sm"}} {
		stats := map[string]*psplibStats{}
		for _, in := range loadPSPLIB(t, set.name, set.ref) {
			inst := instance{name: fmt.Sprint(in.Key), d: in.Inst.DAG, machines: in.Inst.Machines(), opt: in.Ref}
			floor := in.Ref // J30: the optimum
			if set.name == "j60" {
				floor = in.Inst.MPM
				if v, ok := lb60[in.Key]; ok {
					floor = v[1]
				}
			}
			for _, name := range which[set.name] {
				t0 := time.Now()
				s, err := Run(name, inst.d, inst.machines, Options{Seed: 1})
				took := time.Since(t0)
				if err != nil {
					t.Fatal(err)
				}
				mustCheck(t, name, inst, s)
				if ms := s.Makespan(); ms < floor {
					t.Fatalf("%s on %s %v: makespan %d below the lower bound %d", name, set.name, in.Key, ms, floor)
				}
				if stats[name] == nil {
					stats[name] = &psplibStats{}
				}
				stats[name].add(s.Makespan(), in.Ref, in.Inst.MPM, took)
			}
		}
		var lines []string
		for name, st := range stats {
			lines = append(lines, fmt.Sprintf("%-10s %v", name, st))
		}
		sort.Strings(lines)
		t.Logf("%s single pass:\n%s", set.name, strings.Join(lines, "\n"))
	}
}
