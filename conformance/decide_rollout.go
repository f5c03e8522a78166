package conformance

// rolloutDecisions returns the rollout decisions the vectors in testdata/rollout name.
func rolloutDecisions() map[string]decider {
	return map[string]decider{}
}
