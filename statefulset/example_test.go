package statefulset_test

import (
	"fmt"
	"time"

	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"

	"github.com/kubesem/kubesem/statefulset"
)

func ExampleDNSName() {
	for o := int32(0); o < 3; o++ {
		pod := statefulset.PodName("web", o)
		fmt.Println(pod, statefulset.DNSName(pod, "nginx", "default", "cluster.local"), statefulset.ClaimName("www", "web", o))
	}
	// Output:
	// web-0 web-0.nginx.default.svc.cluster.local www-web-0
	// web-1 web-1.nginx.default.svc.cluster.local www-web-1
	// web-2 web-2.nginx.default.svc.cluster.local www-web-2
}

// The seed's creation order: with web-0 Running and Ready, an OrderedReady
// set of three creates web-1 and stops.
func ExampleStep() {
	three := int32(3)
	set := &statefulset.StatefulSet{
		ObjectMeta: meta.ObjectMeta{Name: "web", Namespace: "default", Generation: 1},
		Spec:       statefulset.Spec{Replicas: &three, ServiceName: "nginx", TemplateRevision: "web-v1"},
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	web0 := &podstatus.Pod{
		ObjectMeta: meta.ObjectMeta{Name: "web-0", Namespace: "default",
			Labels: map[string]string{statefulset.LabelPodName: "web-0", history.HashLabel: "web-v1"}},
		Status: podstatus.Status{Phase: podstatus.Running,
			Conditions: []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: now.Add(-time.Minute)}}},
	}
	p, err := statefulset.Step(set, []*podstatus.Pod{web0}, []history.ControllerRevision{{ObjectMeta: meta.ObjectMeta{Name: "web-v1"}, Revision: 1}}, nil, now, statefulset.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Outcome, p.Create.Objects[0].Name, p.Status.Replicas, p.Status.ReadyReplicas)
	// Output:
	// Scaling web-1 1 1
}
