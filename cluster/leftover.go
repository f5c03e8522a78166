package cluster

import (
	"slices"

	"github.com/kubesem/kubesem/podstatus"
)

// Leftovers are the pods a world that settled leaves behind: nothing in
// the world will move them on.
type Leftovers struct {
	// Unscheduled pods are bound to no node: no node can take them (none
	// exists, or none fits).
	Unscheduled []Key `json:"unscheduled,omitempty"`
	// Stranded pods run, or are being deleted, on a node that is missing
	// or whose kubelet is stopped: no kubelet will finish them.
	Stranded []Key `json:"stranded,omitempty"`
}

// Empty reports whether there are no leftovers.
func (l Leftovers) Empty() bool { return len(l.Unscheduled) == 0 && len(l.Stranded) == 0 }

// Leftovers lists the pods of the world's State nothing in the world
// will move on (see [Leftovers]), in key order: a world that "settles"
// with leftovers is stuck on its environment, not done (a dump without
// Nodes settles at once with every pod pending).
func (w *World) Leftovers() Leftovers {
	var l Leftovers
	for _, p := range w.State.Pods() {
		if podstatus.IsTerminal(p) && p.DeletionTimestamp == nil {
			continue
		}
		k := Key{KindPod, p.Namespace, p.Name}
		switch {
		case p.Spec.NodeName == "":
			if p.DeletionTimestamp == nil {
				l.Unscheduled = append(l.Unscheduled, k)
			}
		case w.State.Node(p.Spec.NodeName) == nil:
			l.Stranded = append(l.Stranded, k)
		default:
			if e := w.nodes[p.Spec.NodeName]; e != nil && e.stopped {
				l.Stranded = append(l.Stranded, k)
			}
		}
	}
	slices.SortFunc(l.Unscheduled, compareKeys)
	slices.SortFunc(l.Stranded, compareKeys)
	return l
}
