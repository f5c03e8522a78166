package k8s_test

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/rollout"
)

// TestTemplateHashIsPodTemplateHash: the hash injected into rollout is
// v1.36.3's hash of the API template the kubesem template came from, at
// every collision count, and rollout.Step names the new ReplicaSet with it
// even when the Deployment carries no TemplateHash.
func TestTemplateHashIsPodTemplateHash(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := genDeployment(t)
		d.Spec.Template = genTemplate(t)
		d.Spec.Selector.MatchLabels = map[string]string{"app": "web"}
		if rapid.Bool().Draw(t, "collided") {
			c := rapid.Int32Range(0, 1<<20).Draw(t, "collisionCount")
			d.Status.CollisionCount = &c
		}
		kd, err := k8s.FromDeployment(d)
		if err != nil {
			t.Fatal(err)
		}
		want := k8s.PodTemplateHash(&d.Spec.Template, d.Status.CollisionCount)
		if got := k8s.TemplateHash(&kd.Spec.Template, kd.Status.CollisionCount); got != want {
			t.Fatalf("TemplateHash = %q, PodTemplateHash = %q", got, want)
		}
		kd.TemplateHash = ""
		kd.Annotations = nil // no rollback request
		kd.Spec.Paused = false
		kd.DeletionTimestamp = nil
		p, err := rollout.Step(kd, nil, nil, time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC), k8s.RolloutOptions())
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Create.Objects) != 1 {
			t.Fatalf("Step created %d ReplicaSets, want 1 (outcome %s)", len(p.Create.Objects), p.Outcome)
		}
		if got := p.Create.Objects[0].Name; got != rollout.ReplicaSetName(d.Name, want) {
			t.Fatalf("new ReplicaSet %q, want %q", got, rollout.ReplicaSetName(d.Name, want))
		}
	})
}
