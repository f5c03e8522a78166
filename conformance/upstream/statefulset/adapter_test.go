package statefulset_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/statefulset"
)

// TestAdapterRealStatefulSetUpstream: the kubectl get -o json objects of a
// StatefulSet in mid-update (k8s/testdata/real), unmodified, give the same
// sync through the adapter and Step as through upstream's
// UpdateStatefulSet: the new revision, the deletion of web-2, the status.
func TestAdapterRealStatefulSetUpstream(t *testing.T) {
	rd := func(name string, v any) {
		b, err := os.ReadFile(difftest.Repo("k8s", "testdata", "real", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	var set appsv1.StatefulSet
	var revs appsv1.ControllerRevisionList
	var pods corev1.PodList
	var claims corev1.PersistentVolumeClaimList
	rd("statefulset.json", &set)
	rd("controllerrevisions.json", &revs)
	rd("statefulset-pods.json", &pods)
	rd("persistentvolumeclaims.json", &claims)
	c := diffCase{upSet: &set, upClaims: map[string]*corev1.PersistentVolumeClaim{}}
	for i := range revs.Items {
		// The controller's informer holds the stored, compact bytes;
		// kubectl printed them indented.
		r := revs.Items[i].DeepCopy()
		var buf bytes.Buffer
		if err := json.Compact(&buf, r.Data.Raw); err != nil {
			t.Fatal(err)
		}
		r.Data.Raw = buf.Bytes()
		c.upRevs = append(c.upRevs, r)
	}
	for i := range pods.Items {
		c.upPods = append(c.upPods, &pods.Items[i])
	}
	var upClaims []*corev1.PersistentVolumeClaim
	for i := range claims.Items {
		upClaims = append(upClaims, &claims.Items[i])
		c.upClaims[claims.Items[i].Name] = &claims.Items[i]
	}
	var kubectlRevs []*appsv1.ControllerRevision
	for i := range revs.Items {
		kubectlRevs = append(kubectlRevs, &revs.Items[i])
	}
	c.set = difftest.Must(k8s.FromStatefulSetWithRevisions(&set, kubectlRevs))
	c.pods = difftest.MustList(k8s.FromPods(c.upPods))
	c.claims = difftest.MustList(k8s.FromPersistentVolumeClaims(upClaims))
	c.revs = k8s.FromControllerRevisions(kubectlRevs)
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	saved := t0
	t0 = now
	defer func() { t0 = saved }()
	up, got, err := runBoth(c, statefulset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := resultDiff(up, got); d != "" {
		t.Fatalf("differs from v1.36.3:\n%s", d)
	}
	if len(up.Revisions) != 1 || len(up.Delete) != 1 || up.Delete[0] != "web-2" {
		t.Fatalf("upstream sync %s; want a new revision and web-2 deleted", showResult(up))
	}
}
