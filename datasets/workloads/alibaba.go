package workloads

import (
	"hash/fnv"
	"strconv"

	"github.com/capplan/capplan/sim"
)

// AlibabaUsers is the number of users W-ALI spreads its jobs over, by
// FNV-1a of the job name (SIMULATE.md §2.3).
const AlibabaUsers = 10

// AlibabaMachines is W-ALI's default cluster size: 100 machines of
// dags.AlibabaMachine (96 cores, 100 normalised memory).
const AlibabaMachines = 100

// AlibabaResources are the resources of dags.ParseAlibaba and
// ReadAlibaba.
var AlibabaResources = []string{"cpu", "mem"}

// AlibabaUser returns the user of a job: FNV-1a(name) mod AlibabaUsers.
func AlibabaUser(name string) sim.UserID {
	h := fnv.New32a()
	h.Write([]byte(name))
	return sim.UserID(h.Sum32() % AlibabaUsers)
}

// AlibabaUserList returns the W-ALI users u0…u9 of weight 1.
func AlibabaUserList() []sim.User {
	us := make([]sim.User, AlibabaUsers)
	for i := range us {
		us[i] = sim.User{Name: "u" + strconv.Itoa(i), Weight: 1}
	}
	return us
}

// PoissonArrivals sets the arrivals of jobs, in their order, to a Poisson
// process at offered load ρ on a cluster of total capacity C (SIMULATE.md
// §2.3): λ = ρ / E_j[max_r Σ_{t∈j} d_t·r_{t,r}/C_r], the expectation over
// these jobs with their estimated durations.
func PoissonArrivals(jobs []sim.Job, total sim.Vec, load float64, seed uint64, tickSeconds float64) {
	var sum float64
	for i := range jobs {
		var w = make([]float64, len(total))
		for s := range jobs[i].Stages {
			st := &jobs[i].Stages[s]
			for k := 0; k < int(st.Tasks); k++ {
				d := float64(st.TaskDuration(k)) * tickSeconds
				for r, x := range st.TaskDemand(k) {
					w[r] += d * float64(x)
				}
			}
		}
		x := 0.0
		for r := range w {
			if total[r] > 0 {
				x = max(x, w[r]/float64(total[r]))
			}
		}
		sum += x
	}
	if len(jobs) == 0 || sum == 0 {
		return
	}
	p := NewPoisson(seed, load/(sum/float64(len(jobs))), tickSeconds)
	for i := range jobs {
		jobs[i].Arrival = p.Next()
	}
}
