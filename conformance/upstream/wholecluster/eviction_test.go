package wholecluster_test

import (
	"context"
	"fmt"
	_ "unsafe" // go:linkname to the eviction storage constructor

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	policyclient "k8s.io/client-go/kubernetes/typed/policy/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	api "k8s.io/kubernetes/pkg/apis/core"
	podstorage "k8s.io/kubernetes/pkg/registry/core/pod/storage"
)

// The whole-cluster harness's pods/eviction: v1.36.3's own eviction
// subresource (pkg/registry/core/pod/storage EvictionREST, built by its
// unexported constructor newEvictionStorage) over podStore, a pod storage
// that reads, updates and deletes through the harness's clientset (so the
// API server, apiServer, applies its rules and every write is traced),
// with the clientset's policy/v1 client for the budgets. Upstream builds it
// over the pod registry's status store (NewStorage: statusStore, whose
// update strategy is the status strategy): podStore's Update is a
// pods/status update. The storage's own rules — which pods ignore budgets,
// the budget check and decrement (checkAndDecrement, disruptedPods stamped
// with time.Now(), which the API server moves onto the harness clock like
// every wall-clock stamp), the DisruptionTarget condition and the delete
// with its resourceVersion precondition — are upstream's code, run as is.

//go:linkname newEvictionStorage k8s.io/kubernetes/pkg/registry/core/pod/storage.newEvictionStorage
func newEvictionStorage(store rest.StandardStorage, pdbs policyclient.PodDisruptionBudgetsGetter) *podstorage.EvictionREST

// podStore is the pod storage under the eviction subresource: Get,
// Update and Delete only (the embedded interface is nil: the eviction code
// calls nothing else).
type podStore struct {
	rest.StandardStorage
	w *world
}

func namespace(ctx context.Context) string {
	ns, _ := genericapirequest.NamespaceFrom(ctx)
	return ns
}

func toInternalPod(p *v1.Pod) (*api.Pod, error) {
	out := &api.Pod{}
	if err := legacyscheme.Scheme.Convert(p, out, nil); err != nil {
		return nil, err
	}
	return out, nil
}

func (s podStore) Get(ctx context.Context, name string, _ *metav1.GetOptions) (kruntime.Object, error) {
	p, err := s.w.client.CoreV1().Pods(namespace(ctx)).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	return toInternalPod(p)
}

// Update is the status store's GuaranteedUpdate: the object info applied
// to the stored pod, written as a pods/status update at the stored
// resourceVersion.
func (s podStore) Update(ctx context.Context, name string, info rest.UpdatedObjectInfo, _ rest.ValidateObjectFunc, _ rest.ValidateObjectUpdateFunc, _ bool, _ *metav1.UpdateOptions) (kruntime.Object, bool, error) {
	ns := namespace(ctx)
	cur, err := s.w.client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, false, err
	}
	old, err := toInternalPod(cur)
	if err != nil {
		return nil, false, err
	}
	obj, err := info.UpdatedObject(ctx, old)
	if err != nil {
		return nil, false, err
	}
	next := &v1.Pod{}
	if err := legacyscheme.Scheme.Convert(obj, next, nil); err != nil {
		return nil, false, err
	}
	next.ResourceVersion = cur.ResourceVersion
	out, err := s.w.client.CoreV1().Pods(ns).UpdateStatus(ctx, next, metav1.UpdateOptions{})
	if err != nil {
		return nil, false, err
	}
	in, err := toInternalPod(out)
	return in, false, err
}

func (s podStore) Delete(ctx context.Context, name string, _ rest.ValidateObjectFunc, opts *metav1.DeleteOptions) (kruntime.Object, bool, error) {
	o := metav1.DeleteOptions{}
	if opts != nil {
		o = *opts
	}
	err := s.w.client.CoreV1().Pods(namespace(ctx)).Delete(ctx, name, o)
	return nil, err == nil, err
}

// eviction is the answer of the eviction subresource: 201 (the pod is
// evicted) or the API error's code, with the DisruptionBudget cause's
// message of a 429 (the error's message otherwise).
type eviction struct {
	code int32
	msg  string
}

func (e eviction) String() string { return fmt.Sprintf("code=%d %q", e.code, e.msg) }
