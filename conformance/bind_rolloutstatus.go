package conformance

// rolloutstatusDecisions returns the rolloutstatus decisions the vectors in testdata/rolloutstatus name.
func rolloutstatusDecisions() []Decision {
	return legacyTable(rolloutStatusLegacy())
}
