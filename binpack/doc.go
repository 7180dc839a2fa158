// Package binpack holds the resource-vector helpers shared by capplan's
// packing and container-shape algorithms (sub-package xsize).
//
// A resource vector lists one amount per resource dimension, in the order of
// the cluster's dimension names, in real units (milli-cores, bytes, GPUs).
// Every fit decision compares those exact values; nothing here normalises.
package binpack
