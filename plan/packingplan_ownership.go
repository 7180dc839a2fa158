package plan

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Where ownership shares come from (`capplan pack --shares`).
const (
	// SharesFair uses the exact CMMF fair shares (divisible, weighted,
	// placement-aware): each application's machines per machine type,
	// turned into normalised volume. Applications keep the share they can
	// reach under their constraints, so λ is not held down by an
	// application entitled to more than its eligible nodes hold.
	SharesFair = "fair"
	// SharesWeights normalises the demand weights.
	SharesWeights = "weights"
	// SharesForecast gives each application its share of the forecast
	// volume, so that λ = 1 is exactly the forecast.
	SharesForecast = "forecast"
)

// ShareSources lists the accepted --shares values.
var ShareSources = []string{SharesFair, SharesWeights, SharesForecast}

// ErrCatalog is wrapped by errors about a shape catalog that does not suit
// the cluster or is malformed.
var ErrCatalog = errors.New("plan: unusable shape catalog")

// SkippedApplication is a demand application an ownership plan leaves out.
type SkippedApplication struct {
	Application string `json:"application"`
	Reason      string `json:"reason"`
}

// CheckCatalogDocument validates a decoded ShapeCatalog for use as the
// shapes of an ownership packing: at least one shape, unique non-empty
// names, finite non-negative sizes in resources of the cluster.
func CheckCatalogDocument(name string, cat *ShapeCatalog, resources []string) error {
	if len(cat.Shapes) == 0 {
		return fmt.Errorf("%w: %s: shapes: the catalog has no shapes", ErrCatalog, name)
	}
	seen := map[string]int{}
	for i, s := range cat.Shapes {
		at := fmt.Sprintf("%s: shapes[%d]", name, i)
		if s.Name == "" {
			return fmt.Errorf("%w: %s.name: missing", ErrCatalog, at)
		}
		if j, dup := seen[s.Name]; dup {
			return fmt.Errorf("%w: %s.name: duplicate shape name %q (first used by shapes[%d])", ErrCatalog, at, s.Name, j)
		}
		seen[s.Name] = i
		if len(s.Size) == 0 {
			return fmt.Errorf("%w: %s.size: empty", ErrCatalog, at)
		}
		for r, v := range s.Size {
			if !slices.Contains(resources, r) {
				return fmt.Errorf("%w: %s.size.%s: the cluster has no resource %q (resources: %s)", ErrCatalog, at, r, r, strings.Join(resources, ", "))
			}
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: %s.size.%s: must be a finite number ≥ 0, got %v", ErrCatalog, at, r, v)
			}
		}
		if math.IsNaN(s.Cost) || math.IsInf(s.Cost, 0) || s.Cost < 0 {
			return fmt.Errorf("%w: %s.cost: must be a finite number ≥ 0, got %v", ErrCatalog, at, s.Cost)
		}
	}
	return nil
}
