package deployment_test

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"
	"testing"
	"time"
	_ "unsafe" // go:linkname to the deployment controller's unexported rules

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
	appsdefaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	"k8s.io/kubernetes/pkg/controller/deployment"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
)

//go:linkname annotationInt32 k8s.io/kubernetes/pkg/controller/deployment/util.getNonNegativeInt32FromAnnotation
func annotationInt32(rs *appsv1.ReplicaSet, annotationKey string) (int32, bool, error)

//go:linkname checkPausedConditions k8s.io/kubernetes/pkg/controller/deployment.(*DeploymentController).checkPausedConditions
func checkPausedConditions(dc *deployment.DeploymentController, ctx context.Context, d *appsv1.Deployment) error

// maxRevHistoryLengthInChars is the limit the controller passes to
// SetNewReplicaSetAnnotations (sync.go maxRevHistoryLengthInChars).
const maxRevHistoryLengthInChars = 2000

// utilIn is the union of the inputs of the rollout helper decisions, in
// upstream types.
type utilIn struct {
	Conditions  []appsv1.DeploymentCondition   `json:"conditions"`
	Condition   appsv1.DeploymentCondition     `json:"condition"`
	Type        appsv1.DeploymentConditionType `json:"type"`
	Deployment  *appsv1.Deployment             `json:"deployment"`
	Status      *appsv1.DeploymentStatus       `json:"status"`
	Now         time.Time                      `json:"now"`
	ReplicaSets []*appsv1.ReplicaSet           `json:"replicaSets"`
	ReplicaSet  *appsv1.ReplicaSet             `json:"replicaSet"`
	ToAdd       int32                          `json:"toAdd"`
	Added       int32                          `json:"added"`
	NewRevision int64                          `json:"newRevision"`
	Created     bool                           `json:"created"`
	Desired     int32                          `json:"desired"`
	MaxReplicas int32                          `json:"maxReplicas"`
	Key         string                         `json:"key"`
}

