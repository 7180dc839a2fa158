package datasets

import (
	"maps"
	"strconv"

	corev1 "k8s.io/api/core/v1"

	"github.com/capplan/capplan/internal/inputerr"
)

// RackLabel is the label under which a node's rack is visible to label
// selectors, unless the node already carries a label of that name.
const RackLabel = "rack"

// MaxNodes bounds the nodes of one cluster (the sum of group counts), so
// that expanding groups into nodes stays within memory: a 100-byte file
// with count: 10000000 made per-node plans (fairshare --per-node, pack)
// hold several GB. 100,000 nodes is more than any public trace's cluster
// (Google's 2019 cells: about 12,000) and as many as a DAG is scheduled on
// (pipeline.MaxDAGMachines); per-node plans of that many nodes stay near
// 100 MB.
const MaxNodes = 100_000

// LoadOptions tune how inputs are read.
type LoadOptions struct {
	// RackLabel is the node label that holds a node's rack in a kubectl
	// node list; empty means "rack".
	RackLabel string
	// Pods makes a kubectl node's pod limit (allocatable "pods") a
	// resource dimension; by default it is left out.
	Pods bool
}

func (o LoadOptions) rackLabel() string {
	if o.RackLabel == "" {
		return RackLabel
	}
	return o.RackLabel
}

// Cluster is a node inventory: resource dimensions and groups of identical
// nodes, in file order.
type Cluster struct {
	// Source is the file name the cluster was loaded from.
	Source string
	// Resources are the resource dimensions, in the order of every Vector.
	Resources []string
	// Groups are the node groups, in file order.
	Groups []NodeGroup
	// Excluded lists the nodes of the file left out of the cluster, and
	// why (kubectl node lists: cordoned nodes).
	Excluded []Exclusion
	// Notes are remarks on how the file was read that a planner should
	// see (kubectl node lists: an instance type whose nodes differ in
	// allocatable is planned with the smallest amounts).
	Notes []string
}

// Exclusion is a node left out of planning and the reason, in the user's
// words ("cordoned (spec.unschedulable)").
type Exclusion struct {
	Node   string
	Reason string
}

// NodeGroup is Count identical nodes, apart from their name and rack.
type NodeGroup struct {
	// Name is unique within the cluster.
	Name string
	// Count is the number of nodes (> 0).
	Count int
	// Racks are assigned to the nodes round-robin; none means no rack.
	Racks []string
	// Labels are the group's node labels (without the rack label). Shared:
	// do not modify.
	Labels map[string]string
	// Capacity is the capacity of each node, in Cluster.Resources order.
	Capacity Vector
	// Taints are the group's node taints (kubectl node lists, or the
	// capplan group's taints). Only NoSchedule and NoExecute taints bind:
	// an application may run on the group only if it tolerates each of
	// them (Kubernetes semantics, corev1.Toleration.ToleratesTaint).
	Taints []corev1.Taint
	// Members, when set (kubectl node lists), are the group's nodes one by
	// one, with their own names, racks and labels (nodes of one instance
	// type differ in hostname, zone, ...); Labels then holds the labels
	// all members share. Otherwise node i is named Name-i and has the
	// group's labels and rack i mod len(Racks).
	Members []Member
}

// Member is one node of a kubectl node group.
type Member struct {
	Name string
	// Rack is "" when the node has no rack label.
	Rack string
	// Labels are the node's labels, the rack label included as for
	// Node.Labels. Shared: do not modify.
	Labels map[string]string
}

// Node is one concrete node of a cluster.
type Node struct {
	Name  string
	Group string
	// Rack is empty when the group has no racks.
	Rack string
	// Labels include the rack as RackLabel when the node has a rack and no
	// label of that name. Shared between nodes: do not modify.
	Labels map[string]string
	// Capacity is in Cluster.Resources order. Shared: do not modify.
	Capacity Vector
}

// NodeName returns the name of node i of the group.
func (g *NodeGroup) NodeName(i int) string {
	if g.Members != nil {
		return g.Members[i].Name
	}
	return g.Name + "-" + strconv.Itoa(i)
}

// NodeRack returns the rack of node i of the group, or "".
func (g *NodeGroup) NodeRack(i int) string {
	if g.Members != nil {
		return g.Members[i].Rack
	}
	if len(g.Racks) == 0 {
		return ""
	}
	return g.Racks[i%len(g.Racks)]
}

// nodeLabels returns the labels of the group's nodes in rack: the group's
// own map when the rack adds nothing, else a copy with the rack label.
func (g *NodeGroup) nodeLabels(rack string) map[string]string {
	if _, has := g.Labels[RackLabel]; rack == "" || has {
		return g.Labels
	}
	l := maps.Clone(g.Labels)
	if l == nil {
		l = map[string]string{}
	}
	l[RackLabel] = rack
	return l
}

// NumNodes returns the number of nodes of the cluster.
func (c *Cluster) NumNodes() int {
	n := 0
	for i := range c.Groups {
		n += c.Groups[i].Count
	}
	return n
}

// Nodes expands the groups into nodes: groups in file order, nodes in
// index order. Nodes of one group and rack share their Labels map.
func (c *Cluster) Nodes() []Node {
	nodes := make([]Node, 0, c.NumNodes())
	for gi := range c.Groups {
		g := &c.Groups[gi]
		byRack := map[string]map[string]string{}
		for i := 0; i < g.Count; i++ {
			rack := g.NodeRack(i)
			var l map[string]string
			if g.Members != nil {
				l = g.Members[i].Labels
			} else if l = byRack[rack]; l == nil {
				l = g.nodeLabels(rack)
				byRack[rack] = l
			}
			nodes = append(nodes, Node{Name: g.NodeName(i), Group: g.Name, Rack: rack, Labels: l, Capacity: g.Capacity})
		}
	}
	return nodes
}

// LoadCluster reads a cluster inventory from path: a capplan/v1 Cluster
// (YAML or JSON) or the output of `kubectl get nodes -o json`, told apart by
// content. Input mistakes give an *inputerr.Error listing all of them.
func LoadCluster(path string, opts LoadOptions) (*Cluster, error) {
	data, err := ReadFile(path, 0)
	if err != nil {
		return nil, err
	}
	return ParseCluster(path, data, opts)
}

// ParseCluster is LoadCluster on data already read; name is used in
// messages and as Cluster.Source.
func ParseCluster(name string, data []byte, opts LoadOptions) (*Cluster, error) {
	ps := &inputerr.List{File: name}
	root, ok := decodeTree(ps, data)
	if !ok {
		return nil, ps.Err()
	}
	var c *Cluster
	if kind := readKind(ps, root, KindCluster); kind == KindCluster {
		c = clusterFromTree(ps, root)
	} else if kind == kindKubectl {
		c = kubectlFromTree(ps, root, opts)
	}
	if err := ps.Err(); err != nil {
		return nil, err
	}
	c.Source = name
	return c, nil
}
