package conformance

// replicasetDecisions returns the replicaset decisions the vectors in testdata/replicaset name.
func replicasetDecisions() map[string]decider {
	return map[string]decider{}
}
