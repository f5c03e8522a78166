package upstream_test

import (
	"fmt"

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

// must unwraps an adapter result; the adapter fails only on values its
// own types cannot hold, which kubesem's inputs never are.
func must[T any](v *T, err error) *T {
	if err != nil {
		panic(fmt.Sprintf("adapter: %v", err))
	}
	return v
}

// upCronJob is c as the API server stores it: the adapter's batch/v1
// CronJob, defaulted by upstream's SetObjectDefaults_CronJob.
func upCronJob(c *kcronjob.CronJob) *batchv1.CronJob {
	u := must(k8s.ToCronJob(c))
	batchdefaults.SetObjectDefaults_CronJob(u)
	return u
}

// upJob is the adapter's batch/v1 Job for j, as given (not defaulted: the
// Jobs the harnesses build carry what their tests set).
func upJob(j *job.Job) *batchv1.Job { return must(k8s.ToJob(j)) }

// upDeployment is the adapter's apps/v1 Deployment for d, defaulted by
// upstream's SetObjectDefaults_Deployment.
func upDeployment(d *rollout.Deployment) *appsv1.Deployment {
	u := must(k8s.ToDeployment(d))
	appsdefaults.SetObjectDefaults_Deployment(u)
	return u
}

// upReplicaSet is the adapter's apps/v1 ReplicaSet for rs, defaulted by
// upstream's SetObjectDefaults_ReplicaSet; nil stays nil.
func upReplicaSet(rs *replicaset.ReplicaSet) *appsv1.ReplicaSet {
	if rs == nil {
		return nil
	}
	u := must(k8s.ToReplicaSet(rs))
	appsdefaults.SetObjectDefaults_ReplicaSet(u)
	return u
}

func upReplicaSets(rss []*replicaset.ReplicaSet) []*appsv1.ReplicaSet {
	out := make([]*appsv1.ReplicaSet, len(rss))
	for i, rs := range rss {
		out[i] = upReplicaSet(rs)
	}
	return out
}
