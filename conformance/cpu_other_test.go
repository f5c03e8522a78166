//go:build !linux

package conformance_test

import "time"

// threadCPU is not measured here: the time budget falls back to the wall
// clock.
func threadCPU() time.Duration { return -1 }
