// Package xselect packs owned containers onto heterogeneous nodes: X-Flex's
// X-Select (Wolf et al., "X-Flex", §2; specification in ALGORITHMS.md §2).
package xselect
