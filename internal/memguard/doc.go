// Package memguard is capplan's one home for the --max-memory guard: a
// soft memory limit for the Go runtime and a watchdog that stops the
// process cleanly, with a message, when the memory in use stays above the
// limit. The guard never changes a result: a run either finishes with the
// same output as without it, or stops.
//
// It imports only the standard library. The CLI runs the guard; the
// pipeline formats its memory estimates with Bytes.
package memguard
