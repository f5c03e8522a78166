package conformance

// rolloutStatusDecisions returns the rollout status, condition, revision and
// rollout-status-viewer decisions the vectors in testdata/rollout name.
func rolloutStatusDecisions() map[string]decider {
	return map[string]decider{}
}
