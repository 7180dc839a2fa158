// Package reports renders views of capplan's plan documents: aligned
// terminal tables and stable tab-separated text, CSV, JSON, and xlsx
// workbooks with native charts (files written through internal/atomicfile,
// so a failed run never leaves partial output).
//
// Every view is built from a plan document alone; nothing here re-runs an
// algorithm. It may import plan, the rendering libraries (tablewriter,
// excelize) and internal helpers; no algorithm package, no input package
// and no CLI library.
package reports
