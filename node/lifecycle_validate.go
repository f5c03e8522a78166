package node

import (
	"github.com/kubesem/kubesem/field"
)

// inOrder tells which of a pass's lists are sorted by name (each name
// greater than the one before it).
type inOrder struct{ nodes, leases bool }

// validateStep rejects input Step cannot read: nil or unnamed nodes,
// duplicate node or lease names. It reports which lists it found in order.
func validateStep(nodes []*Node, leases []Lease) (inOrder, error) {
	// (paths are built only for an error; names listed in order, as
	// caches list them, show a duplicate as equal neighbours, and the sets
	// are built only once the order breaks, so the first duplicate found
	// is the same either way)
	var seen map[string]bool
	for i, n := range nodes {
		if n == nil {
			return inOrder{}, field.New(field.Index("nodes", i), "", field.ErrRequired)
		}
		if n.Name == "" {
			return inOrder{}, field.New(field.Index("nodes", i)+".metadata.name", "", field.ErrRequired)
		}
		if seen == nil && i > 0 {
			switch prev := nodes[i-1].Name; {
			case prev == n.Name:
				return inOrder{}, field.New(field.Index("nodes", i)+".metadata.name", n.Name, field.ErrDuplicate)
			case prev > n.Name:
				seen = make(map[string]bool, len(nodes))
				for _, m := range nodes[:i] {
					seen[m.Name] = true
				}
			}
		}
		if seen != nil {
			if seen[n.Name] {
				return inOrder{}, field.New(field.Index("nodes", i)+".metadata.name", n.Name, field.ErrDuplicate)
			}
			seen[n.Name] = true
		}
	}
	var seenL map[string]bool
	for i := range leases {
		l := &leases[i] // (a Lease is large)
		if l.Name == "" {
			return inOrder{}, field.New(field.Index("leases", i)+".metadata.name", "", field.ErrRequired)
		}
		if seenL == nil && i > 0 {
			switch prev := leases[i-1].Name; {
			case prev == l.Name:
				return inOrder{}, field.New(field.Index("leases", i)+".metadata.name", l.Name, field.ErrDuplicate)
			case prev > l.Name:
				seenL = make(map[string]bool, len(leases))
				for _, m := range leases[:i] {
					seenL[m.Name] = true
				}
			}
		}
		if seenL != nil {
			if seenL[l.Name] {
				return inOrder{}, field.New(field.Index("leases", i)+".metadata.name", l.Name, field.ErrDuplicate)
			}
			seenL[l.Name] = true
		}
	}
	return inOrder{nodes: seen == nil, leases: seenL == nil}, nil
}
