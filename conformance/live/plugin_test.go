package live

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/utils/ptr"
)

// The write gate: the controllers' writes to a frozen namespace wait until
// it is released, so that a test can read a state the controllers have
// seen but not yet acted on (what a user sees right after kubectl apply).
var gate = struct {
	mu     sync.Mutex
	frozen map[string]chan struct{}
}{frozen: map[string]chan struct{}{}}

// freeze holds the controllers' writes to ns until the returned release.
func freeze(t *testing.T, ns string) (release func()) {
	gate.mu.Lock()
	ch := make(chan struct{})
	gate.frozen[ns] = ch
	gate.mu.Unlock()
	var once sync.Once
	release = func() {
		once.Do(func() {
			gate.mu.Lock()
			delete(gate.frozen, ns)
			gate.mu.Unlock()
			close(ch)
		})
	}
	t.Cleanup(release)
	return release
}

var nsInPath = regexp.MustCompile(`/namespaces/([^/]+)/`)

type gatedTransport struct{ rt http.RoundTripper }

func (g gatedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet {
		if m := nsInPath.FindStringSubmatch(req.URL.Path); m != nil {
			gate.mu.Lock()
			ch := gate.frozen[m[1]]
			gate.mu.Unlock()
			if ch != nil {
				select {
				case <-ch:
				case <-req.Context().Done():
				case <-time.After(30 * time.Second):
				}
			}
		}
	}
	return g.rt.RoundTrip(req)
}

// gatedConfig is cfg whose writes go through the gate.
func gatedConfig(cfg *rest.Config) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.Wrap(func(rt http.RoundTripper) http.RoundTripper { return gatedTransport{rt} })
	return c
}

var (
	binOnce sync.Once
	binDir  string
	binErr  error
)

// kubesemBinaries builds kubesem (named kubesem and kubectl-kubesem) once
// per test binary, from the workspace.
func kubesemBinaries(t *testing.T) (kubesem, plugin string) {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "kubesem-live-bin")
		if binErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, "kubesem"), "github.com/kubesem/kubesem/cmd/kubesem").CombinedOutput()
		if err != nil {
			binErr = &buildError{string(out), err}
			return
		}
		binErr = os.Link(filepath.Join(binDir, "kubesem"), filepath.Join(binDir, "kubectl-kubesem"))
	})
	if binErr != nil {
		t.Fatalf("building kubesem: %v", binErr)
	}
	return filepath.Join(binDir, "kubesem"), filepath.Join(binDir, "kubectl-kubesem")
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// kubeconfig writes a kubeconfig for the test server, its context's
// namespace ns.
func kubeconfig(t *testing.T, ns string) string {
	t.Helper()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["live"] = &clientcmdapi.Cluster{Server: config.Host, CertificateAuthorityData: config.CAData, InsecureSkipTLSVerify: config.Insecure, TLSServerName: config.ServerName}
	cfg.AuthInfos["live"] = &clientcmdapi.AuthInfo{Token: config.BearerToken, ClientCertificateData: config.CertData, ClientKeyData: config.KeyData}
	cfg.Contexts["live"] = &clientcmdapi.Context{Cluster: "live", AuthInfo: "live", Namespace: ns}
	cfg.CurrentContext = "live"
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// kinds the dumps hold: what explain reads.
var dumpKinds = []struct {
	kind, apiVersion, resource string
	namespaced                 bool
	namespace                  string
}{
	{"Deployment", "apps/v1", "deployments", true, ""},
	{"ReplicaSet", "apps/v1", "replicasets", true, ""},
	{"ReplicationController", "v1", "replicationcontrollers", true, ""},
	{"StatefulSet", "apps/v1", "statefulsets", true, ""},
	{"DaemonSet", "apps/v1", "daemonsets", true, ""},
	{"ControllerRevision", "apps/v1", "controllerrevisions", true, ""},
	{"Job", "batch/v1", "jobs", true, ""},
	{"CronJob", "batch/v1", "cronjobs", true, ""},
	{"PodDisruptionBudget", "policy/v1", "poddisruptionbudgets", true, ""},
	{"PersistentVolumeClaim", "v1", "persistentvolumeclaims", true, ""},
	{"Pod", "v1", "pods", true, ""},
	{"Node", "v1", "nodes", false, ""},
	{"Lease", "coordination.k8s.io/v1", "leases", true, "kube-node-lease"},
}

// dumps reads the namespace's objects (with the nodes and node leases) as
// "kubectl get --raw" returns them (a stream of typed Lists) and as
// "kubectl get … -o json" prints them (one List whose items carry kind and
// apiVersion).
func dumps(t *testing.T, ns string) (typed, list []byte) {
	t.Helper()
	var tb bytes.Buffer
	var items []json.RawMessage
	for _, k := range dumpKinds {
		gv, _ := schema.ParseGroupVersion(k.apiVersion)
		req := client.CoreV1().RESTClient().Get()
		if gv.Group != "" {
			req = client.AppsV1().RESTClient().Get().AbsPath("/apis", gv.Group, gv.Version)
		} else {
			req = req.AbsPath("/api", "v1")
		}
		switch {
		case k.namespace != "":
			req = req.Namespace(k.namespace)
		case k.namespaced:
			req = req.Namespace(ns)
		}
		raw, err := req.Resource(k.resource).SetHeader("Accept", "application/json").DoRaw(context.Background())
		check(t, err)
		tb.Write(raw)
		tb.WriteByte('\n')
		var l struct {
			Items []map[string]any `json:"items"`
		}
		check(t, json.Unmarshal(raw, &l))
		for _, it := range l.Items {
			it["kind"], it["apiVersion"] = k.kind, k.apiVersion
			b, _ := json.Marshal(it)
			items = append(items, b)
		}
	}
	lb, err := json.Marshal(map[string]any{"kind": "List", "apiVersion": "v1", "items": items})
	check(t, err)
	return tb.Bytes(), lb
}

// runKubesem runs a kubesem binary and returns its stdout.
func runKubesem(t *testing.T, stdin []byte, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", filepath.Base(bin), strings.Join(args, " "), err, out.String(), errOut.String())
	}
	return out.String()
}

