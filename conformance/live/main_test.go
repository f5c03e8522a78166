package live

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apiserver/pkg/storage/etcd3/testserver"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	cacheddiscovery "k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/scale"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/klog/v2"
	kubeapiservertesting "k8s.io/kubernetes/cmd/kube-apiserver/app/testing"
	"k8s.io/kubernetes/pkg/controller/cronjob"
	"k8s.io/kubernetes/pkg/controller/daemon"
	"k8s.io/kubernetes/pkg/controller/deployment"
	"k8s.io/kubernetes/pkg/controller/disruption"
	"k8s.io/kubernetes/pkg/controller/job"
	"k8s.io/kubernetes/pkg/controller/nodelifecycle"
	"k8s.io/kubernetes/pkg/controller/podgc"
	"k8s.io/kubernetes/pkg/controller/replicaset"
	"k8s.io/kubernetes/pkg/controller/statefulset"
	"k8s.io/kubernetes/pkg/controller/tainteviction"
)

// The one control plane of this test binary, started by TestMain.
var (
	client kubernetes.Interface
	config *rest.Config
)

// verbose shows the server's and controllers' logs (go test -v -args -live.logs).
var verbose = flag.Bool("live.logs", false, "show the API server's and controllers' logs")

// TestMain starts etcd and kube-apiserver v1.36.3 in this process, the
// workload controllers, the fake scheduler and kubelet, and three nodes with
// their heartbeats, runs the tests against them, and tears everything down.
func TestMain(m *testing.M) {
	flag.Parse()
	// The parallel tests mostly wait (for the node monitor grace period,
	// the pod GC's quarantine, the next minute): all of them run at once,
	// whatever GOMAXPROCS, unless -parallel says otherwise.
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		flag.Set("test.parallel", "16")
	}
	if !*verbose {
		klog.SetLogger(logr.Discard())
	}
	tb := &mainTB{}
	code := 1
	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Fprintf(os.Stderr, "live: starting the control plane failed: %v\n", r)
			}
		}()
		start := time.Now()
		startControlPlane(tb)
		if testing.Verbose() {
			fmt.Fprintf(os.Stderr, "live: control plane up in %v\n", time.Since(start).Round(time.Millisecond))
		}
		run := time.Now()
		code = m.Run()
		if testing.Verbose() {
			fmt.Fprintf(os.Stderr, "live: tests ran in %v\n", time.Since(run).Round(time.Millisecond))
		}
	}()
	down := time.Now()
	tb.runCleanups()
	if binDir != "" {
		os.RemoveAll(binDir) // the kubesem binaries the plugin tests built
	}
	if testing.Verbose() {
		fmt.Fprintf(os.Stderr, "live: control plane down in %v\n", time.Since(down).Round(time.Millisecond))
	}
	if tb.Failed() && code == 0 {
		code = 1
	}
	os.Exit(code)
}

func startControlPlane(tb *mainTB) {
	etcd := testserver.RunEtcd(tb, testserver.NewTestConfig(tb))
	storage := storagebackend.NewDefaultConfig(path.Join("kubesem-live", "registry"), nil)
	storage.Transport.ServerList = etcd.Endpoints()
	// The fake kubelet does not run pods' service-account token volumes, and
	// no service-account controller creates "default" in the tests'
	// namespaces: the ServiceAccount admission plugin is off.
	server, err := kubeapiservertesting.StartTestServer(tb, nil, []string{"--disable-admission-plugins=ServiceAccount"}, storage)
	if err != nil {
		tb.Fatalf("kube-apiserver: %v", err)
	}
	tb.Cleanup(server.TearDownFn)

	config = rest.CopyConfig(server.ClientConfig)
	config.QPS, config.Burst = -1, -1
	client = kubernetes.NewForConfigOrDie(config)

	ctx, cancel := context.WithCancel(context.Background())
	if !*verbose {
		ctx = klog.NewContext(ctx, logr.Discard())
	}
	// Everything below stops when ctx is cancelled; the cleanup cancels it
	// first and then waits, before the server and etcd are torn down.
	var stopped []func()
	tb.Cleanup(func() {
		cancel()
		for _, wait := range stopped {
			wait()
		}
	})
	stopped = append(stopped, startControllers(ctx, tb))
	stopped = append(stopped, startNodes(ctx, tb))
	stopped = append(stopped, startKubelet(ctx, tb))
}

