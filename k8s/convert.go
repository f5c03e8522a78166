package k8s

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

// convert re-reads from's API JSON as to. Both sides use the API's JSON
// field names, so the modelled fields carry over and pod templates keep the
// rest.
func convert[T any](kind string, from any) (*T, error) {
	b, err := json.Marshal(from)
	if err != nil {
		return nil, fmt.Errorf("k8s: encoding %s: %w", kind, err)
	}
	to := new(T)
	if err := json.Unmarshal(b, to); err != nil {
		return nil, fmt.Errorf("k8s: decoding %s: %w", kind, err)
	}
	return to, nil
}

// toAPI converts a kubesem model back to the API type T with its
// apiVersion and kind set; nil stays nil.
func toAPI[T any, PT interface {
	*T
	GetObjectKind() schema.ObjectKind
}, F any](apiVersion, kind string, from *F) (*T, error) {
	if from == nil {
		return nil, nil
	}
	out, err := convert[T](kind, from)
	if err != nil {
		return nil, err
	}
	PT(out).GetObjectKind().SetGroupVersionKind(schema.FromAPIVersionAndKind(apiVersion, kind))
	return out, nil
}

// convertAll converts every element of from.
func convertAll[F any, T any](kind string, from []F, one func(F) (*T, error)) ([]*T, error) {
	out := make([]*T, 0, len(from))
	for i, f := range from {
		t, err := one(f)
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", kind, i, err)
		}
		out = append(out, t)
	}
	return out, nil
}

// FromDeployment converts d, and sets TemplateHash to the pod-template-hash
// v1.36.3 computes for d's template and collision count.
func FromDeployment(d *appsv1.Deployment) (*rollout.Deployment, error) {
	if d == nil {
		return nil, nil
	}
	out, err := convert[rollout.Deployment]("Deployment", d)
	if err != nil {
		return nil, err
	}
	out.TemplateHash = PodTemplateHash(&d.Spec.Template, d.Status.CollisionCount)
	return out, nil
}

// ToDeployment converts d back to the API type (TemplateHash, not an API
// field, is dropped).
func ToDeployment(d *rollout.Deployment) (*appsv1.Deployment, error) {
	return toAPI[appsv1.Deployment]("apps/v1", "Deployment", d)
}

// FromReplicaSet converts rs.
func FromReplicaSet(rs *appsv1.ReplicaSet) (*replicaset.ReplicaSet, error) {
	if rs == nil {
		return nil, nil
	}
	out, err := convert[replicaset.ReplicaSet]("ReplicaSet", rs)
	if err != nil {
		return nil, err
	}
	out.Kind = replicaset.KindReplicaSet
	return out, nil
}

// FromReplicaSets converts every ReplicaSet of rss (a nil entry stays nil).
func FromReplicaSets(rss []*appsv1.ReplicaSet) ([]*replicaset.ReplicaSet, error) {
	return convertAll("replicaSets", rss, FromReplicaSet)
}

// ToReplicaSet converts rs back to the API type.
func ToReplicaSet(rs *replicaset.ReplicaSet) (*appsv1.ReplicaSet, error) {
	if rs == nil {
		return nil, nil
	}
	c := *rs
	c.Kind = ""
	out, err := convert[appsv1.ReplicaSet]("ReplicaSet", &c)
	if err != nil {
		return nil, err
	}
	out.APIVersion, out.Kind = "apps/v1", "ReplicaSet"
	return out, nil
}

// FromReplicationController converts rc to kubesem's ReplicaSet model with
// Kind ReplicationController (its selector is a plain label map).
func FromReplicationController(rc *corev1.ReplicationController) (*replicaset.ReplicaSet, error) {
	if rc == nil {
		return nil, nil
	}
	out, err := convert[replicaset.ReplicaSet]("ReplicationController", rc)
	if err != nil {
		return nil, err
	}
	out.Kind = replicaset.KindReplicationController
	// An RC's spec.selector is a plain label map, which the model's
	// LabelSelector does not decode: it becomes matchLabels. (Empty, the
	// selector is the template's labels, as API defaulting makes it.)
	out.Spec.Selector = nil
	if len(rc.Spec.Selector) > 0 {
		out.Spec.Selector = meta.SelectorFromSet(maps.Clone(rc.Spec.Selector))
	}
	return out, nil
}

// FromPod converts p.
func FromPod(p *corev1.Pod) (*podstatus.Pod, error) {
	if p == nil {
		return nil, nil
	}
	return convert[podstatus.Pod]("Pod", p)
}

// FromPods converts every pod of pods.
func FromPods(pods []*corev1.Pod) ([]*podstatus.Pod, error) {
	return convertAll("pods", pods, FromPod)
}

// ToPod converts p back to the API type (the modelled fields only).
func ToPod(p *podstatus.Pod) (*corev1.Pod, error) {
	return toAPI[corev1.Pod]("v1", "Pod", p)
}

// FromJob converts j.
func FromJob(j *batchv1.Job) (*job.Job, error) {
	if j == nil {
		return nil, nil
	}
	return convert[job.Job]("Job", j)
}

// FromJobs converts every Job of jobs.
func FromJobs(jobs []*batchv1.Job) ([]*job.Job, error) {
	return convertAll("jobs", jobs, FromJob)
}

// ToJob converts j back to the API type.
func ToJob(j *job.Job) (*batchv1.Job, error) {
	return toAPI[batchv1.Job]("batch/v1", "Job", j)
}

