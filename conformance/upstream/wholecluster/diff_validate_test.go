package wholecluster_test

import (
	"fmt"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	internalapps "k8s.io/kubernetes/pkg/apis/apps"
	internalbatch "k8s.io/kubernetes/pkg/apis/batch"
	dsregistry "k8s.io/kubernetes/pkg/registry/apps/daemonset"
	deploymentregistry "k8s.io/kubernetes/pkg/registry/apps/deployment"
	rsregistry "k8s.io/kubernetes/pkg/registry/apps/replicaset"
	stsregistry "k8s.io/kubernetes/pkg/registry/apps/statefulset"
	jobregistry "k8s.io/kubernetes/pkg/registry/batch/job"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/plan"
)

// diffValidated lists the resources whose user updates the differential
// runs through v1.36.3's registry as well: the strategy, the request's
// group, and a new internal object of the kind.
var diffValidated = map[string]struct {
	gvr      schema.GroupVersionResource
	strategy difftest.UpdateStrategy
	internal func() kruntime.Object
}{
	"deployments":  {gvrDeployments, deploymentregistry.Strategy, func() kruntime.Object { return &internalapps.Deployment{} }},
	"replicasets":  {gvrReplicaSets, rsregistry.Strategy, func() kruntime.Object { return &internalapps.ReplicaSet{} }},
	"statefulsets": {gvrStatefulSets, stsregistry.Strategy, func() kruntime.Object { return &internalapps.StatefulSet{} }},
	"daemonsets":   {gvrDaemonSets, dsregistry.Strategy, func() kruntime.Object { return &internalapps.DaemonSet{} }},
	"jobs":         {gvrJobs, jobregistry.Strategy, func() kruntime.Object { return &internalbatch.Job{} }},
}

// errFatal turns difftest's Fatalf into an error.
type errFatal struct{ err error }

func (f *errFatal) Fatalf(format string, args ...any) { f.err = fmt.Errorf(format, args...) }

// upstreamRefusal runs v1.36.3's registry update path (PrepareForUpdate,
// ValidateUpdate) on the user's update e of the world, against the
// object the harness stores (both defaulted as the API server's decoding
// defaults them; the new object keeps the stored one's server-set
// metadata): whether upstream's API server refuses it, with its errors.
// ok is false for a write it does not check.
func (p *diffPair) upstreamRefusal(e cluster.Entry) (refused bool, msg string, ok bool, err error) {
	wr := e.Write
	if e.Controller != cluster.CtlUser || wr == nil || wr.Subresource != "" || wr.Object == nil ||
		(wr.Verb != plan.VerbUpdate && wr.Verb != plan.VerbPatch) {
		return false, "", false, nil
	}
	v, found := diffValidated[wr.Resource]
	if !found {
		return false, "", false, nil
	}
	stored := p.h.get(v.gvr, wr.Namespace, wr.Name)
	if stored == nil {
		return false, "", false, nil
	}
	oldV1 := stored.DeepCopyObject()
	newV1, err := diffTo(wr.Object)
	if err != nil {
		return false, "", false, err
	}
	legacyscheme.Scheme.Default(oldV1)
	legacyscheme.Scheme.Default(newV1)
	om, _ := apimeta.Accessor(oldV1)
	nm, _ := apimeta.Accessor(newV1)
	if om.GetResourceVersion() == "" {
		om.SetResourceVersion("1")
	}
	nm.SetResourceVersion(om.GetResourceVersion())
	nm.SetUID(om.GetUID())
	nm.SetCreationTimestamp(om.GetCreationTimestamp())
	nm.SetGeneration(om.GetGeneration())
	nm.SetOwnerReferences(om.GetOwnerReferences())
	nm.SetFinalizers(om.GetFinalizers())
	nm.SetDeletionTimestamp(om.GetDeletionTimestamp())
	nm.SetDeletionGracePeriodSeconds(om.GetDeletionGracePeriodSeconds())
	var f errFatal
	errs := difftest.RegistryUpdate(&f, v.strategy, v.gvr.Group, v.gvr.Resource, oldV1, newV1, v.internal(), v.internal())
	if f.err != nil {
		return false, "", false, f.err
	}
	if len(errs) == 0 {
		return false, "", true, nil
	}
	return true, errs.ToAggregate().Error(), true, nil
}
