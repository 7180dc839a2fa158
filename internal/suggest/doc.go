// Package suggest is the one home of "did you mean …?": the nearest of a
// list of known names to a name the user typed, by edit distance. Input
// readers use it for unknown fields and resource names, the CLI for
// unknown flags.
//
// It imports only the standard library.
package suggest
