package statefulset

// maxBatch caps one slow-start batch of a Parallel set (MaxBatchSize,
// stateful_set_control.go, v1.36.3).
const maxBatch = 500

// runForAll runs fn over [0,n): in order, stopping at the first true, when
// monotonic; otherwise in slow-start batches 1, 2, 4 … (at most maxBatch),
// stopping after a batch in which a write failed. It reports whether the
// sync stops here.
func (s *stepper) runForAll(n int, monotonic bool, fn func(i int) bool) bool {
	if monotonic {
		for i := 0; i < n; i++ {
			if fn(i) || s.failed {
				return true
			}
		}
		return false
	}
	i := 0
	for batch := min(n, 1); batch > 0; batch = min(2*batch, n-i, maxBatch) {
		for j := 0; j < batch; j++ {
			fn(i)
			i++
		}
		if s.failed {
			return true
		}
	}
	return false
}

// stopped is the outcome of a sync that stopped while scaling.
func (s *stepper) stopped() Reason {
	if s.plan.Create.Count > 0 || len(s.plan.Delete) > 0 {
		return ReasonScaling
	}
	return ReasonBlocked
}
