package difftest

import (
	"context"
	"reflect"
	"sync"
	"time"
	"unsafe"

	"k8s.io/client-go/util/flowcontrol"
	kcmoptions "k8s.io/kubernetes/cmd/kube-controller-manager/app/options"
	"k8s.io/kubernetes/pkg/controller/nodelifecycle"
	"k8s.io/kubernetes/pkg/controller/nodelifecycle/scheduler"
)

//go:linkname MonitorNodeHealth k8s.io/kubernetes/pkg/controller/nodelifecycle.(*Controller).monitorNodeHealth
func MonitorNodeHealth(nc *nodelifecycle.Controller, ctx context.Context) error

//go:linkname NoExecuteTaintingPass k8s.io/kubernetes/pkg/controller/nodelifecycle.(*Controller).doNoExecuteTaintingPass
func NoExecuteTaintingPass(nc *nodelifecycle.Controller, ctx context.Context)

//go:linkname NoScheduleTaintingPass k8s.io/kubernetes/pkg/controller/nodelifecycle.(*Controller).doNoScheduleTaintingPass
func NoScheduleTaintingPass(nc *nodelifecycle.Controller, ctx context.Context, nodeName string) error

//go:linkname ReconcileNodeLabels k8s.io/kubernetes/pkg/controller/nodelifecycle.(*Controller).reconcileNodeLabels
func ReconcileNodeLabels(nc *nodelifecycle.Controller, ctx context.Context, nodeName string) error

// NodeConfig is the node lifecycle controller's configuration as
// kube-controller-manager builds it with no flags: its component-config
// defaulting and its flag defaults.
type NodeConfig struct {
	MonitorPeriod, StartupGrace, MonitorGrace time.Duration
	EvictionRate, SecondaryRate               float32
	LargeCluster                              int32
	Unhealthy                                 float32
}

// UpstreamNodeConfig reads the node lifecycle controller's configuration
// from kube-controller-manager's options, once.
var UpstreamNodeConfig = sync.OnceValues(func() (NodeConfig, error) {
	s, err := kcmoptions.NewKubeControllerManagerOptions()
	if err != nil {
		return NodeConfig{}, err
	}
	s.Flags(nil, nil, nil) // registering the flags sets their defaults
	c := s.NodeLifecycleController.NodeLifecycleControllerConfiguration
	return NodeConfig{MonitorPeriod: s.KubeCloudShared.NodeMonitorPeriod.Duration, StartupGrace: c.NodeStartupGracePeriod.Duration,
		MonitorGrace: c.NodeMonitorGracePeriod.Duration, EvictionRate: c.NodeEvictionRate, SecondaryRate: c.SecondaryNodeEvictionRate,
		LargeCluster: c.LargeClusterSizeThreshold, Unhealthy: c.UnhealthyZoneThreshold}, nil
})

// Field is the (settable) field name of the addressable struct v, exported
// or not.
func Field(v reflect.Value, name string) reflect.Value {
	f := v.FieldByName(name)
	if !f.IsValid() {
		panic("no field " + name + " in " + v.Type().String())
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// QueueHeap is the timed queue inside a tainting queue.
func QueueHeap(q *scheduler.RateLimitedTimedQueue) *scheduler.TimedQueue {
	return Field(Field(reflect.ValueOf(q).Elem(), "queue"), "queue").Addr().Interface().(*scheduler.TimedQueue)
}

// QueueLimiter is the (settable) rate limiter of a tainting queue.
func QueueLimiter(q *scheduler.RateLimitedTimedQueue) reflect.Value {
	return Field(reflect.ValueOf(q).Elem(), "limiter")
}

// TokenBucket is the x/time/rate limiter inside a flowcontrol token bucket.
func TokenBucket(l flowcontrol.RateLimiter) (bucket interface{ TokensAt(time.Time) float64 }, last time.Time) {
	v := Field(Field(reflect.ValueOf(l).Elem(), "tokenBucketPassiveRateLimiter"), "limiter")
	last = Field(v.Elem(), "last").Interface().(time.Time)
	return v.Interface().(interface{ TokensAt(time.Time) float64 }), last
}

// IsNeverLimiter reports whether l is flowcontrol's never-accepting
// limiter (what a zone gets at eviction rate 0).
func IsNeverLimiter(l flowcontrol.RateLimiter) bool {
	return reflect.TypeOf(l).String() == "*flowcontrol.fakeNeverRateLimiter"
}

// NodeSchedulerNow is the tainting queues' clock (scheduler.now).
//
//go:linkname NodeSchedulerNow k8s.io/kubernetes/pkg/controller/nodelifecycle/scheduler.now
var NodeSchedulerNow func() time.Time

// SetNodeSchedulerNow makes f the tainting queues' clock; restore puts the
// previous one back.
func SetNodeSchedulerNow(f func() time.Time) (restore func()) {
	old := NodeSchedulerNow
	NodeSchedulerNow = f
	return func() { NodeSchedulerNow = old }
}
