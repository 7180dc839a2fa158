// Package reports renders views of capplan's plan documents: aligned
// terminal tables and stable tab-separated text, CSV, and xlsx workbooks
// with native charts, and writes files atomically (temporary file, fsync,
// rename), so a failed run never leaves partial output.
//
// Every view is built from a plan document alone; nothing here re-runs an
// algorithm.
package reports
