//go:build !unix

package upstream_test

import "time"

func wcbCPU() time.Duration { return 0 }
