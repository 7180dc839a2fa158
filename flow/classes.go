package flow

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// class is a set of users with identical eligible types and identical
// demand-to-weight ratio (or all unbounded). In divisible CMMF identical
// users always share a level, so a class behaves as one user of the
// combined weight and demand (ALGORITHMS.md §5.6, class compression). A
// user with type caps is a class of its own, with those caps (each
// clamped to the type's count, which it cannot exceed anyway).
type class struct {
	types   []int
	caps    []int64 // per type, or nil for none
	members []int
	weight  int64 // Σ w_u
	demand  int64 // Σ d_u, or Unbounded
}

// userCaps returns user u's type caps clamped to the type counts, or nil
// when it has none.
func userCaps(p *Problem, u int) []int64 {
	user := &p.Users[u]
	if !user.capped() {
		return nil
	}
	out := make([]int64, len(user.Types))
	for k, t := range user.Types {
		out[k] = p.Types[t]
		if e := user.typeCap(k); e != Unbounded {
			out[k] = min(e, out[k])
		}
	}
	return out
}

// classCaps returns the caps of every class (nil entries for none).
func classCaps(classes []class) [][]int64 {
	out := make([][]int64, len(classes))
	for c := range classes {
		out[c] = classes[c].caps
	}
	return out
}

// compress groups the users of p into classes, in order of each class's
// first member. Users with no type or zero demand are left out: they get 0.
func compress(p *Problem) []class {
	var classes []class
	index := map[string]int{}
	var key strings.Builder
	for u, user := range p.Users {
		if len(user.Types) == 0 || user.Demand == 0 || user.reach(p.Types) == 0 {
			continue
		}
		key.Reset()
		caps := userCaps(p, u)
		if caps != nil {
			fmt.Fprintf(&key, "user %d|", u) // a class of its own
		}
		for _, t := range user.Types {
			key.WriteString(strconv.Itoa(t))
			key.WriteByte(',')
		}
		key.WriteByte('|')
		if user.Demand != Unbounded {
			r := NewRat(user.Demand, user.Weight)
			key.WriteString(r.String())
		}
		k := key.String()
		i, ok := index[k]
		if !ok {
			i = len(classes)
			index[k] = i
			classes = append(classes, class{types: user.Types, caps: caps, demand: 0})
			if user.Demand == Unbounded {
				classes[i].demand = Unbounded
			}
		}
		c := &classes[i]
		c.members = append(c.members, u)
		c.weight += user.Weight
		if c.demand != Unbounded {
			c.demand += user.Demand
		}
	}
	for i := range classes {
		classes[i].types = slices.Clip(classes[i].types)
	}
	return classes
}
