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
//
// # Scenarios
//
// kubesem, fed the objects read back from the server through the k8s
// adapter, must predict what the controllers then write: the Deployment's
// ReplicaSets (create, roll, roll back), the StatefulSet web's revision,
// claims and pods (with a partitioned update), the DaemonSet's revision and
// pods on three nodes, an Indexed Job's pods and a pod failure policy, the
// CronJob hello firing (it waits for the next minute, up to 60 s), a
// PodDisruptionBudget's status and the API server's eviction decisions, a
// DaemonSet update with one NotReady node, a DaemonSet adopting and
// deleting a failed orphan (its first status counts no pod there), a node
// outage (no lease renewal:
// the node turns Unknown after the 50 s grace period, is tainted
// unreachable, and the pod tolerating that for 2 s is evicted), and the pod
// garbage collector deleting the orphan of a deleted node (40–100 s); and
// once they settle kubesem must have nothing left to write. The waiting
// scenarios run in parallel (the module sets -parallel 16 unless given):
// about 85 s warm.
//
// # The kubectl plugin
//
// The plugin runs against the server too (plugin_test.go: the binary built
// from the workspace, a kubeconfig written for the server): kubectl kubesem
// shadow runs alongside every scenario and must report zero mismatches; the
// website's examples (nginx-deployment, the StatefulSet web, the DaemonSet
// fluentd-elasticsearch, the CronJob hello) are applied and explained right
// after the apply — the controllers' writes to the namespace held by a
// write gate in the test's transport — and the plugin must print what
// kubesem explain prints on a dump of the same server (typed Lists, and
// kubectl get -o json's List once settled), and every object it says will
// be created must then be created under that name by the real controller.
//
// go -C conformance/live test -v -args -live.logs shows the server's and
// controllers' logs; LIVE_SHADOW_LOG=1 logs shadow's output.
package live
