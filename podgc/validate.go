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
// It returns the nodes by name.
func validateStep(pods []*podstatus.Pod, nodes []*node.Node, unlisted []string, mem Memory) (nodeIndex, error) {
	// Pods listed in (namespace, name) order, as a cache lists them, show a
	// duplicate as equal neighbours; the set is built only once the order
	// breaks (from the pods before), so the first duplicate found is the
	// same either way.
	var seen *podSet
	for i, p := range pods {
		if p == nil {
			return nodeIndex{}, field.New(field.Index("pods", i), "", field.ErrRequired)
		}
		if p.Name == "" {
			return nodeIndex{}, field.New(field.Index("pods", i)+".metadata.name", "", field.ErrRequired)
		}
		k := [2]string{p.Namespace, p.Name}
		if seen == nil && i > 0 {
			prev := pods[i-1]
			switch c := cmp.Or(cmp.Compare(prev.Namespace, k[0]), cmp.Compare(prev.Name, k[1])); {
			case c == 0:
				return nodeIndex{}, field.New(field.Index("pods", i)+".metadata.name", p.Name, field.ErrDuplicate)
			case c > 0:
				seen = newPodSet(pods)
				for j := range i {
					seen.add(j)
				}
			}
		}
		if seen != nil && !seen.add(i) {
			return nodeIndex{}, field.New(field.Index("pods", i)+".metadata.name", p.Name, field.ErrDuplicate)
		}
	}
	known := nodeIndex{listed: make(map[string]*node.Node, len(nodes))}
	for i, n := range nodes {
		at := func() string { return field.Index("nodes", i) } // (a path only for an error)
		if n == nil {
			return nodeIndex{}, field.New(at(), "", field.ErrRequired)
		}
		if n.Name == "" {
			return nodeIndex{}, field.New(at()+".metadata.name", "", field.ErrRequired)
		}
		if known.listed[n.Name] != nil {
			return nodeIndex{}, field.New(at()+".metadata.name", n.Name, field.ErrDuplicate)
		}
		known.listed[n.Name] = n
	}
	for i, name := range unlisted {
		at := func() string { return field.Index("unlisted", i) }
		if name == "" {
			return nodeIndex{}, field.New(at(), "", field.ErrRequired)
		}
		if known.inAPI(name) {
			return nodeIndex{}, field.New(at(), name, field.ErrDuplicate)
		}
		if known.unlisted == nil {
			known.unlisted = map[string]bool{}
		}
		known.unlisted[name] = true
	}
	for i, q := range mem.Quarantine {
		if q.Node == "" {
			return nodeIndex{}, field.New(field.Index("memory.quarantine", i)+".node", "", field.ErrRequired)
		}
	}
	return known, nil
}

// nodeIndex is the nodes by name: those the cache lists, and those only
// the API server has (unlisted).
type nodeIndex struct {
	listed   map[string]*node.Node
	unlisted map[string]bool
}

// inAPI reports whether the API server has the node: listed or unlisted.
func (x nodeIndex) inAPI(name string) bool { return x.listed[name] != nil || x.unlisted[name] }

// podSet is a set of pods (indexes into one list) by namespace and name:
// open addressing on a hash of the two, one allocation for any number of
// pods (a map keyed by both strings costs several times more per pod).
type podSet struct {
	pods  []*podstatus.Pod
	slots []int32 // 1 + index into pods; 0 is empty; len is a power of two
}

func newPodSet(pods []*podstatus.Pod) *podSet {
	n := 16
	for n < 2*len(pods) {
		n *= 2
	}
	return &podSet{pods: pods, slots: make([]int32, n)}
}

// add adds pod i; false when a pod of its namespace and name is in the set.
func (s *podSet) add(i int) bool {
	p := s.pods[i]
	mask := uint64(len(s.slots) - 1)
	for j := hashName(p.Namespace, p.Name) & mask; ; j = (j + 1) & mask {
		k := s.slots[j]
		if k == 0 {
			s.slots[j] = int32(i + 1)
			return true
		}
		if q := s.pods[k-1]; q.Name == p.Name && q.Namespace == p.Namespace {
			return false
		}
	}
}

// hashName is FNV-1a over namespace, a zero byte and name, mixed.
func hashName(namespace, name string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(namespace); i++ {
		h = (h ^ uint64(namespace[i])) * 1099511628211
	}
	h *= 1099511628211
	for i := 0; i < len(name); i++ {
		h = (h ^ uint64(name[i])) * 1099511628211
	}
	return h ^ h>>29
}
