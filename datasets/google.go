package datasets

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"
)

// GoogleParams sizes a GoogleLike instance.
type GoogleParams struct {
	// Users is the number of applications (≥ 1).
	Users int
	// Types is the number of node groups, each a distinct machine type
	// (≥ 1).
	Types int
	// Machines is the number of nodes in all (≥ Types, ≤ MaxNodes).
	Machines int
}

// Constants of the constraint model. The Choosy paper (Ghodsi et al.,
// EuroSys'13, §7.1) drives its simulations with Sharma et al.'s model of
// Google's placement constraints (SoCC'11): 21 constraint kinds (machine
// attributes), several machine types, and per attribute a frequency of
// machines meeting it that ranges from 100% for one attribute down to
// 7-8%.
const (
	googleAttributes = 21
	// rarestFrequency is the share of machine types with the feature value
	// of the rarest attribute; attribute k has rarestFrequency^(k/20).
	rarestFrequency = 0.075
	// minEligibleFraction is the smallest share of machines a generated
	// user may run on (the rarest attribute's frequency, rounded down).
	minEligibleFraction = 0.07
	// selectorRetries bounds the redraws of a user's constraints before it
	// is left unconstrained.
	selectorRetries = 50
	// distinctRetries bounds the redraws of a type's attributes before a
	// variant label makes it distinct.
	distinctRetries = 64
	// googleStream is the PCG stream of GoogleLike ("capplan" in ASCII).
	googleStream = 0x636170706c616e
)

// googlePlatform is a hardware platform: the capacity of a machine type.
type googlePlatform struct {
	name   string
	cpu    int64
	memGiB int64
}

var googlePlatforms = []googlePlatform{{"p1", 8, 32}, {"p2", 16, 64}, {"p3", 32, 128}, {"p4", 64, 256}}

// GoogleLike generates a cluster and a demand whose placement constraints
// follow the Google constraint model (see the constants above), reproducibly
// from (p, seed) with a PCG generator.
//
// The cluster has exactly p.Types node groups t0.. summing to exactly
// p.Machines nodes (sizes drawn from an exponential distribution, each at
// least 1), resources cpu and memory from one of four platforms, and labels
// platform and attr-0..attr-20: value "a" (the feature) with the
// attribute's frequency, else one of up to three others. No two groups have
// the same labels.
//
// Users u0.. get weight 1 (70%) or 2-4, and 0-3 constraints (35% none, 30%
// one, 20% two, 15% three: most users have at most one, 1.15 on average
// where the paper's jobs had 1.8) on distinct attributes, written as a
// selector (attr-k=a 75%, attr-k in (a,b) 15%, attr-k!=b 10%); 10% also get
// a memory minCapacity, 25% a maxMachines cap, and all 1-3 small request
// shapes that fit every platform. Constraints are redrawn until the user may
// run on at least 7% of the machines, so every user is eligible somewhere.
//
// It panics if p.Users < 1, p.Types < 1 or p.Machines is not in
// [p.Types, MaxNodes].
func GoogleLike(p GoogleParams, seed int64) (*Cluster, *Demand) {
	if p.Users < 1 || p.Types < 1 || p.Machines < p.Types || p.Machines > MaxNodes {
		panic(fmt.Sprintf("datasets: GoogleLike: invalid parameters %+v", p))
	}
	rng := rand.New(rand.NewPCG(uint64(seed), googleStream))
	source := fmt.Sprintf("google-like(users=%d,types=%d,machines=%d,seed=%d)", p.Users, p.Types, p.Machines, seed)
	c := googleCluster(rng, p)
	c.Source = source
	d := &Demand{Source: source, Applications: make([]Application, p.Users)}
	for u := range d.Applications {
		d.Applications[u] = googleUser(rng, c, fmt.Sprintf("u%0*d", digits(p.Users-1), u))
	}
	return c, d
}

func googleCluster(rng *rand.Rand, p GoogleParams) *Cluster {
	c := &Cluster{Resources: []string{"cpu", "memory"}, Groups: make([]NodeGroup, p.Types)}
	counts := splitCounts(rng, p.Machines, p.Types)
	seen := map[string]bool{}
	for t := range c.Groups {
		plat := googlePlatforms[rng.IntN(len(googlePlatforms))]
		var l map[string]string
		for try := 0; ; try++ {
			l = googleLabels(rng)
			l["platform"] = plat.name
			if try == distinctRetries {
				l["variant"] = fmt.Sprint(t)
			}
			if key := labels.Set(l).String(); !seen[key] {
				seen[key] = true
				break
			}
		}
		c.Groups[t] = NodeGroup{
			Name:   fmt.Sprintf("t%0*d", digits(p.Types-1), t),
			Count:  counts[t],
			Labels: l,
			Capacity: Vector{
				*resource.NewQuantity(plat.cpu, resource.DecimalSI),
				*resource.NewQuantity(plat.memGiB<<30, resource.BinarySI),
			},
		}
	}
	return c
}

