package sim

import "fmt"

// Devices describes a resource counted in identical devices, such as GPUs
// of 1000 milli-GPU each (SIMULATE.md §2.3 W-OPENB, §3.7): a task that
// asks for at least one device's worth needs that many whole devices free
// on its machine, ⌈r/PerDevice⌉; a smaller demand needs that much free on
// one device. The vector fit alone would let a fractional task span two
// half-used GPUs, or a 2-GPU task use the free halves of four.
type Devices struct {
	// Resource is the dimension (index into Cluster.Resources).
	Resource int
	// PerDevice is one device's capacity in quanta (> 0). A machine has
	// ⌊cap/PerDevice⌋ devices.
	PerDevice int64
}

// devices is the run-time state of Cluster.Devices: the free quanta of
// every device of every machine, and what each running task took.
type devices struct {
	dim   int
	per   int64
	free  [][]int64   // per machine, per device
	takes [][]devTake // per machine: the running tasks' shares
}

// devTake is what one task holds on one device.
type devTake struct {
	t      TaskRef
	device int32
	amount int64
}

func newDevices(d *Devices, ms []Machine) (*devices, error) {
	if d.Resource < 0 || d.PerDevice <= 0 {
		return nil, fmt.Errorf("sim: devices: resource %d, %d quanta per device", d.Resource, d.PerDevice)
	}
	x := &devices{dim: d.Resource, per: d.PerDevice, free: make([][]int64, len(ms)), takes: make([][]devTake, len(ms))}
	for i := range ms {
		if d.Resource >= len(ms[i].Cap) {
			return nil, fmt.Errorf("sim: devices: resource %d out of range", d.Resource)
		}
		n := ms[i].Cap[d.Resource] / d.PerDevice
		x.free[i] = make([]int64, n)
		for k := range x.free[i] {
			x.free[i][k] = d.PerDevice
		}
	}
	return x, nil
}

// plan returns the devices a demand of r quanta takes on machine m: whole
// devices (the lowest free ones) for r ≥ PerDevice, else the device with
// the least free room that holds r (best fit: it keeps whole devices
// whole; ties to the lower index). It returns nil when they are not there,
// and an empty plan for r = 0.
func (x *devices) plan(m MachineID, r int64, buf []int32) []int32 {
	buf = buf[:0]
	if r <= 0 {
		return buf
	}
	free := x.free[m]
	if r >= x.per {
		need := (r + x.per - 1) / x.per
		for k, f := range free {
			if f == x.per {
				buf = append(buf, int32(k))
				if int64(len(buf)) == need {
					return buf
				}
			}
		}
		return nil
	}
	best := -1
	for k, f := range free {
		if f >= r && (best < 0 || f < free[best]) {
			best = k
		}
	}
	if best < 0 {
		return nil
	}
	return append(buf, int32(best))
}

// fits reports whether machine m's devices hold demand dem.
func (x *devices) fits(m MachineID, dem Vec) bool {
	var buf [8]int32
	return x.plan(m, dem[x.dim], buf[:0]) != nil
}

// take records task t's devices on m (fits was checked).
func (x *devices) take(m MachineID, t TaskRef, dem Vec) {
	r := dem[x.dim]
	var buf [8]int32
	for _, k := range x.plan(m, r, buf[:0]) {
		a := min(r, x.per)
		x.free[m][k] -= a
		r -= a
		x.takes[m] = append(x.takes[m], devTake{t: t, device: k, amount: a})
	}
}

// release returns task t's devices on m.
func (x *devices) release(m MachineID, t TaskRef) {
	ts := x.takes[m]
	out := ts[:0]
	for _, d := range ts {
		if d.t == t {
			x.free[m][d.device] += d.amount
			continue
		}
		out = append(out, d)
	}
	x.takes[m] = out
}
