// Package xselect packs owned containers onto heterogeneous nodes: X-Flex's
// X-Select (Wolf et al., "X-Flex", §2.2; specification in ALGORITHMS.md §2),
// with placement rules (eligibility, MaxPerNode, Colocate, Exlocate) and an
// incremental mode that may change only a fraction of the nodes.
package xselect
