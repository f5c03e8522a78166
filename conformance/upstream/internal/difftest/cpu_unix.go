//go:build unix

package difftest

import (
	"syscall"
	"time"
)

// ProcessCPU is the CPU time the process has used (user and system, every
// thread), for a per-op CPU metric that the other processes of a shared
// machine disturb less than wall time.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
