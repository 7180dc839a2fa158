package dag

// prioHeap is a binary min-heap of task indices ordered by (prio, index).
type prioHeap struct {
	prio []float64
	a    []int
}

func (h *prioHeap) less(x, y int) bool {
	px, py := h.prio[x], h.prio[y]
	return px < py || px == py && x < y
}

func (h *prioHeap) push(v int) {
	h.a = append(h.a, v)
	i := len(h.a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(h.a[i], h.a[p]) {
			break
		}
		h.a[i], h.a[p] = h.a[p], h.a[i]
		i = p
	}
}

func (h *prioHeap) pop() int {
	top := h.a[0]
	last := len(h.a) - 1
	h.a[0] = h.a[last]
	h.a = h.a[:last]
	i := 0
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < last && h.less(h.a[l], h.a[m]) {
			m = l
		}
		if r < last && h.less(h.a[r], h.a[m]) {
			m = r
		}
		if m == i {
			return top
		}
		h.a[i], h.a[m] = h.a[m], h.a[i]
		i = m
	}
}

func (h *prioHeap) len() int { return len(h.a) }
