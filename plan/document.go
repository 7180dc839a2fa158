package plan

// APIVersion is the schema version of every document capplan reads or writes.
const APIVersion = "capplan/v1"

// Header is the part every plan document shares: what made it and from what.
type Header struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Generator names the tool and its version, e.g. "capplan v0.1.0".
	Generator string `json:"generator"`
	// Inputs lists every input file with its SHA-256 digest.
	Inputs []Input `json:"inputs"`
	// Flags records the options that shaped the result, by flag name.
	Flags map[string]string `json:"flags,omitempty"`
	// Seed is the random seed, for commands that use one.
	Seed *int64 `json:"seed,omitempty"`
	// Excluded lists the nodes of the cluster input left out of the plan,
	// each with the reason: a cordoned node, a node whose NoSchedule or
	// NoExecute taints no application tolerates.
	Excluded []ExcludedNode `json:"excluded,omitempty"`
	// Notes are remarks on how the inputs were read that a planner should
	// see, e.g. an instance type whose nodes differ in allocatable.
	Notes []string `json:"notes,omitempty"`
}

// DocumentHeader returns the header itself: every document embeds a
// Header, so every document pointer has this method, which lets views
// reach the common part of any document.
func (h *Header) DocumentHeader() *Header { return h }

// ExcludedNode is a node of the inventory the plan does not use.
type ExcludedNode struct {
	Node   string `json:"node"`
	Reason string `json:"reason"`
}

// Input names one input of a document and its content digest.
type Input struct {
	Role   string `json:"role"` // "cluster", "demand", ...
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}
