package policies

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/capplan/capplan/sim"
)

// binder declares a policy's parameters and parses key=value arguments
// into them: one setter per key, validated where it is declared.
type binder struct {
	names []string
	doc   map[string]ParamDoc
	set   map[string]func(string) error
}

func newBinder() *binder {
	return &binder{doc: map[string]ParamDoc{}, set: map[string]func(string) error{}}
}

func (b *binder) add(name, def, doc string, set func(string) error) {
	b.names = append(b.names, name)
	b.doc[name] = ParamDoc{Name: name, Default: def, Doc: doc}
	b.set[name] = set
}

func (b *binder) docs() []ParamDoc {
	out := make([]ParamDoc, len(b.names))
	for i, n := range b.names {
		out[i] = b.doc[n]
	}
	return out
}

// apply sets every argument, in sorted key order; the first problem is
// returned.
func (b *binder) apply(args map[string]string) error {
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		set, ok := b.set[k]
		if !ok {
			valid := "none"
			if len(b.names) > 0 {
				valid = strings.Join(b.names, ", ")
			}
			return fmt.Errorf("unknown parameter %q (valid: %s)", k, valid)
		}
		if err := set(args[k]); err != nil {
			return fmt.Errorf("parameter %s=%s: %w", k, args[k], err)
		}
	}
	return nil
}

// boolean declares a true/false parameter.
func (b *binder) boolean(name string, p *bool, doc string) {
	b.add(name, strconv.FormatBool(*p), doc, func(v string) error {
		x, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("want true or false")
		}
		*p = x
		return nil
	})
}

// number declares a float parameter within [lo, hi].
func (b *binder) number(name string, p *float64, lo, hi float64, doc string) {
	b.add(name, strconv.FormatFloat(*p, 'g', -1, 64), doc, func(v string) error {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x < lo || x > hi {
			return fmt.Errorf("want a number in [%g, %g]", lo, hi)
		}
		*p = x
		return nil
	})
}

// fraction declares an exact rational parameter in [lo, hi] (such as a
// queue's maximum share, compared exactly). It sets *p in place, so p must
// belong to the parameters being bound, not to the policy's defaults
// (which every construction copies): bind clones the default's Rat first.
func (b *binder) fraction(name string, p *big.Rat, lo, hi int64, doc string) {
	b.add(name, p.FloatString(3), doc, func(v string) error {
		x, ok := new(big.Rat).SetString(v)
		if !ok || x.Cmp(big.NewRat(lo, 1)) < 0 || x.Cmp(big.NewRat(hi, 1)) > 0 || !x.Num().IsInt64() || !x.Denom().IsInt64() {
			return fmt.Errorf("want a number in [%d, %d]", lo, hi)
		}
		p.Set(x)
		return nil
	})
}

// choice declares a parameter taking one of the given names.
func (b *binder) choice(name string, p *string, valid []string, doc string) {
	b.add(name, *p, doc, func(v string) error {
		if !slices.Contains(valid, v) {
			return fmt.Errorf("want one of %s", strings.Join(valid, ", "))
		}
		*p = v
		return nil
	})
}

// intra declares the intra-job order parameter.
func (b *binder) intra(p *sim.Intra) {
	b.add("intra", p.String(), "order inside a job: "+strings.Join(sim.IntraNames(), ", "), func(v string) error {
		x, ok := sim.IntraByName(v)
		if !ok {
			return fmt.Errorf("want one of %s", strings.Join(sim.IntraNames(), ", "))
		}
		*p = x
		return nil
	})
}

// placement declares the place= and k= parameters.
func (b *binder) placement(p *Placement) {
	b.add("place", p.Rule.String(), "machine choice: first, best, align", func(v string) error {
		r, ok := placeRuleByName(v)
		if !ok {
			return fmt.Errorf("want first, best or align")
		}
		p.Rule = r
		return nil
	})
	b.countOrAll("k", &p.K, "machines best and align compare (a number or all)")
}

// countOrAll declares a positive count parameter where "all" means 0.
func (b *binder) countOrAll(name string, p *int, doc string) {
	def := strconv.Itoa(*p)
	if *p == 0 {
		def = "all"
	}
	b.add(name, def, doc, func(v string) error {
		if v == "all" {
			*p = 0
			return nil
		}
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 {
			return fmt.Errorf("want a positive number or all")
		}
		*p = k
		return nil
	})
}
