// Package kubesem states, as pure functions, what the Kubernetes workload
// controllers decide. The rules live in the sub-packages (intstr, podstatus,
// replicaset, rollout, job, cronjob, ...); this package only carries the
// conformance vectors, so that any build of kubesem can run them.
package kubesem

import (
	"embed"
	"io/fs"
)

//go:embed testdata
var vectors embed.FS

// Vectors returns the conformance vectors shipped with this version of
// kubesem: a file system with one folder per package holding JSON arrays of
// vectors, as conformance.Load reads them.
func Vectors() fs.FS {
	sub, err := fs.Sub(vectors, "testdata")
	if err != nil {
		return vectors
	}
	return sub
}
