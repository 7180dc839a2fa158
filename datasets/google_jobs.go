package datasets

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"k8s.io/apimachinery/pkg/labels"
)

// googleJobConstraints is the distribution of the number of constraints
// per job: 0 (10%), 1 (25%), 2 (40%), 3 (25%), mean 1.8 as in Choosy's
// "1.8 constraints on average" [SEED choosy §7.1; the distribution is
// DERIVED] (SIMULATE.md §2.3).
var googleJobConstraints = []float64{.10, .25, .40, .25}

// GoogleJobSelector draws one job's placement constraints on a GoogleLike
// cluster: k constraints on distinct attributes with k from
// googleJobConstraints, each written like GoogleLike's user selectors
// (attr-k=a, attr-k in (a,b), attr-k!=b), redrawn until the job may use at
// least 7% of the machines (left unconstrained after selectorRetries
// draws). It returns the selector and its text.
func GoogleJobSelector(rng *rand.Rand, c *Cluster) (labels.Selector, string) {
	total := c.NumNodes()
	for try := 0; try < selectorRetries; try++ {
		u := rng.Float64()
		k := len(googleJobConstraints) - 1
		for n, p := range googleJobConstraints {
			if u < p {
				k = n
				break
			}
			u -= p
		}
		attrs := rng.Perm(googleAttributes)[:k]
		parts := make([]string, k)
		for i, a := range attrs {
			switch x := rng.Float64(); {
			case x < 0.75:
				parts[i] = fmt.Sprintf("attr-%d=a", a)
			case x < 0.9:
				parts[i] = fmt.Sprintf("attr-%d in (a,b)", a)
			default:
				parts[i] = fmt.Sprintf("attr-%d!=b", a)
			}
		}
		text := strings.Join(parts, ",")
		sel, err := labels.Parse(text)
		if err != nil {
			panic("datasets: GoogleJobSelector built an invalid selector: " + err.Error())
		}
		app := Application{Selector: sel}
		if float64(eligibleNodes(c, &app)) >= minEligibleFraction*float64(total) {
			return sel, text
		}
	}
	return labels.Everything(), ""
}
