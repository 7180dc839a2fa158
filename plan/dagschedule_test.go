package plan

import "testing"

func TestMachineName(t *testing.T) {
	groups := []DAGMachineGroup{{Name: "std", Count: 2}, {Name: "k8s", Count: 2, First: 2, Names: []string{"node-a", "node-b"}}}
	for i, want := range map[int]string{0: "std-0", 1: "std-1", 3: "node-b", -1: "-", 4: "-"} {
		if got := MachineName(groups, i); got != want {
			t.Errorf("machine %d: %q, want %q", i, got, want)
		}
	}
}