// googleLabels draws the attribute values of one machine type.
func googleLabels(rng *rand.Rand) map[string]string {
	l := make(map[string]string, googleAttributes+1)
	for k := 0; k < googleAttributes; k++ {
		freq := math.Pow(rarestFrequency, float64(k)/(googleAttributes-1))
		v := "a"
		if rng.Float64() >= freq {
			others := 1 + k%3 // the attribute has values a and 1-3 others
			v = string(rune('b' + rng.IntN(others)))
		}
		l[fmt.Sprintf("attr-%d", k)] = v
	}
	return l
}

// splitCounts splits total into n counts ≥ 1 in proportion to exponential
// draws, by largest remainder.
func splitCounts(rng *rand.Rand, total, n int) []int {
	w := make([]float64, n)
	sum := 0.0
	for i := range w {
		w[i] = rng.ExpFloat64()
		sum += w[i]
	}
	counts := make([]int, n)
	rem := make([]float64, n)
	left := total - n
	given := 0
	for i := range w {
		share := float64(left) * w[i] / sum
		counts[i] = 1 + int(share)
		rem[i] = share - math.Floor(share)
		given += int(share)
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rem[order[a]] > rem[order[b]] })
	for k := 0; given < left; k++ {
		counts[order[k%n]]++
		given++
	}
	return counts
}

func googleUser(rng *rand.Rand, c *Cluster, name string) Application {
	a := Application{Name: name, Weight: big.NewRat(1, 1), Selector: labels.Everything()}
	if rng.IntN(10) >= 7 {
		a.Weight = big.NewRat(2+rng.Int64N(3), 1)
	}
	if rng.IntN(10) == 0 {
		a.MinCapacity = map[string]resource.Quantity{"memory": *resource.NewQuantity((64<<rng.IntN(2))<<30, resource.BinarySI)}
	}
	total := c.NumNodes()
	eligible := 0
	for try := 0; try <= selectorRetries; try++ {
		text := ""
		if try < selectorRetries {
			text = googleSelector(rng)
		} else {
			a.MinCapacity = nil // give up: unconstrained
		}
		sel, err := labels.Parse(text)
		if err != nil {
			panic("datasets: GoogleLike built an invalid selector: " + err.Error())
		}
		a.Selector, a.SelectorText = sel, text
		if eligible = eligibleNodes(c, &a); float64(eligible) >= minEligibleFraction*float64(total) {
			break
		}
	}
	if rng.IntN(4) == 0 {
		a.MaxMachines = 1 + rng.Int64N(int64(eligible))
	}
	for n := 1 + rng.IntN(3); n > 0; n-- {
		a.Requests = append(a.Requests, Request{
			Shape: map[string]resource.Quantity{
				"cpu":    *resource.NewQuantity(1<<rng.IntN(3), resource.DecimalSI),
				"memory": *resource.NewQuantity((2<<rng.IntN(4))<<30, resource.BinarySI),
			},
			Count: 1 + rng.Int64N(200),
		})
	}
	return a
}

// googleSelector draws 0-3 constraints on distinct attributes.
func googleSelector(rng *rand.Rand) string {
	n := 0
	switch u := rng.Float64(); {
	case u < 0.35:
	case u < 0.65:
		n = 1
	case u < 0.85:
		n = 2
	default:
		n = 3
	}
	attrs := rng.Perm(googleAttributes)[:n]
	parts := make([]string, n)
	for i, k := range attrs {
		switch u := rng.Float64(); {
		case u < 0.75:
			parts[i] = fmt.Sprintf("attr-%d=a", k)
		case u < 0.9:
			parts[i] = fmt.Sprintf("attr-%d in (a,b)", k)
		default:
			parts[i] = fmt.Sprintf("attr-%d!=b", k)
		}
	}
	return strings.Join(parts, ",")
}

// eligibleNodes counts the nodes of c application a may run on.
func eligibleNodes(c *Cluster, a *Application) int {
	n := 0
	for g := range c.Groups {
		grp := &c.Groups[g]
		if !a.selector().Matches(labels.Set(grp.Labels)) {
			continue
		}
		if q, ok := a.MinCapacity["memory"]; ok && grp.Capacity[1].Cmp(q) < 0 {
			continue
		}
		n += grp.Count
	}
	return n
}

// digits returns the number of decimal digits of n ≥ 0.
func digits(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}
