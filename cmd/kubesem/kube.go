package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// The live cluster, read only. Every request kubesem sends to a cluster
// goes through a reader, whose only methods are list and watch of the kinds
// the world models; the clientset it wraps is not reachable from anywhere
// else (TestReaderSendsNoWrite checks the verbs on a fake clientset).

// apiKind is one kind kubesem reads from a cluster.
type apiKind struct {
	Kind       string // Deployment
	APIVersion string // apps/v1
	Resource   string // deployments
	Namespaced bool
	// Namespace, when set, is the only namespace the kind is read from
	// (node Leases live in kube-node-lease).
	Namespace string
	Aliases   []string // the names kubectl accepts for TYPE (besides Kind and Resource)
}

// apiKinds are the kinds explain and shadow read: every kind the world
// models (package cluster), in the order explain lists them.
var apiKinds = []apiKind{
	{"Deployment", "apps/v1", "deployments", true, "", []string{"deploy", "deployment.apps", "deployments.apps"}},
	{"ReplicaSet", "apps/v1", "replicasets", true, "", []string{"rs", "replicaset.apps", "replicasets.apps"}},
	{"ReplicationController", "v1", "replicationcontrollers", true, "", []string{"rc"}},
	{"StatefulSet", "apps/v1", "statefulsets", true, "", []string{"sts", "statefulset.apps", "statefulsets.apps"}},
	{"DaemonSet", "apps/v1", "daemonsets", true, "", []string{"ds", "daemonset.apps", "daemonsets.apps"}},
	{"ControllerRevision", "apps/v1", "controllerrevisions", true, "", []string{"controllerrevision.apps", "controllerrevisions.apps"}},
	{"Job", "batch/v1", "jobs", true, "", []string{"job.batch", "jobs.batch"}},
	{"CronJob", "batch/v1", "cronjobs", true, "", []string{"cj", "cronjob.batch", "cronjobs.batch"}},
	{"PodDisruptionBudget", "policy/v1", "poddisruptionbudgets", true, "", []string{"pdb", "poddisruptionbudget.policy", "poddisruptionbudgets.policy"}},
	{"PersistentVolumeClaim", "v1", "persistentvolumeclaims", true, "", []string{"pvc"}},
	{"Pod", "v1", "pods", true, "", []string{"po"}},
	{"Node", "v1", "nodes", false, "", []string{"no"}},
	{"Lease", "coordination.k8s.io/v1", "leases", true, "kube-node-lease", []string{"lease.coordination.k8s.io", "leases.coordination.k8s.io"}},
}

// kindByType returns the kind kubectl's TYPE names (deploy, deployments,
// Deployment, deployment.apps …).
func kindByType(t string) (apiKind, bool) {
	for _, k := range apiKinds {
		if strings.EqualFold(t, k.Kind) || t == k.Resource || slices.Contains(k.Aliases, strings.ToLower(t)) {
			return k, true
		}
	}
	return apiKind{}, false
}

// reader lists and watches a cluster's objects of the kinds in apiKinds. It
// has no other method: kubesem never writes to a cluster.
type reader struct {
	c kubernetes.Interface
}

// list lists one kind in ns ("" for all namespaces): the typed List.
func (r reader) list(ctx context.Context, k apiKind, ns string, opts metav1.ListOptions) (runtime.Object, error) {
	switch k.Kind {
	case "Deployment":
		return r.c.AppsV1().Deployments(ns).List(ctx, opts)
	case "ReplicaSet":
		return r.c.AppsV1().ReplicaSets(ns).List(ctx, opts)
	case "ReplicationController":
		return r.c.CoreV1().ReplicationControllers(ns).List(ctx, opts)
	case "StatefulSet":
		return r.c.AppsV1().StatefulSets(ns).List(ctx, opts)
	case "DaemonSet":
		return r.c.AppsV1().DaemonSets(ns).List(ctx, opts)
	case "ControllerRevision":
		return r.c.AppsV1().ControllerRevisions(ns).List(ctx, opts)
	case "Job":
		return r.c.BatchV1().Jobs(ns).List(ctx, opts)
	case "CronJob":
		return r.c.BatchV1().CronJobs(ns).List(ctx, opts)
	case "PodDisruptionBudget":
		return r.c.PolicyV1().PodDisruptionBudgets(ns).List(ctx, opts)
	case "PersistentVolumeClaim":
		return r.c.CoreV1().PersistentVolumeClaims(ns).List(ctx, opts)
	case "Pod":
		return r.c.CoreV1().Pods(ns).List(ctx, opts)
	case "Node":
		return r.c.CoreV1().Nodes().List(ctx, opts)
	case "Lease":
		return r.c.CoordinationV1().Leases(ns).List(ctx, opts)
	}
	return nil, fmt.Errorf("kubesem does not read %s", k.Kind)
}