// explainBoth runs "kubectl kubesem explain" through a kubeconfig for the
// server and explain on the dumps taken right before and after, at one
// --now, and requires the same output (retrying while the cluster changes
// under the reads); it returns the plugin's output.
func explainBoth(t *testing.T, ns string, listShape bool) string {
	t.Helper()
	kubesem, plugin := kubesemBinaries(t)
	kc := kubeconfig(t, ns)
	var last string
	for try := 0; try < 5; try++ {
		now := time.Now().UTC().Truncate(time.Second).Add(2 * time.Second).Format(time.RFC3339)
		typed, list := dumps(t, ns)
		live := runKubesem(t, nil, plugin, "explain", "--kubeconfig", kc, "--now", now)
		typed2, _ := dumps(t, ns)
		onTyped := runKubesem(t, typed, kubesem, "explain", "--now", now)
		onTyped2 := runKubesem(t, typed2, kubesem, "explain", "--now", now)
		if onTyped != onTyped2 {
			last = "the cluster changed during the reads"
			continue
		}
		if live != onTyped {
			t.Fatalf("kubectl kubesem explain -n %s:\n%s\nexplain on the typed-list dump:\n%s", ns, live, onTyped)
		}
		if listShape {
			if onList := runKubesem(t, list, kubesem, "explain", "--now", now); onList != live {
				t.Fatalf("kubectl kubesem explain -n %s:\n%s\nexplain on the List dump:\n%s", ns, live, onList)
			}
		}
		return live
	}
	t.Fatalf("no stable read in 5 tries: %s", last)
	return ""
}

var createdName = regexp.MustCompile(`create (ReplicaSet|ControllerRevision|Job|PersistentVolumeClaim) (\S+)|create pod (\S+) at revision`)

// predictedNames are the names of the objects explain says will be created.
func predictedNames(out string) map[string][]string {
	got := map[string][]string{}
	for _, m := range createdName.FindAllStringSubmatch(out, -1) {
		if m[3] != "" {
			got["Pod"] = append(got["Pod"], m[3])
		} else {
			got[m[1]] = append(got[m[1]], m[2])
		}
	}
	return got
}

