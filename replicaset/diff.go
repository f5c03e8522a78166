package replicaset

import (
	"math"
	"math/bits"
)

// Diff returns how many pods one sync deletes (positive) or creates
// (negative): active - replicas, capped at the burst limit (500 unless
// opts.BurstReplicas says otherwise) in both directions. It saturates rather
// than overflows.
//
// Source: upstream pkg/controller/replicaset/replica_set.go manageReplicas
// (v1.36.3).
func Diff(active int, replicas int32, opts Options) int {
	burst := opts.burst()
	if replicas < 0 && int64(active) > math.MaxInt64+int64(replicas) {
		return burst
	}
	d := int64(active) - int64(replicas)
	switch {
	case d > int64(burst):
		return burst
	case d < -int64(burst):
		return -burst
	}
	return int(d)
}

// SlowStart returns the batch sizes in which the controller attempts count
// pod creations, and how many of them succeed, when the first succeed
// attempts succeed and every later one fails. Batches are 1, 2, 4, … capped
// at what remains; the controller stops after the first batch holding a
// failure, so the attempts of later batches are never made. A count <= 0
// yields no batch.
//
// Source: upstream pkg/controller/replicaset/replica_set.go slowStartBatch,
// pkg/controller/controller_utils.go SlowStartInitialBatchSize (v1.36.3).
func SlowStart(count, succeed int) (sizes []int, succeeded int) {
	if count <= 0 {
		return nil, 0
	}
	sizes = make([]int, 0, bits.Len(uint(count)))
	attempted := 0
	for size := min(count, 1); size > 0; size = min(2*size, count-attempted) {
		sizes = append(sizes, size)
		ok := min(size, max(0, succeed-attempted))
		succeeded += ok
		attempted += size
		if ok < size {
			break
		}
	}
	return sizes, succeeded
}