// watch watches one kind in ns ("" for all namespaces).
func (r reader) watch(ctx context.Context, k apiKind, ns string, opts metav1.ListOptions) (watch.Interface, error) {
	switch k.Kind {
	case "Deployment":
		return r.c.AppsV1().Deployments(ns).Watch(ctx, opts)
	case "ReplicaSet":
		return r.c.AppsV1().ReplicaSets(ns).Watch(ctx, opts)
	case "ReplicationController":
		return r.c.CoreV1().ReplicationControllers(ns).Watch(ctx, opts)
	case "StatefulSet":
		return r.c.AppsV1().StatefulSets(ns).Watch(ctx, opts)
	case "DaemonSet":
		return r.c.AppsV1().DaemonSets(ns).Watch(ctx, opts)
	case "ControllerRevision":
		return r.c.AppsV1().ControllerRevisions(ns).Watch(ctx, opts)
	case "Job":
		return r.c.BatchV1().Jobs(ns).Watch(ctx, opts)
	case "CronJob":
		return r.c.BatchV1().CronJobs(ns).Watch(ctx, opts)
	case "PodDisruptionBudget":
		return r.c.PolicyV1().PodDisruptionBudgets(ns).Watch(ctx, opts)
	case "PersistentVolumeClaim":
		return r.c.CoreV1().PersistentVolumeClaims(ns).Watch(ctx, opts)
	case "Pod":
		return r.c.CoreV1().Pods(ns).Watch(ctx, opts)
	case "Node":
		return r.c.CoreV1().Nodes().Watch(ctx, opts)
	case "Lease":
		return r.c.CoordinationV1().Leases(ns).Watch(ctx, opts)
	}
	return nil, fmt.Errorf("kubesem does not watch %s", k.Kind)
}

// scope is where a command reads: one namespace, or all of them.
type scope struct {
	namespace string // "" with all
	all       bool
}

// namespaceOf is the namespace a kind is read from in the scope.
func (s scope) namespaceOf(k apiKind) string {
	switch {
	case !k.Namespaced:
		return ""
	case k.Namespace != "":
		return k.Namespace
	case s.all:
		return ""
	}
	return s.namespace
}

// clusterFlags are the flags that name a cluster, as kubectl's.
type clusterFlags struct {
	kubeconfig, context, namespace string
	all                            bool
}

func (f *clusterFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.kubeconfig, "kubeconfig", "", "read the live cluster through this kubeconfig file (default: $KUBECONFIG, then ~/.kube/config, then in-cluster)")
	fs.StringVar(&f.context, "context", "", "the kubeconfig context to use (default: the current context)")
	fs.StringVar(&f.namespace, "namespace", "", "the namespace to read (default: the context's namespace)")
	fs.StringVar(&f.namespace, "n", "", "short for --namespace")
	fs.BoolVar(&f.all, "all-namespaces", false, "read every namespace")
	fs.BoolVar(&f.all, "A", false, "short for --all-namespaces")
}

// set reports whether any of the flags was given.
func (f *clusterFlags) set() bool {
	return f.kubeconfig != "" || f.context != "" || f.namespace != "" || f.all
}

// connect builds the reader and the scope the flags name, with client-go's
// kubeconfig loading rules (as kubectl's).
func (f *clusterFlags) connect() (reader, scope, string, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = f.kubeconfig
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: f.context})
	cfg, err := cc.ClientConfig()
	if err != nil {
		return reader{}, scope{}, "", fmt.Errorf("kubeconfig: %v", err)
	}
	cfg.UserAgent = "kubesem (read-only)"
	cfg.QPS, cfg.Burst = 20, 40
	c, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return reader{}, scope{}, "", fmt.Errorf("kubeconfig: %v", err)
	}
	sc := scope{namespace: f.namespace, all: f.all}
	if !sc.all && sc.namespace == "" {
		ns, _, err := cc.Namespace()
		if err != nil {
			return reader{}, scope{}, "", fmt.Errorf("kubeconfig: %v", err)
		}
		sc.namespace = ns
	}
	return reader{c: c}, sc, cfg.Host, nil
}

// listPageSize is the page size of every list kubesem sends.
const listPageSize = 500