// waitCreated waits until every predicted object exists.
func waitCreated(t *testing.T, ns string, names map[string][]string) {
	t.Helper()
	ctx := context.Background()
	for kind, list := range names {
		for _, name := range list {
			eventually(t, 20*time.Second, func() (bool, string) {
				var err error
				switch kind {
				case "ReplicaSet":
					_, err = client.AppsV1().ReplicaSets(ns).Get(ctx, name, metav1.GetOptions{})
				case "ControllerRevision":
					_, err = client.AppsV1().ControllerRevisions(ns).Get(ctx, name, metav1.GetOptions{})
				case "Job":
					_, err = client.BatchV1().Jobs(ns).Get(ctx, name, metav1.GetOptions{})
				case "PersistentVolumeClaim":
					_, err = client.CoreV1().PersistentVolumeClaims(ns).Get(ctx, name, metav1.GetOptions{})
				case "Pod":
					_, err = client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
				}
				return err == nil, "the controller creates " + kind + " " + name + " as explain said"
			})
		}
	}
}

// TestNewUserExplain is the website's examples tried as a new user would:
// each applied to the server (nginx-deployment, the StatefulSet web with its
// claim template, the DaemonSet fluentd-elasticsearch, the CronJob hello,
// each in a namespace of its own) and explained right after the apply, while
// the controllers' writes are held: the plugin prints what explain prints on
// a dump of the same server, and every object it says will be created is
// then created under that name by the real controller. Once settled, the
// plugin and explain on "kubectl get -o json"'s List shape agree too.
func TestNewUserExplain(t *testing.T) {
	ctx := context.Background()
	examples := []struct {
		name  string
		apply func(ns string) error
		want  []string // kinds explain must name a creation of
	}{
		{"deployment", func(ns string) error {
			_, err := client.AppsV1().Deployments(ns).Create(ctx, &appsv1.Deployment{
				ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment", Labels: map[string]string{"app": "nginx"}},
				Spec: appsv1.DeploymentSpec{
					Replicas: ptr.To[int32](3),
					Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
					Template: corev1.PodTemplateSpec{
						ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
						Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.14.2",
							Ports: []corev1.ContainerPort{{ContainerPort: 80}}}}},
					},
				},
			}, metav1.CreateOptions{})
			return err
		}, []string{"ReplicaSet"}},
		{"statefulset", func(ns string) error {
			_, err := client.AppsV1().StatefulSets(ns).Create(ctx, &appsv1.StatefulSet{
				ObjectMeta: metav1.ObjectMeta{Name: "web"},
				Spec: appsv1.StatefulSetSpec{
					Replicas:    ptr.To[int32](3),
					ServiceName: "nginx",
					Selector:    &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
					Template: corev1.PodTemplateSpec{
						ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
						Spec: corev1.PodSpec{
							TerminationGracePeriodSeconds: ptr.To[int64](10),
							Containers: []corev1.Container{{Name: "nginx", Image: "registry.k8s.io/nginx-slim:0.24",
								Ports:        []corev1.ContainerPort{{ContainerPort: 80, Name: "web"}},
								VolumeMounts: []corev1.VolumeMount{{Name: "www", MountPath: "/usr/share/nginx/html"}}}},
						},
					},
					VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{
						ObjectMeta: metav1.ObjectMeta{Name: "www"},
						Spec: corev1.PersistentVolumeClaimSpec{
							AccessModes:      []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
							StorageClassName: ptr.To("my-storage-class"),
							Resources:        corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}},
						},
					}},
				},
			}, metav1.CreateOptions{})
			return err
		}, []string{"ControllerRevision", "PersistentVolumeClaim", "Pod"}},
		{"daemonset", func(ns string) error {
			_, err := client.AppsV1().DaemonSets(ns).Create(ctx, &appsv1.DaemonSet{
				ObjectMeta: metav1.ObjectMeta{Name: "fluentd-elasticsearch", Labels: map[string]string{"k8s-app": "fluentd-logging"}},
				Spec: appsv1.DaemonSetSpec{
					Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"name": "fluentd-elasticsearch"}},
					Template: corev1.PodTemplateSpec{
						ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"name": "fluentd-elasticsearch"}},
						Spec: corev1.PodSpec{
							Tolerations: []corev1.Toleration{
								{Key: "node-role.kubernetes.io/control-plane", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
								{Key: "node-role.kubernetes.io/master", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
							},
							Containers: []corev1.Container{{Name: "fluentd-elasticsearch", Image: "quay.io/fluentd_elasticsearch/fluentd:v2.5.2",
								Resources: corev1.ResourceRequirements{
									Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("200Mi")},
									Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("200Mi")},
								},
								VolumeMounts: []corev1.VolumeMount{{Name: "varlog", MountPath: "/var/log"}}}},
							TerminationGracePeriodSeconds: ptr.To[int64](30),
							Volumes:                       []corev1.Volume{{Name: "varlog", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/var/log"}}}},
						},
					},
				},
			}, metav1.CreateOptions{})
			return err
		}, []string{"ControllerRevision"}},
		{"cronjob", func(ns string) error {
			_, err := client.BatchV1().CronJobs(ns).Create(ctx, &batchv1.CronJob{
				ObjectMeta: metav1.ObjectMeta{Name: "hello"},
				Spec: batchv1.CronJobSpec{
					Schedule: "* * * * *",
					JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
						RestartPolicy: corev1.RestartPolicyOnFailure,
						Containers: []corev1.Container{{Name: "hello", Image: "busybox:1.28", ImagePullPolicy: corev1.PullIfNotPresent,
							Command: []string{"/bin/sh", "-c", "date; echo Hello from the Kubernetes cluster"}}},
					}}}},
				},
			}, metav1.CreateOptions{})
			return err
		}, nil},
	}
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			ns := namespace(t)
			release := freeze(t, ns)
			check(t, ex.apply(ns))
			out := explainBoth(t, ns, false)
			names := predictedNames(out)
			t.Logf("explain right after the apply names for creation: %v", names)
			for _, k := range ex.want {
				if len(names[k]) == 0 {
					t.Errorf("explain right after the apply names no %s to create:\n%s", k, out)
				}
			}
			if strings.Contains(out, "Unknown") || strings.Contains(out, "cannot decide") {
				t.Errorf("explain right after the apply cannot tell:\n%s", out)
			}
			if ex.name == "cronjob" && !strings.Contains(out, "CronJob "+ns+"/hello") {
				t.Errorf("explain does not show the CronJob:\n%s", out)
			}
			release()
			waitCreated(t, ns, names)
			// Settled (nothing left in flight), the List shape agrees too.
			time.Sleep(time.Second)
			explainBoth(t, ns, true)
		})
	}
}

