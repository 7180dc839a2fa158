package workloads

import (
	"fmt"

	"github.com/capplan/capplan/sim"
)

// Uniform returns n identical machines of capacity capv (base units),
// named prefix-0…, without labels.
func Uniform(resources []string, q sim.Quanta, capv []float64, n int, prefix string) *sim.Cluster {
	c := &sim.Cluster{Resources: resources, Quanta: q.BaseAll(), Machines: make([]sim.Machine, n)}
	v := make(sim.Vec, len(capv))
	for d, x := range capv {
		v[d] = q.Capacity(d, x)
	}
	for i := range c.Machines {
		c.Machines[i] = sim.Machine{Name: fmt.Sprintf("%s-%d", prefix, i), Cap: v, Node: -1, Owner: sim.NoUser}
	}
	return c
}

// numberedUsers returns n users u0…, of weight 1, with zero-padded names.
func numberedUsers(n int) []sim.User {
	width := len(fmt.Sprint(n - 1))
	us := make([]sim.User, n)
	for i := range us {
		us[i] = sim.User{Name: fmt.Sprintf("u%0*d", width, i), Weight: 1}
	}
	return us
}
