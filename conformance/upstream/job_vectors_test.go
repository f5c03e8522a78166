package upstream_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"
	"unsafe"

	batch "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	clientset "k8s.io/client-go/kubernetes"
	restclient "k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	batchv1defaults "k8s.io/kubernetes/pkg/apis/batch/v1"
	"k8s.io/kubernetes/pkg/controller"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/job"
)

// jobVectorInput is a job.Step vector's input, decoded into upstream types.
type jobVectorInput struct {
	Job     batch.Job `json:"job"`
	Pods    []*v1.Pod `json:"pods"`
	Now     time.Time `json:"now"`
	Backoff *struct {
		FailuresAfterLastSuccess int32      `json:"failuresAfterLastSuccess"`
		LastFailureTime          *time.Time `json:"lastFailureTime"`
	} `json:"backoff"`
}

// TestJobStepVectorsUpstream replays every job.Step vector (default
// options, expected output) through one upstream v1.36.3 syncJob at default
// feature gates and matches the vector's want against upstream's result:
// creations (count, indexes, hostnames, generateNames, failure-count
// annotations), deletions, finalizer patches, whether and what status is
// written. Keys upstream cannot report (reasons, requeues, the backoff
// record, which finalizers go) are left out of the comparison.
func TestJobStepVectorsUpstream(t *testing.T) {
	vs, err := conformance.Load(kubesem.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range vs {
		if v.Decision != "job.Step" || v.Want == nil || len(v.Options) > 0 {
			continue
		}
		var in jobVectorInput
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Errorf("%s: input: %v", v.Name, err)
			continue
		}
		var want map[string]any
		if err := json.Unmarshal(v.Want, &want); err != nil {
			t.Fatal(err)
		}
		if s, _ := want["outcome"].(string); s != "" && s != string(job.ReasonSynced) {
			continue
		}
		got := jobReplayUpstream(t, &in)
		jobPruneWant(want, got)
		wb, _ := json.Marshal(want)
		gb, _ := json.Marshal(got)
		if ok, why := conformance.Match(wb, gb); !ok {
			t.Errorf("%s (%s): upstream differs: %s\nupstream: %s", v.Name, v.Source, why, gb)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no job.Step vectors")
	}
	t.Logf("%d job.Step vectors replayed against upstream", n)
}

// jobReplayUpstream runs one upstream syncJob on the vector's state and
// renders the result in the shape of the job.Step decision.
func jobReplayUpstream(t *testing.T, in *jobVectorInput) map[string]any {
	ctx := context.Background()
	j := in.Job.DeepCopy()
	batchv1defaults.SetObjectDefaults_Job(j)
	if j.Namespace == "" {
		j.Namespace = "default"
	}
	if j.UID == "" {
		j.UID = types.UID(j.Name + "-uid")
	}
	j.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"job-vector": j.Name}}
	j.Spec.Template.Labels = map[string]string{"job-vector": j.Name}
	client := clientset.NewForConfigOrDie(&restclient.Config{Host: "", ContentConfig: restclient.ContentConfig{GroupVersion: &schema.GroupVersion{Group: "", Version: "v1"}}})
	inf := informers.NewSharedInformerFactory(client, 0)
	jm, err := jobNewController(ctx, client, clocktesting.NewFakeClock(in.Now), inf.Core().V1().Pods(), inf.Batch().V1().Jobs(),
		inf.Scheduling().V1alpha2().Workloads(), inf.Scheduling().V1alpha2().PodGroups())
	if err != nil {
		t.Fatal(err)
	}
	fake := &controller.FakePodControl{}
	jobSetField(jm, "podControl", controller.PodControlInterface(fake))
	always := cache.InformerSynced(func() bool { return true })
	jobSetField(jm, "podStoreSynced", always)
	jobSetField(jm, "jobStoreSynced", always)
	status, updated := j.Status, false
	jobSetField(jm, "updateStatusHandler", func(_ context.Context, job *batch.Job) (*batch.Job, error) {
		status, updated = *job.Status.DeepCopy(), true
		return job, nil
	})
	key := j.Namespace + "/" + j.Name
	if b := in.Backoff; b != nil {
		store := (*jobBackoffStore)(unsafe.Pointer(jobGetField(jm, "podBackoffStore").Pointer()))
		if err := jobUpdateBackoffRecord(store, jobBackoffRecord{key: key, failuresAfterLastSuccess: b.FailuresAfterLastSuccess, lastFailureTime: b.LastFailureTime}); err != nil {
			t.Fatal(err)
		}
	}
	if err := inf.Batch().V1().Jobs().Informer().GetIndexer().Add(j); err != nil {
		t.Fatal(err)
	}
	uids := map[string]string{}
	for _, p := range in.Pods {
		p = p.DeepCopy()
		if p.Namespace == "" {
			p.Namespace = j.Namespace
		}
		p.Labels = map[string]string{"job-vector": j.Name}
		p.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(j, batch.SchemeGroupVersion.WithKind("Job"))}
		uids[p.Name] = string(p.UID)
		if err := inf.Core().V1().Pods().Informer().GetIndexer().Add(p); err != nil {
			t.Fatal(err)
		}
	}
	sync := jobGetField(jm, "syncHandler").Interface().(func(context.Context, string) error)
	if err := sync(ctx, key); err != nil {
		t.Errorf("upstream syncJob: %v", err)
	}
	out := map[string]any{"podPatches": len(fake.Patches), "updateStatus": updated, "status": jobStatusOut(status),
		"create": map[string]any{"count": 0}}
	if len(fake.Templates) > 0 {
		var pods []map[string]any
		for _, tpl := range fake.Templates {
			m := map[string]any{"generateName": tpl.GenerateName, "hostname": tpl.Spec.Hostname}
			if ix, ok := tpl.Annotations[batch.JobCompletionIndexAnnotation]; ok {
				m["index"], _ = strconv.Atoi(ix)
			}
			for k, a := range map[string]string{"indexFailureCount": batch.JobIndexFailureCountAnnotation, "indexIgnoredFailureCount": batch.JobIndexIgnoredFailureCountAnnotation} {
				if v, ok := tpl.Annotations[a]; ok {
					m[k], _ = strconv.Atoi(v)
				}
			}
			if _, ok := m["index"]; ok {
				pods = append(pods, m)
			}
		}
		slices.SortFunc(pods, func(a, b map[string]any) int { return a["index"].(int) - b["index"].(int) })
		out["create"] = map[string]any{"count": len(fake.Templates), "objects": pods}
	}
	var del []map[string]any
	for _, name := range fake.DeletePodName {
		del = append(del, map[string]any{"name": name, "uid": uids[name]})
	}
	out["delete"] = del
	return out
}