// shadowRun is "kubesem shadow" running against the test server.
type shadowRun struct {
	cmd  *exec.Cmd
	out  *lockedBuffer
	done chan error
	ns   string
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	// stamped is the output with the time each write arrived.
	stamped bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	fmt.Fprintf(&b.stamped, "%s %s", time.Now().UTC().Format("15:04:05.000"), p)
	return b.buf.Write(p)
}

func (b *lockedBuffer) Stamped() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stamped.String()
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// shadowWindow is shadow's window in the tests: generous, the test machine
// is shared.
const shadowWindow = 3 * time.Second

// startShadow runs "kubectl kubesem shadow" on namespace ns through a
// kubeconfig, and waits until it has synced.
func startShadow(t *testing.T, ns string) *shadowRun {
	t.Helper()
	_, plugin := kubesemBinaries(t)
	s := &shadowRun{out: &lockedBuffer{}, done: make(chan error, 1), ns: ns}
	s.cmd = exec.Command(plugin, "shadow", "--kubeconfig", kubeconfig(t, ns), "--window", shadowWindow.String(), "-v", "--out", t.TempDir())
	s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
	check(t, s.cmd.Start())
	go func() { s.done <- s.cmd.Wait() }()
	t.Cleanup(func() { s.cmd.Process.Kill() })
	eventually(t, 30*time.Second, func() (bool, string) {
		return strings.Contains(s.out.String(), "shadow: synced"), "shadow synced:\n" + s.out.String()
	})
	return s
}

