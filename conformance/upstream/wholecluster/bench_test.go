package wholecluster_test

import (
	"fmt"
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubesem/kubesem/plan"
)

// benchCluster builds a settled cluster of nodes nodes running the small
// workloads plus extra Deployments of replicas pods each, all bound and
// Ready, and returns it with the instant it settled at.
func benchCluster(b *testing.B, nodes, extra int, replicas int32) (*world, time.Time) {
	b.Helper()
	w, e := newSmall(b, nodes, 3)
	for i := 1; i <= extra; i++ {
		name := fmt.Sprintf("svc%03d", i)
		e.apply("user", plan.VerbCreate, &apps.Deployment{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
			Spec: apps.DeploymentSpec{Replicas: ptr(replicas), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}},
				Template: template(name)}}, "", nil)
	}
	now := t0
	for _, dt := range []time.Duration{0, 5 * time.Second, 10 * time.Second, 15 * time.Second} {
		now = t0.Add(dt)
		e.step(now)
	}
	return w, now
}

// BenchmarkWholeClusterSyncAll times one syncAll of every v1.36.3
// controller over a settled cluster (nothing to do but look: the cost of
// the sync handlers, listers and the harness's settling), on the small
// cluster of TestWholeClusterSmall and on 100 nodes with 1,000 pods
// (9 Deployments of 100, the DaemonSet's 100, the small workloads').
func BenchmarkWholeClusterSyncAll(b *testing.B) {
	for _, c := range []struct {
		name            string
		nodes, extra    int
		replicas        int32
		wantPodsAtLeast int
	}{
		{"nodes=3", 3, 0, 0, 9},
		{"nodes=100,pods=1000", 100, 9, 100, 1000},
	} {
		b.Run(c.name, func(b *testing.B) {
			start := time.Now()
			w, now := benchCluster(b, c.nodes, c.extra, c.replicas)
			pods := len(w.list(gvrPods))
			if pods < c.wantPodsAtLeast {
				b.Fatalf("%d pods", pods)
			}
			b.Logf("setup: %d nodes, %d pods, %d trace records in %v", c.nodes, pods, len(w.traceCopy()), time.Since(start))
			b.ReportAllocs()
			b.ResetTimer()
			writes := 0
			for i := 0; i < b.N; i++ {
				recs, err := w.syncAll(now)
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range recs {
					if r.Write != nil {
						writes++
					}
				}
			}
			b.ReportMetric(float64(writes)/float64(b.N), "writes/op")
		})
	}
}

// BenchmarkWholeClusterStartup times a busy instant: on a fresh world
// holding the objects of the 100-node cluster (nodes, Leases, 10
// Deployments, the StatefulSet, DaemonSet, Job, CronJob and PDB), the
// syncQuiet at t0 that creates every ReplicaSet and all 1,000 pods
// (building the world and creating the objects is not timed).
func BenchmarkWholeClusterStartup(b *testing.B) {
	b.ReportAllocs()
	writes := 0
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		w, e := newSmall(b, 100, 3)
		for j := 1; j <= 9; j++ {
			name := fmt.Sprintf("svc%03d", j)
			e.apply("user", plan.VerbCreate, &apps.Deployment{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
				Spec: apps.DeploymentSpec{Replicas: ptr(int32(100)), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}},
					Template: template(name)}}, "", nil)
		}
		b.StartTimer()
		recs, _, err := w.syncQuiet(t0, 8)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		for _, r := range recs {
			if r.Write != nil {
				writes++
			}
		}
		if n := len(w.list(gvrPods)); n < 1000 {
			b.Fatalf("%d pods", n)
		}
		w.close()
		b.StartTimer()
	}
	b.ReportMetric(float64(writes)/float64(b.N), "writes/op")
}