// startControllers runs the workload controllers of kube-controller-manager
// v1.36.3 with one shared informer factory, wired as
// cmd/kube-controller-manager/app wires them with its default configuration.
func startControllers(ctx context.Context, tb *mainTB) (wait func()) {
	// The controllers write through the write gate (plugin_test.go): a
	// test may hold their writes to a namespace.
	client := kubernetes.NewForConfigOrDie(gatedConfig(config))
	f := informers.NewSharedInformerFactory(client, 0)
	must := func(err error) {
		if err != nil {
			tb.Fatalf("controller: %v", err)
		}
	}
	var runs []func()

	rsc := replicaset.NewReplicaSetController(ctx, f.Apps().V1().ReplicaSets(), f.Core().V1().Pods(), client, replicaset.BurstReplicas)
	runs = append(runs, func() { rsc.Run(ctx, 5) })

	dc, err := deployment.NewDeploymentController(ctx, f.Apps().V1().Deployments(), f.Apps().V1().ReplicaSets(), f.Core().V1().Pods(), client)
	must(err)
	runs = append(runs, func() { dc.Run(ctx, 5) })

	ssc := statefulset.NewStatefulSetController(ctx, f.Core().V1().Pods(), f.Apps().V1().StatefulSets(), f.Core().V1().PersistentVolumeClaims(), f.Apps().V1().ControllerRevisions(), client)
	runs = append(runs, func() { ssc.Run(ctx, 5) })

	dsc, err := daemon.NewDaemonSetsController(ctx, f.Apps().V1().DaemonSets(), f.Apps().V1().ControllerRevisions(), f.Core().V1().Pods(), f.Core().V1().Nodes(), client, flowcontrol.NewBackOff(1*time.Second, 15*time.Minute))
	must(err)
	runs = append(runs, func() { dsc.Run(ctx, 2) })

	jc, err := job.NewController(ctx, client, f.Core().V1().Pods(), f.Batch().V1().Jobs(), nil, nil)
	must(err)
	runs = append(runs, func() { jc.Run(ctx, 5) })

	cjc, err := cronjob.NewControllerV2(ctx, f.Batch().V1().Jobs(), f.Batch().V1().CronJobs(), client)
	must(err)
	runs = append(runs, func() { cjc.Run(ctx, 5) })

	disco := cacheddiscovery.NewMemCacheClient(client.Discovery())
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(disco)
	scales, err := scale.NewForConfig(config, mapper, dynamic.LegacyAPIPathResolverFunc, scale.NewDiscoveryScaleKindResolver(disco))
	must(err)
	pdbc := disruption.NewDisruptionController(ctx, f.Core().V1().Pods(), f.Policy().V1().PodDisruptionBudgets(), f.Core().V1().ReplicationControllers(), f.Apps().V1().ReplicaSets(), f.Apps().V1().Deployments(), f.Apps().V1().StatefulSets(), client, mapper, scales, client.Discovery())
	runs = append(runs, func() { pdbc.Run(ctx) })

	gcc := podgc.NewPodGC(ctx, client, f.Core().V1().Pods(), f.Core().V1().Nodes(), 12500)
	runs = append(runs, func() { gcc.Run(ctx) })

	// kube-controller-manager's defaults: --node-monitor-period 5s,
	// --node-startup-grace-period 1m, --node-monitor-grace-period 50s,
	// --node-eviction-rate 0.1, --secondary-node-eviction-rate 0.01,
	// --large-cluster-size-threshold 50, --unhealthy-zone-threshold 0.55.
	nlc, err := nodelifecycle.NewNodeLifecycleController(ctx, f.Coordination().V1().Leases(), f.Core().V1().Pods(), f.Core().V1().Nodes(), f.Apps().V1().DaemonSets(), client,
		5*time.Second, time.Minute, 50*time.Second, 0.1, 0.01, 50, 0.55)
	must(err)
	runs = append(runs, func() { nlc.Run(ctx) })

	tec, err := tainteviction.New(ctx, client, f.Core().V1().Pods(), f.Core().V1().Nodes(), "taint-eviction-controller")
	must(err)
	runs = append(runs, func() { tec.Run(ctx) })

	f.Start(ctx.Done())
	var wg sync.WaitGroup
	for _, run := range runs {
		wg.Add(1)
		go func() { defer wg.Done(); run() }()
	}
	for typ, ok := range f.WaitForCacheSync(ctx.Done()) {
		if !ok {
			tb.Fatalf("informer for %v did not sync", typ)
		}
	}
	return func() { wg.Wait(); f.Shutdown() }
}

