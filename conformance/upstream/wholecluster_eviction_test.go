package upstream_test

import (
	"context"
	"errors"
	"fmt"
	_ "unsafe" // go:linkname to the eviction storage constructor

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	policyclient "k8s.io/client-go/kubernetes/typed/policy/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	api "k8s.io/kubernetes/pkg/apis/core"
	policy "k8s.io/kubernetes/pkg/apis/policy"
	podstorage "k8s.io/kubernetes/pkg/registry/core/pod/storage"
)

// The whole-cluster harness's pods/eviction: v1.36.3's own eviction
// subresource (pkg/registry/core/pod/storage EvictionREST, built by its
// unexported constructor newEvictionStorage) over wcPodStore, a pod storage
// that reads, updates and deletes through the harness's clientset (so the
// API server, wcAPIServer, applies its rules and every write is traced),
// with the clientset's policy/v1 client for the budgets. Upstream builds it
// over the pod registry's status store (NewStorage: statusStore, whose
// update strategy is the status strategy): wcPodStore's Update is a
// pods/status update. The storage's own rules — which pods ignore budgets,
// the budget check and decrement (checkAndDecrement, disruptedPods stamped
// with time.Now(), which the API server moves onto the harness clock like
// every wall-clock stamp), the DisruptionTarget condition and the delete
// with its resourceVersion precondition — are upstream's code, run as is.

//go:linkname wcNewEvictionStorage k8s.io/kubernetes/pkg/registry/core/pod/storage.newEvictionStorage
func wcNewEvictionStorage(store rest.StandardStorage, pdbs policyclient.PodDisruptionBudgetsGetter) *podstorage.EvictionREST

// wcPodStore is the pod storage under the eviction subresource: Get,
// Update and Delete only (the embedded interface is nil: the eviction code
// calls nothing else).
type wcPodStore struct {
	rest.StandardStorage
	w *wcWorld
}

func wcNamespace(ctx context.Context) string {
	ns, _ := genericapirequest.NamespaceFrom(ctx)
	return ns
}

func wcToInternalPod(p *v1.Pod) (*api.Pod, error) {
	out := &api.Pod{}
	if err := legacyscheme.Scheme.Convert(p, out, nil); err != nil {
		return nil, err
	}
	return out, nil
}

func (s wcPodStore) Get(ctx context.Context, name string, _ *metav1.GetOptions) (kruntime.Object, error) {
	p, err := s.w.client.CoreV1().Pods(wcNamespace(ctx)).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	return wcToInternalPod(p)
}

// Update is the status store's GuaranteedUpdate: the object info applied
// to the stored pod, written as a pods/status update at the stored
// resourceVersion.
func (s wcPodStore) Update(ctx context.Context, name string, info rest.UpdatedObjectInfo, _ rest.ValidateObjectFunc, _ rest.ValidateObjectUpdateFunc, _ bool, _ *metav1.UpdateOptions) (kruntime.Object, bool, error) {
	ns := wcNamespace(ctx)
	cur, err := s.w.client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, false, err
	}
	old, err := wcToInternalPod(cur)
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
	in, err := wcToInternalPod(out)
	return in, false, err
}

func (s wcPodStore) Delete(ctx context.Context, name string, _ rest.ValidateObjectFunc, opts *metav1.DeleteOptions) (kruntime.Object, bool, error) {
	o := metav1.DeleteOptions{}
	if opts != nil {
		o = *opts
	}
	err := s.w.client.CoreV1().Pods(wcNamespace(ctx)).Delete(ctx, name, o)
	return nil, err == nil, err
}

// wcEviction is the answer of the eviction subresource: 201 (the pod is
// evicted) or the API error's code, with the DisruptionBudget cause's
// message of a 429 (the error's message otherwise).
type wcEviction struct {
	code int32
	msg  string
}

func (e wcEviction) String() string { return fmt.Sprintf("code=%d %q", e.code, e.msg) }

// Evict sends pods/eviction of pod ns/name as actor to v1.36.3's eviction
// subresource; its writes are traced as the environment's (Apply).
func (w *wcWorld) Evict(actor, ns, name string) (wcEviction, error) {
	if w.evictions == nil {
		w.evictions = wcNewEvictionStorage(wcPodStore{w: w}, w.client.PolicyV1())
	}
	w.begin(wcEnvironment, actor)
	ctx := genericapirequest.WithNamespace(w.ctx, ns)
	obj, err := w.evictions.Create(ctx, name, &policy.Eviction{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}, nil, &metav1.CreateOptions{})
	if serr := w.end(nil); serr != nil {
		return wcEviction{}, serr
	}
	if err != nil {
		var se apierrors.APIStatus
		if !errors.As(err, &se) {
			return wcEviction{}, err
		}
		st := se.Status()
		out := wcEviction{code: st.Code, msg: st.Message}
		if st.Details != nil && len(st.Details.Causes) > 0 && st.Code == 429 {
			out.msg = st.Details.Causes[0].Message
		}
		return out, nil
	}
	if st, ok := obj.(*metav1.Status); ok && st.Status != metav1.StatusSuccess {
		return wcEviction{code: st.Code, msg: st.Message}, nil
	}
	return wcEviction{code: 201}, nil
}
