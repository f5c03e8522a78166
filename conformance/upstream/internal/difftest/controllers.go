package difftest

import (
	"context"
	"reflect"
	"sync"
	"time"
	"unsafe" // go:linkname, and unexported fields

	appsv1 "k8s.io/api/apps/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	discoveryfake "k8s.io/client-go/discovery/fake"
	"k8s.io/client-go/informers"
	batchinformers "k8s.io/client-go/informers/batch/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	schedinformers "k8s.io/client-go/informers/scheduling/v1alpha2"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	scalefake "k8s.io/client-go/scale/fake"
	core "k8s.io/client-go/testing"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/kubernetes/pkg/controller/disruption"
	jobcontroller "k8s.io/kubernetes/pkg/controller/job"
	upodgc "k8s.io/kubernetes/pkg/controller/podgc"
	"k8s.io/utils/clock"
)

// DaemonSetBackoff returns the failed-pod backoff kube-controller-manager
// gives the DaemonSet controller, on clk: newDaemonSetController passes
// flowcontrol.NewBackOff(1*time.Second, 15*time.Minute) (v1.36.3; pinned
// against upstream's source by TestDaemonSetUpstreamBackoffPinned). The
// fake variant differs only in its clock.
func DaemonSetBackoff(clk clock.Clock) *flowcontrol.Backoff {
	return flowcontrol.NewFakeBackOff(1*time.Second, 15*time.Minute, clk)
}

//go:linkname NewJobController k8s.io/kubernetes/pkg/controller/job.newControllerWithClock
func NewJobController(ctx context.Context, kubeClient clientset.Interface, clk clock.WithTicker, podInformer coreinformers.PodInformer, jobInformer batchinformers.JobInformer, workloadInformer schedinformers.WorkloadInformer, podGroupInformer schedinformers.PodGroupInformer) (*jobcontroller.Controller, error)

//go:linkname DisruptionSync k8s.io/kubernetes/pkg/controller/disruption.(*DisruptionController).sync
func DisruptionSync(dc *disruption.DisruptionController, ctx context.Context, key string) error

//go:linkname DisruptionSyncStale k8s.io/kubernetes/pkg/controller/disruption.(*DisruptionController).syncStalePodDisruption
func DisruptionSyncStale(dc *disruption.DisruptionController, ctx context.Context, key string) error

// DisruptionField is an unexported field of dc, settable.
func DisruptionField(dc *disruption.DisruptionController, name string) reflect.Value {
	f := reflect.ValueOf(dc).Elem().FieldByName(name)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// DisruptionStaleTimeout is the stale DisruptionTarget timeout the public
// constructor gives the controller: upstream's default.
var DisruptionStaleTimeout = sync.OnceValue(func() time.Duration {
	client := fake.NewClientset()
	inf := informers.NewSharedInformerFactory(client, 0)
	dc := disruption.NewDisruptionController(context.Background(),
		inf.Core().V1().Pods(), inf.Policy().V1().PodDisruptionBudgets(), inf.Core().V1().ReplicationControllers(),
		inf.Apps().V1().ReplicaSets(), inf.Apps().V1().Deployments(), inf.Apps().V1().StatefulSets(),
		client, apimeta.NewDefaultRESTMapper(nil), &scalefake.FakeScaleClient{}, &discoveryfake.FakeDiscovery{Fake: &core.Fake{}})
	defer Stop(dc)
	return DisruptionField(dc, "stalePodDisruptionTimeout").Interface().(time.Duration)
})

//go:linkname PodGCPass k8s.io/kubernetes/pkg/controller/podgc.(*PodGCController).gc
func PodGCPass(gcc *upodgc.PodGCController, ctx context.Context)

//go:linkname DeploymentCalculateStatus k8s.io/kubernetes/pkg/controller/deployment.calculateStatus
func DeploymentCalculateStatus(allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment) appsv1.DeploymentStatus

//go:linkname DeploymentNowFn k8s.io/kubernetes/pkg/controller/deployment.nowFn
var DeploymentNowFn func() time.Time

//go:linkname DeploymentUtilNowFn k8s.io/kubernetes/pkg/controller/deployment/util.nowFn
var DeploymentUtilNowFn func() time.Time
