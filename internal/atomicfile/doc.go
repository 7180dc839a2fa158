// Package atomicfile is capplan's one home for writing a file atomically:
// the bytes go to a temporary file beside the target, which is flushed,
// fsynced and renamed over it, so a failed or interrupted run never leaves
// a partial output file. ReplaceDir does the same for a whole directory
// (a plan bundle): written beside the target, then renamed into place.
//
// It imports only the standard library; the CLI, reports and datasets
// (example files) write through it.
package atomicfile
