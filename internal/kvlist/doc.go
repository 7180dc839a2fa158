// Package kvlist is capplan's one home for the comma-separated KEY=VALUE
// lists that flags take, such as --round cpu=1,memory=1Gi,
// --machine-capacity cpu=16,memory=64Gi and --node-type std=1,highmem=3.5:
// Parse splits a list into its pairs and Quantities reads the values as
// Kubernetes quantities (k8s.io/apimachinery/pkg/api/resource).
//
// It imports the standard library and apimachinery's resource package only.
package kvlist