// quiet waits for shadow's next quiet check of the namespace: it has
// judged every controller write it has seen, and nothing but Leases and
// node status has changed for its window. A scenario calls it before its
// next user write, as a user who waits for a rollout to finish writes
// seconds, not milliseconds, later: shadow then holds the settled state,
// and no write the controllers decided before the user's write reaches it
// (through its separate watches) after that write. It returns how long it
// waited.
func (s *shadowRun) quiet(t *testing.T) time.Duration {
	t.Helper()
	from := len(s.out.String())
	start := time.Now()
	quiet := "shadow: quiet: namespace " + s.ns
	eventually(t, 30*time.Second, func() (bool, string) {
		return strings.Contains(s.out.String()[from:], quiet), "a quiet check of " + s.ns + ":\n" + filterQuiet(s.out.Stamped())
	})
	return time.Since(start)
}

// stop waits for shadow's next quiet check of the namespace (the scenario
// is over), stops it and requires zero mismatches.
func (s *shadowRun) stop(t *testing.T) {
	t.Helper()
	waited := s.quiet(t)
	s.cmd.Process.Signal(syscall.SIGINT)
	var err error
	select {
	case err = <-s.done:
	case <-time.After(30 * time.Second):
		t.Fatal("shadow did not stop")
	}
	out := s.out.String()
	if err != nil || strings.Contains(out, "mismatch ") || !strings.Contains(out, " 0 mismatch(es)") {
		t.Errorf("shadow (exit %v) found mismatches:\n%s", err, filterQuiet(s.out.Stamped()))
	}
	if os.Getenv("LIVE_SHADOW_LOG") != "" {
		t.Logf("shadow:\n%s", filterQuiet(s.out.Stamped()))
	}
	if waited > 10*time.Second {
		t.Logf("shadow took %v to see %s quiet:\n%s", waited.Round(time.Millisecond), s.ns, filterQuiet(s.out.Stamped()))
	}
	if m := regexp.MustCompile(`(\d+) controller write\(s\) observed, (\d+) explained`).FindStringSubmatch(out); m == nil || m[1] == "0" {
		t.Errorf("shadow observed no controller write:\n%s", filterQuiet(out))
	} else {
		t.Logf("shadow: %s controller writes observed, %s explained: %s", m[1], m[2], explainedWrites(out))
	}
}

var explainedLine = regexp.MustCompile(`(?m)^shadow: (?:(eviction) of .*: (\S+) \S+|(\S+) (\S+) \S+): as kubesem predicts(?: \((\S+), with memory\))?$`)

// explainedWrites counts shadow's explained writes by verb and resource.
func explainedWrites(out string) string {
	n := map[string]int{}
	for _, m := range explainedLine.FindAllStringSubmatch(out, -1) {
		k := m[3] + " " + m[4]
		if m[1] != "" {
			k = m[1] + " " + m[2]
		}
		if m[5] != "" {
			k += " (" + m[5] + ")"
		}
		n[k]++
	}
	var parts []string
	for k, v := range n {
		parts = append(parts, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// filterQuiet drops shadow's repeated quiet lines.
func filterQuiet(out string) string {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "shadow: quiet:") && !strings.Contains(l, " shadow: quiet:") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// userWrite makes one of a scenario's user writes with the controllers'
// writes to ns held, runs "kubectl kubesem explain" alongside (explainBoth:
// the plugin prints what explain prints on the dumps of the same server),
// then releases the controllers and waits until every object the plugin
// said would be created exists under that name. It returns the plugin's
// output.
func userWrite(t *testing.T, ns, what string, write func()) string {
	t.Helper()
	release := freeze(t, ns)
	write()
	out := explainBoth(t, ns, false)
	if strings.Contains(out, "Unknown") || strings.Contains(out, "cannot decide") {
		t.Errorf("%s: kubectl kubesem explain cannot tell:\n%s", what, out)
	}
	names := predictedNames(out)
	release()
	waitCreated(t, ns, names)
	t.Logf("%s: kubectl kubesem explain names for creation %v", what, names)
	return out
}

// explainSettled runs "kubectl kubesem explain" alongside a scenario at a
// point where it waits (settled, or stalled by design): the plugin, explain
// on the typed-list dump and explain on the List dump print the same.
func explainSettled(t *testing.T, ns, what string) string {
	t.Helper()
	out := explainBoth(t, ns, true)
	if strings.Contains(out, "cannot decide") {
		t.Errorf("%s: kubectl kubesem explain cannot decide:\n%s", what, out)
	}
	return out
}
