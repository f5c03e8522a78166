//go:build !unix

package difftest

import "time"

// ProcessCPU is 0 where getrusage is missing: no cpu-ns/op metric.
func ProcessCPU() time.Duration { return 0 }
