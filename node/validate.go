package node

import (
	"github.com/kubesem/kubesem/field"
)

// validateStep rejects input Step cannot read: nil or unnamed nodes,
// duplicate node or lease names.
func validateStep(nodes []*Node, leases []Lease) error {
	seen := make(map[string]bool, len(nodes))
	for i, n := range nodes {
		p := field.Index("nodes", i)
		if n == nil {
			return field.New(p, "", field.ErrRequired)
		}
		if n.Name == "" {
			return field.New(p+".metadata.name", "", field.ErrRequired)
		}
		if seen[n.Name] {
			return field.New(p+".metadata.name", n.Name, field.ErrDuplicate)
		}
		seen[n.Name] = true
	}
	seenL := make(map[string]bool, len(leases))
	for i, l := range leases {
		p := field.Index("leases", i) + ".name"
		if l.Name == "" {
			return field.New(p, "", field.ErrRequired)
		}
		if seenL[l.Name] {
			return field.New(p, l.Name, field.ErrDuplicate)
		}
		seenL[l.Name] = true
	}
	return nil
}
