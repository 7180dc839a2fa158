package pipeline

import "testing"

// BenchmarkSimulateOwnership times W-XFLEX under xschedule (container
// mode, its embedded packing: 78 containers, 93 jobs) with and without
// the ownership check's recorder, so its cost per run shows.
func BenchmarkSimulateOwnership(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := "ownership=off"
		if on {
			name = "ownership=on"
		}
		b.Run(name, func(b *testing.B) {
			o := SimulateOptions{Workload: "xflex", Policies: []string{"xschedule"}, Seed: 1, Ownership: on, Workers: 1}
			for b.Loop() {
				set, err := Simulate(o)
				if err != nil {
					b.Fatal(err)
				}
				if on && set.Runs[0].Ownership == nil || set.Runs[0].Summary.Unfinished != 0 {
					b.Fatal("no ownership section, or unfinished jobs")
				}
			}
		})
	}
}
