package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Misestimate makes policies see wrong durations (SIMULATE.md §2.1,
// `--misestimate a:b[:stage|task]`): the input durations are the truth,
// tasks run with the truth (times the noise factor, if any), and policies
// see truth × (1+X) with X ~ U[Lo, Hi], drawn once per task (PerStage
// false) or once per stage (PerStage true). Carbyne drew X ∈ [−50, 50]%
// per task [SEED carbyne §5.4.2]; Graphene one factor per stage, e.g. from
// [−0.75, −0.50] [SEED graphene §7.4]. Demands stay exact: demand errors
// matter only under contention, which the core does not model. The zero
// value (Lo = Hi = 0) is off.
type Misestimate struct {
	Lo, Hi   float64
	PerStage bool
}

// On reports whether estimates differ from the truth.
func (m Misestimate) On() bool { return m.Lo != 0 || m.Hi != 0 }

func (m Misestimate) validate() error {
	if !(m.Lo > -1) || !(m.Hi >= m.Lo) || math.IsInf(m.Hi, 0) {
		return fmt.Errorf("sim: misestimate range [%v, %v]: want −1 < a ≤ b", m.Lo, m.Hi)
	}
	return nil
}

// streamMis is the PCG stream of the misestimate factors.
const streamMis = 0x6d69736573 // "mises"

// misestimator draws the factors counter-based, like the noise: task t
// (or stage s) of the job of ordinal j uses a PCG seeded
// (seed ⊕ mix(j, t or s), streamMis), so every policy sees the same
// estimates whatever the order of events.
type misestimator struct {
	m    Misestimate
	seed uint64
	pcg  rand.PCG
	rng  *rand.Rand
}

func newMisestimator(seed uint64, m Misestimate) *misestimator {
	x := &misestimator{m: m, seed: seed}
	x.rng = rand.New(&x.pcg)
	return x
}

// factor returns 1+X for item k (a task or a stage index) of job j.
func (x *misestimator) factor(j JobID, k int32) float64 {
	x.pcg.Seed(x.seed^mix(uint64(uint32(j))<<32|uint64(uint32(k))), streamMis)
	return 1 + x.m.Lo + (x.m.Hi-x.m.Lo)*x.rng.Float64()
}

// estimates replaces the durations of job's stages (a copy: the caller's
// stages keep the truth) by their estimates: truth × (1+X), rounded to
// ticks and at least 1; dummies (truth 0) stay dummies. first gives each
// stage's first task index, so per-task factors are keyed by the task.
func (x *misestimator) estimates(j JobID, job *Job, first []int32) {
	stages := make([]Stage, len(job.Stages))
	copy(stages, job.Stages)
	for si := range stages {
		st := &stages[si]
		durs := make([]Tick, st.Tasks)
		f := x.factor(j, int32(si))
		for i := range durs {
			truth := st.TaskDuration(i)
			if truth == 0 {
				continue
			}
			if !x.m.PerStage {
				f = x.factor(j, first[si]+int32(i))
			}
			durs[i] = max(1, Tick(math.Round(float64(truth)*f)))
		}
		st.Durations = durs
	}
	job.Stages = stages
}
