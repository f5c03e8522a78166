package conformance

// statefulsetDecisions returns the statefulset decisions the vectors in testdata/statefulset name.
func statefulsetDecisions() []Decision {
	return nil
}
