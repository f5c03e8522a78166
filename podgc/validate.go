package podgc

import (
	"cmp"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

// validateStep rejects what the informer caches and the API server cannot
// hold: a nil pod or node, an object without a name, two pods with one
// namespace and name, two nodes (listed or unlisted) with one name, and a
// quarantine entry without a node. Each error is a *field.Error at the
// input's path (pods[i].metadata.name, unlisted[i], memory.quarantine[i].node).
func validateStep(pods []*podstatus.Pod, nodes []*node.Node, unlisted []string, mem Memory) error {
	// Pods listed in (namespace, name) order, as a cache lists them, show a
	// duplicate as equal neighbours; the map is built only once the order
	// breaks (from the pods before), so the first duplicate found is the
	// same either way.
	var seen map[[2]string]bool
	for i, p := range pods {
		if p == nil {
			return field.New(field.Index("pods", i), "", field.ErrRequired)
		}
		if p.Name == "" {
			return field.New(field.Index("pods", i)+".metadata.name", "", field.ErrRequired)
		}
		k := [2]string{p.Namespace, p.Name}
		if seen == nil && i > 0 {
			prev := pods[i-1]
			switch c := cmp.Or(cmp.Compare(prev.Namespace, k[0]), cmp.Compare(prev.Name, k[1])); {
			case c == 0:
				return field.New(field.Index("pods", i)+".metadata.name", p.Name, field.ErrDuplicate)
			case c > 0:
				seen = make(map[[2]string]bool, len(pods))
				for _, q := range pods[:i] {
					seen[[2]string{q.Namespace, q.Name}] = true
				}
			}
		}
		if seen != nil {
			if seen[k] {
				return field.New(field.Index("pods", i)+".metadata.name", p.Name, field.ErrDuplicate)
			}
			seen[k] = true
		}
	}
	names := make(map[string]bool, len(nodes)+len(unlisted))
	for i, n := range nodes {
		at := field.Index("nodes", i)
		if n == nil {
			return field.New(at, "", field.ErrRequired)
		}
		if n.Name == "" {
			return field.New(at+".metadata.name", "", field.ErrRequired)
		}
		if names[n.Name] {
			return field.New(at+".metadata.name", n.Name, field.ErrDuplicate)
		}
		names[n.Name] = true
	}
	for i, name := range unlisted {
		at := field.Index("unlisted", i)
		if name == "" {
			return field.New(at, "", field.ErrRequired)
		}
		if names[name] {
			return field.New(at, name, field.ErrDuplicate)
		}
		names[name] = true
	}
	for i, q := range mem.Quarantine {
		if q.Node == "" {
			return field.New(field.Index("memory.quarantine", i)+".node", "", field.ErrRequired)
		}
	}
	return nil
}
