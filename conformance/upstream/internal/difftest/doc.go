// Package difftest holds what the differential tests of
// conformance/upstream share across kinds: the adapter conversions to the
// objects upstream v1.36.3 reads (convert.go), stopping the controllers a
// harness built (teardown.go) and checking that none is left running
// (leak.go), calling a kubesem decision through the conformance binding
// (decide.go, oracle.go), reading and filling vectors (vectors.go,
// vectorfill.go), comparing API writes and JSON (writes.go, json.go),
// finding the repository's files from any package (repo.go), the
// generators several kinds draw from (template.go, nodegen.go,
// validation.go), and the go:linkname doors into upstream controllers
// that a kind's differential and the whole-cluster differential both open
// (controllers.go, nodelifecycle.go, tainteviction.go), and the driver of
// every kind's BenchmarkGrowth (growth.go, cpu_*.go).
//
// Each kind's tests live in their own package (conformance/upstream/<kind>)
// with a TestMain that calls [Main]; those whose tests build upstream
// controllers have a TestHarnessesDoNotLeak that calls [CheckNoLeak].
package difftest

import (
	// Every differential binary registers the same API groups in the
	// legacy scheme and links the controllers the go:linkname doors
	// reach, as the single test package did before the split.
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/controller/job"
	_ "k8s.io/kubernetes/pkg/controller/tainteviction"
	_ "k8s.io/kubernetes/pkg/controller/ttlafterfinished"
)
