package conformance

// nodeDecisions returns the node decisions the vectors in testdata/node name.
func nodeDecisions() []Decision {
	return nil
}
