// Command benchtables prints capplan's quality and speed tables (`make
// bench`): CMMF solve times on generated instances for every method, the
// agreement between methods, and whole-process runs of the capplan binary
// with their peak memory. Inputs come from seeded generators, so the
// tables are reproducible up to the machine's speed.
package main
