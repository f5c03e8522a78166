package conformance

// cronjobDecisions returns the cronjob decisions the vectors in testdata/cronjob name.
func cronjobDecisions() map[string]decider {
	return map[string]decider{}
}
