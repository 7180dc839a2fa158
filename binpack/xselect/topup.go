package xselect

// topUpPool is the pooled count topUp offers per (app, shape) in the mix:
// large enough never to run out.
const topUpPool = 1 << 40

// topUp adds containers beyond the required set (step 4 of Solve) to the
// active nodes: repeatedly the application with the lowest packed
// Volume/Share among those not yet exhausted, its shape furthest behind
// its mix (lowest packed_{a,k}/m_{a,k}), on the first node in node order
// that takes it through tryPlace (so colocation partners come along as
// extras of their own mix shapes). Shapes of size zero in every dimension
// are left out (any number of them would fit). pk's pool must be empty; it is used as
// an unlimited supply of the mix shapes and emptied again at the end.
// First-fit cursors per (app, shape) only move forward: room only shrinks
// and MaxPerNode and exlocation only bite harder as containers are added
// (a node skipped because a colocation partner was absent and could not
// come along is not revisited if the partner arrives later). Cost
// O(A·K·N·(d + rules) + added·(A+K)).
func topUp(pk *packing) {
	in := pk.in
	p := in.p
	cursor := make([][]int, in.na)
	done := make([]bool, in.na)
	empty := make([]bool, in.nk) // zero in every dimension: unlimited, so never topped up
	for k, s := range p.Shapes {
		empty[k] = true
		for _, v := range s {
			empty[k] = empty[k] && v == 0
		}
	}
	for a, app := range p.Apps {
		cursor[a] = make([]int, in.nk)
		done[a] = true
		for k, m := range app.Mix {
			if m > 0 && !empty[k] {
				done[a] = false
				pk.addPool(a, k, topUpPool)
			}
		}
	}
	for {
		a := -1
		for b := range p.Apps {
			if !done[b] && (a < 0 || pk.volA[b]/p.Apps[b].Share < pk.volA[a]/p.Apps[a].Share) {
				a = b
			}
		}
		if a < 0 {
			break
		}
		k := -1
		for j, m := range p.Apps[a].Mix {
			if m <= 0 || empty[j] || cursor[a][j] >= len(in.eligNodes[a]) {
				continue
			}
			if k < 0 || float64(pk.cnt[a][j])/m < float64(pk.cnt[a][k])/p.Apps[a].Mix[k] {
				k = j
			}
		}
		if k < 0 {
			done[a] = true
			continue
		}
		nodes := in.eligNodes[a]
		for cursor[a][k] < len(nodes) && !pk.tryPlace(nodes[cursor[a][k]], a, k) {
			cursor[a][k]++
		}
		pk.forget()
	}
	for a := range pk.pool {
		for k, c := range pk.pool[a] {
			if c != 0 {
				pk.addPool(a, k, -c)
			}
		}
	}
}