// mainTB is the testing.TB that TestMain gives the upstream test helpers
// (testserver.RunEtcd, kubeapiservertesting.StartTestServer): they live as
// long as the test binary, not one test. Fatal panics; TestMain recovers and
// reports it.
type mainTB struct {
	testing.TB // nil: only for the interface's unexported method; every method used is below

	mu       sync.Mutex
	cleanups []func()
	failed   bool
}

func (m *mainTB) Helper()                   {}
func (m *mainTB) Name() string              { return "TestMain" }
func (m *mainTB) Attr(string, string)       {}
func (m *mainTB) Context() context.Context  { return context.Background() }
func (m *mainTB) Output() io.Writer         { return os.Stderr }
func (m *mainTB) Setenv(key, value string)  { os.Setenv(key, value) }
func (m *mainTB) Chdir(dir string)          { os.Chdir(dir) }
func (m *mainTB) Skipped() bool             { return false }
func (m *mainTB) Skip(args ...any)          { m.Fatal(args...) }
func (m *mainTB) Skipf(f string, a ...any)  { m.Fatalf(f, a...) }
func (m *mainTB) SkipNow()                  { m.FailNow() }
func (m *mainTB) Log(args ...any)           { m.log(fmt.Sprint(args...)) }
func (m *mainTB) Logf(f string, a ...any)   { m.log(fmt.Sprintf(f, a...)) }
func (m *mainTB) Error(args ...any)         { m.errorf("%s", fmt.Sprint(args...)) }
func (m *mainTB) Errorf(f string, a ...any) { m.errorf(f, a...) }
func (m *mainTB) Fatal(args ...any)         { m.errorf("%s", fmt.Sprint(args...)); m.FailNow() }
func (m *mainTB) Fatalf(f string, a ...any) { m.errorf(f, a...); m.FailNow() }
func (m *mainTB) FailNow()                  { m.Fail(); panic("fatal error in TestMain's setup") }

func (m *mainTB) Fail() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.failed = true
}

func (m *mainTB) Failed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.failed
}

func (m *mainTB) log(s string) {
	if *verbose {
		fmt.Fprintln(os.Stderr, s)
	}
}

func (m *mainTB) errorf(f string, a ...any) {
	m.Fail()
	fmt.Fprintf(os.Stderr, "live: "+f+"\n", a...)
}

func (m *mainTB) TempDir() string {
	dir, err := os.MkdirTemp("", "kubesem-live")
	if err != nil {
		m.Fatal(err)
	}
	m.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func (m *mainTB) Cleanup(f func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cleanups = append(m.cleanups, f)
}

func (m *mainTB) runCleanups() {
	for {
		m.mu.Lock()
		n := len(m.cleanups)
		if n == 0 {
			m.mu.Unlock()
			return
		}
		f := m.cleanups[n-1]
		m.cleanups = m.cleanups[:n-1]
		m.mu.Unlock()
		f()
	}
}
