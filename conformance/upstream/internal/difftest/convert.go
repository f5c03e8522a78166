package difftest

import (
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	appsdefaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	batchdefaults "k8s.io/kubernetes/pkg/apis/batch/v1"

	kcronjob "github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

// The differential tests hand upstream kubesem's inputs through the
// adapter module (github.com/kubesem/kubesem/k8s), the converters users
// call, with the API server's own v1 defaulting where the object would
// have been stored: no private converters.

// Must unwraps an adapter result; the adapter fails only on values its
// own types cannot hold, which kubesem's inputs never are.
func Must[T any](v *T, err error) *T {
	if err != nil {
		panic(fmt.Sprintf("adapter: %v", err))
	}
	return v
}

// UpCronJob is c as the API server stores it: the adapter's batch/v1
// CronJob, defaulted by upstream's SetObjectDefaults_CronJob.
func UpCronJob(c *kcronjob.CronJob) *batchv1.CronJob {
	u := Must(k8s.ToCronJob(c))
	batchdefaults.SetObjectDefaults_CronJob(u)
	return u
}

// UpJob is the adapter's batch/v1 Job for j, as given (not defaulted: the
// Jobs the harnesses build carry what their tests set).
func UpJob(j *job.Job) *batchv1.Job { return Must(k8s.ToJob(j)) }

// UpDeployment is the adapter's apps/v1 Deployment for d, defaulted by
// upstream's SetObjectDefaults_Deployment.
func UpDeployment(d *rollout.Deployment) *appsv1.Deployment {
	u := Must(k8s.ToDeployment(d))
	appsdefaults.SetObjectDefaults_Deployment(u)
	return u
}

// UpReplicaSet is the adapter's apps/v1 ReplicaSet for rs, defaulted by
// upstream's SetObjectDefaults_ReplicaSet; nil stays nil.
func UpReplicaSet(rs *replicaset.ReplicaSet) *appsv1.ReplicaSet {
	if rs == nil {
		return nil
	}
	u := Must(k8s.ToReplicaSet(rs))
	appsdefaults.SetObjectDefaults_ReplicaSet(u)
	return u
}

// UpReplicaSets is UpReplicaSet of each of rss.
func UpReplicaSets(rss []*replicaset.ReplicaSet) []*appsv1.ReplicaSet {
	out := make([]*appsv1.ReplicaSet, len(rss))
	for i, rs := range rss {
		out[i] = UpReplicaSet(rs)
	}
	return out
}

// JobT0 is the reference now of the Job and rollback differentials.
var JobT0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// PodT0 is the reference now of the pod status and pod GC differentials.
var PodT0 = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

// Ptr returns a pointer to a copy of v.
func Ptr[T any](v T) *T { return &v }

// MustList unwraps an adapter list result.
func MustList[T any](v []T, err error) []T {
	if err != nil {
		panic(fmt.Sprintf("adapter: %v", err))
	}
	return v
}
