package deepcopy_test

import (
	"encoding/json"
	"testing"

	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/rollout"
)

// BenchmarkCopyDeployment: a Deployment decoded from JSON (a template with
// an unmodelled part), copied.
func BenchmarkCopyDeployment(b *testing.B) {
	var d rollout.Deployment
	if err := json.Unmarshal([]byte(deploymentJSON), &d); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = deepcopy.Copy(d)
	}
}

const deploymentJSON = `{
 "metadata": {"name": "web", "namespace": "default", "uid": "u1", "generation": 3, "labels": {"app": "web"},
   "annotations": {"deployment.kubernetes.io/revision": "2"}},
 "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
   "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
   "template": {"metadata": {"labels": {"app": "web"}},
     "spec": {"containers": [{"name": "web", "image": "nginx:1.25", "ports": [{"containerPort": 80}],
       "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}},
       "readinessProbe": {"httpGet": {"path": "/", "port": 80}, "periodSeconds": 5}}]}}},
 "status": {"observedGeneration": 3, "replicas": 3, "availableReplicas": 3, "conditions": [
   {"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable", "lastUpdateTime": "2026-01-01T00:00:00Z", "lastTransitionTime": "2026-01-01T00:00:00Z"},
   {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable", "lastUpdateTime": "2026-01-01T00:00:00Z", "lastTransitionTime": "2026-01-01T00:00:00Z"}]}
}`