// dump reads the cluster's objects of every kind in apiKinds in the scope,
// page by page, as a stream of typed Lists (the shape "kubectl get --raw"
// returns), at most limit bytes. Nodes and node Leases are read whatever the
// namespace (the DaemonSet, node lifecycle and pod GC controllers need
// them); when they cannot be listed (RBAC), warn says so and the dump goes
// on without them.
func (r reader) dump(ctx context.Context, sc scope, limit int64, warn io.Writer) ([]byte, error) {
	var out bytes.Buffer
	for _, k := range apiKinds {
		ns := sc.namespaceOf(k)
		opts := metav1.ListOptions{Limit: listPageSize}
		for {
			l, err := r.list(ctx, k, ns, opts)
			if err != nil {
				if !k.Namespaced || k.Namespace != "" {
					if apierrors.IsForbidden(err) || apierrors.IsNotFound(err) {
						fmt.Fprintf(warn, "kubesem: warning: cannot list %s (%v): read without them\n", k.Resource, err)
						break
					}
				}
				return nil, fmt.Errorf("list %s%s: %v", k.Resource, inNamespace(ns), err)
			}
			acc, err := apimeta.ListAccessor(l)
			if err != nil {
				return nil, err
			}
			l.GetObjectKind().SetGroupVersionKind(schema.FromAPIVersionAndKind(k.APIVersion, k.Kind+"List"))
			b, err := json.Marshal(l)
			if err != nil {
				return nil, err
			}
			if int64(out.Len()+len(b)+1) > limit {
				return nil, fmt.Errorf("the cluster's objects exceed --max-bytes %d", limit)
			}
			out.Write(b)
			out.WriteByte('\n')
			if acc.GetContinue() == "" {
				break
			}
			opts.Continue = acc.GetContinue()
		}
	}
	return out.Bytes(), nil
}

func inNamespace(ns string) string {
	if ns == "" {
		return ""
	}
	return " in namespace " + ns
}

// focus is an object named TYPE/NAME on the command line.
type focus struct {
	kind, name string
}

// parseFocus reads TYPE/NAME arguments (deploy/nginx, statefulset.apps/web).
func parseFocus(args []string) ([]focus, error) {
	var out []focus
	for _, a := range args {
		t, name, ok := strings.Cut(a, "/")
		if !ok || t == "" || name == "" || strings.Contains(name, "/") {
			return nil, fmt.Errorf("%q: want TYPE/NAME (deploy/nginx, sts/web, ds/fluentd …)", a)
		}
		k, ok := kindByType(t)
		if !ok {
			return nil, fmt.Errorf("%q: TYPE %q is not a kind kubesem models (want one of %s)", a, t, strings.Join(modelledKinds(), ", "))
		}
		out = append(out, focus{k.Kind, name})
	}
	return out, nil
}

// focused keeps the explanations of the focused objects (with their
// children), and those whose children hold one. The namespace of a focused
// namespaced object is the scope's (any, with all namespaces).
func focused(es []explanation, fs []focus, sc scope) []explanation {
	match := func(e explanation) bool {
		for _, f := range fs {
			if e.Kind == f.kind && e.Name == f.name && (sc.all || e.Namespace == "" || e.Namespace == sc.namespace) {
				return true
			}
		}
		return false
	}
	var out []explanation
	for _, e := range es {
		if match(e) || slices.ContainsFunc(e.Children, match) {
			out = append(out, e)
		}
	}
	return out
}

// readLive reads the cluster in scope sc into the objects explain reads,
// and checks that every focused object exists.
func readLive(r reader, sc scope, fs []focus, limit int64, warn io.Writer) (*objects, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	data, err := r.dump(ctx, sc, limit, warn)
	if err != nil {
		return nil, err
	}
	objs, err := readObjects(bytes.NewReader(data), "-", limit)
	if err != nil {
		return nil, err
	}
	for _, x := range fs {
		found := slices.ContainsFunc(objs.models, func(m any) bool {
			k := key(m)
			return string(k.Kind) == x.kind && k.Name == x.name && (sc.all || k.Namespace == "" || k.Namespace == sc.namespace)
		})
		if !found {
			where := "in namespace " + sc.namespace
			if sc.all {
				where = "in any namespace"
			}
			return nil, errNotFound{fmt.Sprintf("%s %q not found %s", x.kind, x.name, where)}
		}
	}
	return objs, nil
}

// errNotFound is a focused object the cluster does not hold (exit 1).
type errNotFound struct{ msg string }

func (e errNotFound) Error() string { return e.msg }
