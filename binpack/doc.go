// Package binpack holds the resource-vector helpers shared by capplan's
// packing and container-shape algorithms: Dominates and FirstFit for fit
// decisions, Shortfalls and Closest to say which dimensions a request
// lacks and by how much. Sub-packages: xsize (X-Size container shape
// catalogs), xselect (X-Select ownership packing) and vbp (vector bin
// packing for cluster sizing, one node type or a priced mix).
//
// A resource vector lists one amount per resource dimension, in the order of
// the cluster's dimension names, in real units (milli-cores, bytes, GPUs).
// Every fit decision compares those exact values; nothing here normalises.
package binpack