func jobStatusOut(s batch.JobStatus) map[string]any {
	tm := func(t *metav1.Time) any {
		if t == nil {
			return nil
		}
		return t.UTC().Format(time.RFC3339Nano)
	}
	conds := []map[string]any{}
	for _, c := range s.Conditions {
		conds = append(conds, map[string]any{"type": string(c.Type), "status": string(c.Status), "reason": c.Reason,
			"message": c.Message, "lastTransitionTime": tm(&c.LastTransitionTime), "lastProbeTime": tm(&c.LastProbeTime)})
	}
	unc := map[string][]string{"succeeded": {}, "failed": {}}
	if u := s.UncountedTerminatedPods; u != nil {
		for _, x := range u.Succeeded {
			unc["succeeded"] = append(unc["succeeded"], string(x))
		}
		for _, x := range u.Failed {
			unc["failed"] = append(unc["failed"], string(x))
		}
	}
	out := map[string]any{"conditions": conds, "startTime": tm(s.StartTime), "completionTime": tm(s.CompletionTime),
		"active": s.Active, "succeeded": s.Succeeded, "failed": s.Failed, "completedIndexes": s.CompletedIndexes,
		"uncountedTerminatedPods": unc, "ready": nil, "terminating": nil, "failedIndexes": nil}
	if s.Ready != nil {
		out["ready"] = *s.Ready
	}
	if s.Terminating != nil {
		out["terminating"] = *s.Terminating
	}
	if s.FailedIndexes != nil {
		out["failedIndexes"] = *s.FailedIndexes
	}
	return out
}

// jobPruneWant drops what upstream cannot report from a job.Step want, and
// lines upstream's deletions up in the want's order (upstream deletes
// concurrently, so its order is arbitrary).
func jobPruneWant(want, got map[string]any) {
	for _, k := range []string{"outcome", "requeue", "backoff", "removeFinalizers"} {
		delete(want, k)
	}
	if c, ok := want["create"].(map[string]any); ok {
		delete(c, "reason")
	}
	wd, _ := want["delete"].([]any)
	gd, _ := got["delete"].([]map[string]any)
	var ordered []map[string]any
	used := make([]bool, len(gd))
	for _, w := range wd {
		wm, _ := w.(map[string]any)
		delete(wm, "reason")
		for i, g := range gd {
			if !used[i] && (wm["name"] == nil || wm["name"] == g["name"]) {
				used[i] = true
				ordered = append(ordered, g)
				break
			}
		}
	}
	for i, g := range gd {
		if !used[i] {
			ordered = append(ordered, g)
		}
	}
	got["delete"] = ordered
}
