package podstatus_test

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	api "k8s.io/kubernetes/pkg/apis/core"
	registrypod "k8s.io/kubernetes/pkg/registry/core/pod"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/podstatus"
)

// TestPodStatusGracefulDeleteDifferential: GracefulDelete gives the outcome,
// grace period and deletion timestamp of the API server's BeforeDelete with
// the pod strategy's CheckGracefulDelete, for any request, spec grace,
// node, phase and earlier deletion. BeforeDelete reads the wall clock; now
// is taken just before the call and timestamps are compared within a
// second.
func TestPodStatusGracefulDeleteDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		grace := rapid.OneOf(rapid.Int64Range(-3, 40), rapid.SampledFrom([]int64{0, 1, 2, 30})).Draw(t, "grace")
		p := &podstatus.Pod{}
		p.Name, p.Namespace = "p", "default"
		if rapid.Bool().Draw(t, "hasSpecGrace") {
			g := rapid.Int64Range(-3, 40).Draw(t, "specGrace")
			p.Spec.TerminationGracePeriodSeconds = &g
		}
		if rapid.IntRange(0, 4).Draw(t, "unscheduled") > 0 {
			p.Spec.NodeName = "n"
		}
		p.Status.Phase = rapid.SampledFrom([]podstatus.Phase{"", podstatus.Pending, podstatus.Running, podstatus.Succeeded, podstatus.Failed}).Draw(t, "phase")
		now := time.Now().Truncate(time.Second)
		if rapid.Bool().Draw(t, "deleting") {
			ts := now.Add(time.Duration(rapid.IntRange(-60, 60).Draw(t, "deleteIn")) * time.Second)
			p.DeletionTimestamp = &ts
			if rapid.IntRange(0, 5).Draw(t, "hasDGPS") > 0 {
				d := rapid.Int64Range(-2, 60).Draw(t, "dgps")
				p.DeletionGracePeriodSeconds = &d
			}
		}
		var req *int64
		if rapid.Bool().Draw(t, "hasRequest") {
			req = &grace
		}
		u := &api.Pod{ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace}}
		u.Spec.NodeName, u.Spec.TerminationGracePeriodSeconds = p.Spec.NodeName, p.Spec.TerminationGracePeriodSeconds
		u.Status.Phase = api.PodPhase(p.Status.Phase)
		if p.DeletionTimestamp != nil {
			ts := metav1.NewTime(*p.DeletionTimestamp)
			u.DeletionTimestamp = &ts
			if p.DeletionGracePeriodSeconds != nil {
				d := *p.DeletionGracePeriodSeconds
				u.DeletionGracePeriodSeconds = &d
			}
		}
		opts := &metav1.DeleteOptions{}
		if req != nil {
			r := *req
			opts.GracePeriodSeconds = &r
		}
		ctx := genericapirequest.WithNamespace(context.Background(), "default")
		callAt := time.Now()
		graceful, pending, err := rest.BeforeDelete(registrypod.Strategy, ctx, u, opts)
		if err != nil {
			t.Fatalf("BeforeDelete: %v", err)
		}
		got := podstatus.GracefulDelete(p, req, callAt)
		var outcome podstatus.DeleteOutcome
		switch {
		case pending:
			outcome = podstatus.DeletePending
		case !graceful:
			outcome = podstatus.DeleteImmediately
		case u.DeletionGracePeriodSeconds != nil && *u.DeletionGracePeriodSeconds == 0:
			outcome = podstatus.DeleteImmediately
		case p.DeletionTimestamp != nil:
			outcome = podstatus.DeleteShortened
		default:
			outcome = podstatus.DeleteGraceful
		}
		if got.Outcome == podstatus.DeleteShortened && outcome == podstatus.DeleteImmediately {
			// A second DELETE with grace 0: BeforeDelete shortens to grace
			// 0, which the store then removes at once.
			outcome = podstatus.DeleteShortened
		}
		if got.Outcome != outcome {
			t.Fatalf("outcome %s, BeforeDelete graceful=%v pending=%v dgps=%v", got.Outcome, graceful, pending, u.DeletionGracePeriodSeconds)
		}
		switch {
		case pending:
			// The pod keeps its deletion; its effective grace is the
			// (normalised) deletionGracePeriodSeconds.
			if *u.DeletionGracePeriodSeconds != got.GracePeriodSeconds || !got.DeletionTimestamp.Equal(u.DeletionTimestamp.Time) {
				t.Fatalf("pending grace %d at %v, BeforeDelete %d at %v", got.GracePeriodSeconds, got.DeletionTimestamp, *u.DeletionGracePeriodSeconds, u.DeletionTimestamp)
			}
		case graceful:
			if *u.DeletionGracePeriodSeconds != got.GracePeriodSeconds {
				t.Fatalf("grace %d, BeforeDelete %d", got.GracePeriodSeconds, *u.DeletionGracePeriodSeconds)
			}
			if d := got.DeletionTimestamp.Sub(u.DeletionTimestamp.Time); d > time.Second || d < -time.Second {
				t.Fatalf("deletion timestamp %v, BeforeDelete %v", got.DeletionTimestamp, u.DeletionTimestamp)
			}
		}
	})
}