// TestRolloutUtilVectorsUpstream replays the vectors of the rollout helper
// decisions through the v1.36.3 function each mirrors — the condition
// helpers (GetDeploymentCondition, SetDeploymentCondition,
// RemoveDeploymentCondition, for the meta.Conditions vectors),
// DeploymentComplete, DeploymentProgressing, DeploymentTimedOut (its
// clock at the vector's now), Revision,
// MaxRevision, LastRevision, ReplicaSetsByRevision, FindNewReplicaSet,
// FindOldReplicaSets, getNonNegativeInt32FromAnnotation,
// ReplicasAnnotationsNeedUpdate, GetReplicaSetProportion,
// SetNewReplicaSetAnnotations (with the controller's 2000-character
// revision history) and the controller's checkPausedConditions (its
// condition times, stamped with the wall clock, are now) — on the inputs
// decoded as upstream objects with apps/v1 defaults, and matches the
// vector's want; a wantError vector of Revision or the replicas
// annotation must make upstream fail too (other wantError vectors are
// inputs API validation rejects, which TestDeploymentValidationParity
// covers).
func TestRolloutUtilVectorsUpstream(t *testing.T) {
	vs, err := conformance.Load(kubesem.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { difftest.DeploymentUtilNowFn = time.Now }()
	ctx := context.Background()
	logger := klog.Background()
	checked := map[string]int{}
	for _, v := range vs {
		if v.Package != "rollout" && v.Package != "meta" || len(v.WantOneOf) > 0 {
			continue
		}
		var in utilIn
		if err := json.Unmarshal(v.Input, &in); err != nil {
			continue // a decision of another shape, or an invalid input
		}
		d := in.Deployment
		if d != nil {
			appsdefaults.SetObjectDefaults_Deployment(d)
		}
		// Templates are compared as the API server stores them: the
		// Deployment's and every ReplicaSet's, defaulted alike.
		for _, rs := range append(append([]*appsv1.ReplicaSet(nil), in.ReplicaSets...), in.ReplicaSet) {
			if rs != nil {
				c := rs.DeepCopy()
				appsdefaults.SetObjectDefaults_ReplicaSet(c)
				rs.Spec.Template = c.Spec.Template
			}
		}
		var status appsv1.DeploymentStatus
		if in.Status != nil {
			status = *in.Status
		}
		got := map[string]any{}
		var uerr error
		switch v.Decision {
		case "meta.Conditions.Find":
			c := deploymentutil.GetDeploymentCondition(appsv1.DeploymentStatus{Conditions: in.Conditions}, in.Type)
			got["found"] = c != nil
			if c != nil {
				got["condition"] = conditionJSON(*c)
			}
		case "meta.Conditions.Set":
			s := appsv1.DeploymentStatus{Conditions: in.Conditions}
			deploymentutil.SetDeploymentCondition(&s, in.Condition)
			got["conditions"] = conditionsJSON(s.Conditions)
		case "meta.Conditions.Remove":
			s := appsv1.DeploymentStatus{Conditions: in.Conditions}
			deploymentutil.RemoveDeploymentCondition(&s, in.Type)
			got["conditions"] = conditionsJSON(s.Conditions)
		case "rollout.IsComplete":
			got["value"] = deploymentutil.DeploymentComplete(d, &status)
		case "rollout.IsProgressing":
			got["value"] = deploymentutil.DeploymentProgressing(d, &status)
		case "rollout.IsTimedOut":
			now := in.Now
			difftest.DeploymentUtilNowFn = func() time.Time { return now }
			got["value"] = deploymentutil.DeploymentTimedOut(ctx, d, &status)
			difftest.DeploymentUtilNowFn = time.Now
		case "rollout.Revision":
			got["revision"], uerr = deploymentutil.Revision(in.ReplicaSet)
		case "rollout.MaxRevision":
			got["revision"] = deploymentutil.MaxRevision(logger, in.ReplicaSets)
		case "rollout.LastRevision":
			got["revision"] = deploymentutil.LastRevision(logger, in.ReplicaSets)
		case "rollout.SortByRevision":
			rss := append([]*appsv1.ReplicaSet{}, in.ReplicaSets...)
			sort.Sort(deploymentutil.ReplicaSetsByRevision(rss))
			got["names"] = names(rss)
		case "rollout.FindNewReplicaSet":
			got["name"] = nil
			if rs := deploymentutil.FindNewReplicaSet(d, in.ReplicaSets); rs != nil {
				got["name"] = rs.Name
			}
		case "rollout.FindOldReplicaSets":
			active, all := deploymentutil.FindOldReplicaSets(d, in.ReplicaSets)
			got["active"], got["all"] = names(active), names(all)
		case "rollout.ReplicasAnnotation":
			got["value"], got["ok"], uerr = annotationInt32(in.ReplicaSet, in.Key)
		case "rollout.ReplicasAnnotationsNeedUpdate":
			got["value"] = deploymentutil.ReplicasAnnotationsNeedUpdate(in.ReplicaSet, in.Desired, in.MaxReplicas)
		case "rollout.Proportion":
			got["value"] = deploymentutil.GetReplicaSetProportion(logger, in.ReplicaSet, *d, in.ToAdd, in.Added)
		case "rollout.NewReplicaSetAnnotations":
			rs := in.ReplicaSet.DeepCopy()
			changed := deploymentutil.SetNewReplicaSetAnnotations(ctx, d, rs, strconv.FormatInt(in.NewRevision, 10), !in.Created, maxRevHistoryLengthInChars)
			got["annotations"], got["changed"] = rs.Annotations, changed
		case "rollout.PausedCondition":
			dc, c := newController()
			wall0 := time.Now().Truncate(time.Second)
			if err := checkPausedConditions(dc, ctx, d); err != nil {
				t.Fatalf("%s: checkPausedConditions: %v", v.Name, err)
			}
			wall1, now := time.Now(), in.Now
			for i := range d.Status.Conditions {
				for _, tm := range []*metav1.Time{&d.Status.Conditions[i].LastUpdateTime, &d.Status.Conditions[i].LastTransitionTime} {
					if !tm.Before(&metav1.Time{Time: wall0}) && !tm.After(wall1) {
						*tm = metav1.Time{Time: now}
					}
				}
			}
			got["conditions"], got["changed"] = conditionsJSON(d.Status.Conditions), len(c.Actions()) > 0
		default:
			continue
		}
		if v.WantError != nil && v.Decision != "rollout.Revision" && v.Decision != "rollout.ReplicasAnnotation" {
			continue // input API validation rejects: TestDeploymentValidationParity's domain
		}
		checked[v.Decision]++
		if v.WantError != nil {
			if uerr == nil {
				t.Errorf("%s: vector wants error %s at %s; upstream answers %v", v.Name, v.WantError.Kind, v.WantError.Field, got)
			}
			continue
		}
		if uerr != nil {
			t.Errorf("%s: upstream fails (%v); vector wants %s", v.Name, uerr, v.Want)
			continue
		}
		gb, _ := json.Marshal(got)
		if ok, why := conformance.Match(v.Want, gb); !ok {
			t.Errorf("%s (%s): upstream differs: %s\nupstream: %s", v.Name, v.Decision, why, gb)
		}
	}
	if len(checked) < 16 {
		t.Fatalf("checked %d decisions' vectors against upstream (%v); want 16", len(checked), checked)
	}
	t.Logf("vectors replayed against upstream, per decision: %v", checked)
}

func names(rss []*appsv1.ReplicaSet) []string {
	out := []string{}
	for _, rs := range rss {
		out = append(out, rs.Name)
	}
	return out
}

func conditionJSON(c appsv1.DeploymentCondition) map[string]any {
	return difftest.VectorCondition(string(c.Type), string(c.Status), nil, &c.LastUpdateTime, &c.LastTransitionTime, c.Reason, c.Message)
}

func conditionsJSON(cs []appsv1.DeploymentCondition) []any {
	out := []any{}
	for _, c := range cs {
		out = append(out, conditionJSON(c))
	}
	return out
}
