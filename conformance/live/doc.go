// Package live runs kubesem against a real Kubernetes v1.36.3 control plane:
// its tests start an etcd server (go.etcd.io/etcd/server/v3/embed, through
// k8s.io/apiserver/pkg/storage/etcd3/testserver) and a kube-apiserver
// (k8s.io/kubernetes/cmd/kube-apiserver/app/testing) in the test process, once
// per test binary, and run v1.36.3's workload controllers
// (k8s.io/kubernetes/pkg/controller/...) against it with one shared informer
// factory. A small fake scheduler and kubelet written by the tests bind pods
// and report them running, and the tests renew node leases.
//
// The scenarios read objects back from the server, convert them with the k8s
// adapter unmodified, ask kubesem what the controller does next, and then
// watch the real controller do it: names, hashes, sizes and pods must agree.
//
// Nothing here needs a network or a binary outside Go.
package live
