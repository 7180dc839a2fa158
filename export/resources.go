package export

import (
	"math/big"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// mebibyte is 2^20 bytes, the unit of YARN's memory-mb and the granularity
// of memory quotas.
const mebibyte = 1 << 20

// isByteResource reports whether a plan resource is measured in bytes
// (memory, storage): its quotas are whole MiB.
func isByteResource(name string) bool {
	return strings.Contains(name, "memory") || strings.Contains(name, "storage")
}

// KubernetesResource is the Kubernetes resource name of a plan resource:
// cpu, memory and ephemeral-storage as they are, "gpu" as nvidia.com/gpu,
// any name with a '/' (already an extended resource) unchanged, and any
// other name as the extended resource capplan.io/NAME (Kubernetes accepts
// only fully qualified names for extended resources).
func KubernetesResource(name string) corev1.ResourceName {
	switch {
	case name == "cpu", name == "memory", name == "ephemeral-storage", strings.Contains(name, "/"):
		return corev1.ResourceName(name)
	case name == "gpu":
		return "nvidia.com/gpu"
	}
	return corev1.ResourceName("capplan.io/" + name)
}

// isStandardKubernetes reports whether a Kubernetes resource has a limits.
// quota as well as requests. (extended resources take requests. only).
func isStandardKubernetes(r corev1.ResourceName) bool {
	return r == corev1.ResourceCPU || r == corev1.ResourceMemory || r == corev1.ResourceEphemeralStorage
}

// kubernetesGranularity is the rounding unit of a quota, in base units:
// 1m of cpu, 1Mi of bytes, one whole unit of anything else (devices such
// as GPUs are requested whole).
func kubernetesGranularity(name string) *big.Rat {
	switch {
	case name == "cpu":
		return big.NewRat(1, 1000)
	case isByteResource(name):
		return big.NewRat(mebibyte, 1)
	}
	return big.NewRat(1, 1)
}

// kubernetesQuantity is n units of kubernetesGranularity(name) as a
// Quantity: millicores (DecimalSI), bytes in BinarySI, or a whole count.
func kubernetesQuantity(name string, n *big.Int) resource.Quantity {
	switch {
	case name == "cpu":
		return *resource.NewMilliQuantity(n.Int64(), resource.DecimalSI)
	case isByteResource(name):
		return *resource.NewQuantity(n.Int64()*mebibyte, resource.BinarySI)
	}
	return *resource.NewQuantity(n.Int64(), resource.DecimalSI)
}

// yarnResource is the YARN resource type of a plan resource: vcores,
// memory-mb, yarn.io/gpu; other resources keep their name and must be
// declared in YARN's resource-types.xml.
func yarnResource(name string) string {
	switch name {
	case "cpu":
		return "vcores"
	case "memory":
		return "memory-mb"
	case "gpu", "nvidia.com/gpu":
		return "yarn.io/gpu"
	}
	return name
}

// yarnGranularity is the unit YARN counts a resource in, in base units:
// whole vcores, MiB of memory (memory-mb), whole devices.
func yarnGranularity(name string) *big.Rat {
	if isByteResource(name) {
		return big.NewRat(mebibyte, 1)
	}
	return big.NewRat(1, 1)
}
