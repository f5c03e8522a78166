// Package k8s converts between the Kubernetes API types of k8s.io/api
// v0.36.3 and kubesem's models, so that a controller holding real objects
// (a controller-runtime reconciler, a test with client-go fakes) can ask
// kubesem what v1.36.3's controllers decide, and turn the answer back into
// API objects and patches.
//
// # Conversions
//
// From… converts an API object to kubesem's model and To… converts back:
// [FromDeployment] / [ToDeployment], [FromReplicaSet] / [ToReplicaSet],
// [FromReplicationController], [FromPod] / [ToPod], [FromJob] / [ToJob],
// [FromCronJob] / [ToCronJob], [FromPodDisruptionBudget] /
// [ToPodDisruptionBudget], and the list forms ([FromReplicaSets],
// [FromPods], [FromJobs]). Conversions go through the API's JSON, which is
// what kubesem's models are written against, so every modelled field keeps
// its value and every pod template keeps the fields kubesem does not model
// (they take part in template comparisons and are written back).
//
// # Hashes
//
// [PodTemplateHash] is the pod-template-hash label the Deployment
// controller computes, exactly as v1.36.3 computes it (FNV-32a over the
// k8s.io/utils/dump rendering of the template, then the collision count,
// then the safe alphabet of apimachinery's rand.SafeEncodeString).
// [FromDeployment] fills kubesem's Deployment.TemplateHash with it, so that
// created ReplicaSets get the names Kubernetes gives them.
//
// # Plans
//
// [DeploymentActions] turns a rollout.Plan into the API writes the
// controller makes: complete ReplicaSets to create (the Deployment's whole
// template plus the hash label), scale and annotation patches, deletions,
// and the status to write.
//
// This module requires k8s.io/api and k8s.io/apimachinery (and what they
// need), never k8s.io/kubernetes.
package k8s
