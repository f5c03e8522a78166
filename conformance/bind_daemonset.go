package conformance

// daemonsetDecisions returns the daemonset decisions the vectors in testdata/daemonset name.
func daemonsetDecisions() []Decision {
	return nil
}
