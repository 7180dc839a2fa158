// Package pipeline holds capplan's pipeline functions, one per job: load
// the inputs, build the problem, solve, check, and return the plan
// document. The CLI and the bench tables call them; nothing is computed
// twice.
//
// It may import every algorithm package, datasets and plan; it prints
// nothing (progress goes through callbacks) and knows no command-line
// library.
package pipeline
