// Package vbpfile reads the vector bin packing benchmark files of
// Mommessin et al. (the VPSolver .vbp instance format and the tab-separated
// *_summary_known.csv files with lower bounds and proven optima) into
// binpack/vbp's Instance, and loads a whole benchmark set.
//
// It may import binpack/vbp (the model it builds) and the standard
// library; binpack/vbp never imports it. Errors name the file and the
// 1-based line (*ParseError).
package vbpfile