// FromCronJob converts cj.
func FromCronJob(cj *batchv1.CronJob) (*cronjob.CronJob, error) {
	if cj == nil {
		return nil, nil
	}
	return convert[cronjob.CronJob]("CronJob", cj)
}

// ToCronJob converts cj back to the API type.
func ToCronJob(cj *cronjob.CronJob) (*batchv1.CronJob, error) {
	return toAPI[batchv1.CronJob]("batch/v1", "CronJob", cj)
}

// FromPodDisruptionBudget converts b.
func FromPodDisruptionBudget(b *policyv1.PodDisruptionBudget) (*pdb.PodDisruptionBudget, error) {
	if b == nil {
		return nil, nil
	}
	return convert[pdb.PodDisruptionBudget]("PodDisruptionBudget", b)
}

// ToPodDisruptionBudget converts b back to the API type.
func ToPodDisruptionBudget(b *pdb.PodDisruptionBudget) (*policyv1.PodDisruptionBudget, error) {
	return toAPI[policyv1.PodDisruptionBudget]("policy/v1", "PodDisruptionBudget", b)
}

// FromNode converts n: metadata, spec.unschedulable, spec.taints and
// status.conditions (with heartbeat and transition times).
func FromNode(n *corev1.Node) (*node.Node, error) {
	if n == nil {
		return nil, nil
	}
	return convert[node.Node]("Node", n)
}

// FromNodes converts every Node of a list.
func FromNodes(nodes []*corev1.Node) ([]*node.Node, error) {
	return convertAll("nodes", nodes, FromNode)
}

// ToNode converts n back to the API type (the fields kubesem models).
func ToNode(n *node.Node) (*corev1.Node, error) {
	return toAPI[corev1.Node]("v1", "Node", n)
}

// FromLease converts a node Lease (kube-node-lease namespace): its
// metadata (the name is the node's) and spec.renewTime.
func FromLease(l *coordinationv1.Lease) node.Lease {
	out := node.Lease{ObjectMeta: fromObjectMeta(&l.ObjectMeta)}
	if l.Spec.RenewTime != nil {
		t := l.Spec.RenewTime.Time
		out.Spec.RenewTime = &t
	}
	return out
}

// FromLeases converts every Lease of a list.
func FromLeases(leases []*coordinationv1.Lease) []node.Lease {
	out := make([]node.Lease, 0, len(leases))
	for _, l := range leases {
		if l != nil {
			out = append(out, FromLease(l))
		}
	}
	return out
}

// ToLease converts l back to a coordination.k8s.io/v1 Lease, in
// kube-node-lease when l names no namespace.
func ToLease(l node.Lease) *coordinationv1.Lease {
	out := &coordinationv1.Lease{ObjectMeta: toObjectMeta(&l.ObjectMeta)}
	out.APIVersion, out.Kind = "coordination.k8s.io/v1", "Lease"
	if out.Namespace == "" {
		out.Namespace = "kube-node-lease"
	}
	if l.Spec.RenewTime != nil {
		t := metav1.NewMicroTime(*l.Spec.RenewTime)
		out.Spec.RenewTime = &t
	}
	return out
}

// fromObjectMeta copies the metadata fields kubesem models.
func fromObjectMeta(m *metav1.ObjectMeta) meta.ObjectMeta {
	out := meta.ObjectMeta{Name: m.Name, GenerateName: m.GenerateName, Namespace: m.Namespace, UID: string(m.UID), Generation: m.Generation,
		CreationTimestamp: m.CreationTimestamp.Time, DeletionGracePeriodSeconds: clonePtr(m.DeletionGracePeriodSeconds),
		Labels: maps.Clone(m.Labels), Annotations: maps.Clone(m.Annotations), Finalizers: slices.Clone(m.Finalizers)}
	if m.DeletionTimestamp != nil {
		t := m.DeletionTimestamp.Time
		out.DeletionTimestamp = &t
	}
	for _, r := range m.OwnerReferences {
		out.OwnerReferences = append(out.OwnerReferences, meta.OwnerReference{APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name, UID: string(r.UID), Controller: clonePtr(r.Controller), BlockOwnerDeletion: clonePtr(r.BlockOwnerDeletion)})
	}
	return out
}

// toObjectMeta is fromObjectMeta's inverse.
func toObjectMeta(m *meta.ObjectMeta) metav1.ObjectMeta {
	out := metav1.ObjectMeta{Name: m.Name, GenerateName: m.GenerateName, Namespace: m.Namespace, UID: types.UID(m.UID), Generation: m.Generation,
		DeletionGracePeriodSeconds: clonePtr(m.DeletionGracePeriodSeconds),
		Labels:                     maps.Clone(m.Labels), Annotations: maps.Clone(m.Annotations), Finalizers: slices.Clone(m.Finalizers)}
	if !m.CreationTimestamp.IsZero() {
		out.CreationTimestamp = metav1.NewTime(m.CreationTimestamp)
	}
	if m.DeletionTimestamp != nil {
		t := metav1.NewTime(*m.DeletionTimestamp)
		out.DeletionTimestamp = &t
	}
	for _, r := range m.OwnerReferences {
		out.OwnerReferences = append(out.OwnerReferences, metav1.OwnerReference{APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name, UID: types.UID(r.UID), Controller: clonePtr(r.Controller), BlockOwnerDeletion: clonePtr(r.BlockOwnerDeletion)})
	}
	return out
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
