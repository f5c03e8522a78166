package conformance

// pdbDecisions returns the pdb decisions the vectors in testdata/pdb name.
func pdbDecisions() []Decision {
	return nil
}
