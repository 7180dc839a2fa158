package policies

import (
	"fmt"
	"slices"
	"strings"

	"github.com/capplan/capplan/sim"
)

// Spec describes one policy: its name, a one-line doc, the parameters it
// accepts and a constructor that parses them.
type Spec struct {
	Name   string
	Doc    string
	Params []ParamDoc
	// New builds the policy from key=value parameters; an unknown key or a
	// bad value is an error naming the valid keys or values.
	New func(args map[string]string) (sim.Policy, error)
}

// ParamDoc documents one parameter.
type ParamDoc struct {
	Name, Default, Doc string
}

var registry = map[string]Spec{}

// register adds a policy; each policy file registers itself in init.
func register(s Spec) {
	if _, dup := registry[s.Name]; dup {
		panic("policies: duplicate policy " + s.Name)
	}
	registry[s.Name] = s
}

// Names returns the registered policy names, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Lookup returns the policy named name.
func Lookup(name string) (Spec, bool) {
	s, ok := registry[name]
	return s, ok
}

// UnknownPolicyError is returned for a name no policy has.
type UnknownPolicyError struct {
	Name  string
	Valid []string
}

func (e *UnknownPolicyError) Error() string {
	return fmt.Sprintf("policies: unknown policy %q (valid: %s)", e.Name, strings.Join(e.Valid, ", "))
}

// New builds the named policy with its parameters.
func New(name string, args map[string]string) (sim.Policy, error) {
	s, ok := registry[name]
	if !ok {
		return nil, &UnknownPolicyError{Name: name, Valid: Names()}
	}
	p, err := s.New(args)
	if err != nil {
		return nil, fmt.Errorf("policies: %s: %w", name, err)
	}
	return p, nil
}

// typed builds a Spec from a typed parameter struct P: defaults, a bind
// function that declares P's parameters, and a constructor.
func typed[P any](name, doc string, defaults P, bind func(*P, *binder), build func(P) sim.Policy) Spec {
	probe := defaults
	b := newBinder()
	bind(&probe, b)
	return Spec{Name: name, Doc: doc, Params: b.docs(), New: func(args map[string]string) (sim.Policy, error) {
		p := defaults
		b := newBinder()
		bind(&p, b)
		if err := b.apply(args); err != nil {
			return nil, err
		}
		return build(p), nil
	}}
}
