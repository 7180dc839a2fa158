// Package plan defines capplan's plan documents: versioned JSON records of a
// command's inputs, flags, seed, result and quality evidence. Every output
// view (tables, CSV, workbooks, exports) is rendered from these documents,
// never by re-running an algorithm.
package plan
