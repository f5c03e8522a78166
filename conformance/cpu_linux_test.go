package conformance_test

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling OS thread has used (Linux
// RUSAGE_THREAD), or -1 when it cannot be read.
func threadCPU() time.Duration {
	const rusageThread = 1
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
