package conformance

// podstatusDecisions returns the podstatus decisions the vectors in testdata/podstatus name.
func podstatusDecisions() map[string]decider {
	return map[string]decider{}
}
