// Package xselect packs owned containers onto heterogeneous nodes: X-Flex's
// X-Select (Wolf et al., "X-Flex", §2.2; specification in ALGORITHMS.md §2),
// with placement rules (eligibility, MaxPerNode, Colocate, Exlocate) and an
// incremental mode that may change only a fraction of the nodes.
//
// Solve's λ search stops after Options.MaxWork work units (a default when
// 0); Options.TimeLimit is an opt-in wall-clock bound. Check and
// CheckIncremental verify a plan independently of the packer.
//
// The package is pure: no I/O, no printing. It may import binpack (fit
// tests) and binpack/internal/work.
package xselect
