package conformance

// jobDecisions returns the job decisions the vectors in testdata/job name.
func jobDecisions() map[string]decider {
	return map[string]decider{}
}
