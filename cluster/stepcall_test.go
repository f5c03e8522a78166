package cluster_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/conformance"
)

// TestOnStepCallsAreVectors: every StepCall the world reports, over
// scenarios that run every controller with a Step (a rolling update with a
// node outage, a drain under a budget, a CronJob's Jobs, a DaemonSet
// update, a StatefulSet rollout), is a conformance vector's input: it
// decodes as the decision's input (an unknown or repeated key is an error)
// and the decision, run on it through the conformance registry, answers
// what the world got. A call whose keys drifted from the binding's input
// fails here.
func TestOnStepCallsAreVectors(t *testing.T) {
	drain := rollingScenario()
	drain.Objects = append(drain.Objects, budget("web", "web", 5))
	drain.Events = []cluster.Event{{At: time.Minute, Kind: cluster.EventDrain, Target: cluster.Key{Kind: cluster.KindNode, Name: "node-a"}}}
	run := 30 * time.Second
	cron := cluster.Scenario{Start: t0, Objects: []any{readyNode("node-a"), cronJob("report", "*/5 * * * *")},
		Pods: []cluster.PodBehavior{{RunFor: &run}}}
	ds := cluster.Scenario{Start: t0, Objects: []any{readyNode("node-a"), readyNode("node-b"), daemonSet("agent")},
		Events: []cluster.Event{{At: 2 * time.Minute, Kind: cluster.EventImage, Target: cluster.Key{Kind: cluster.KindDaemonSet, Namespace: "kube-system", Name: "agent"}, Image: "agent:2"}}}
	ready := 5 * time.Second
	set := statefulSet("db", 3)
	sts := cluster.Scenario{Start: t0, Objects: []any{readyNode("node-a"), set}, Pods: []cluster.PodBehavior{{ReadyDelay: &ready}}}
	scenarios := map[string]cluster.Scenario{"rolling": rollingScenario(), "drain": drain, "cron": cron, "daemonset": ds, "statefulset": sts}

	impl := conformance.Kubesem()
	seen := map[string]int{}
	for name, sc := range scenarios {
		var calls []cluster.StepCall
		type encoded struct{ decision, options, input, plan []byte }
		var enc []encoded
		w, err := cluster.New(sc, cluster.Options{OnStep: func(c cluster.StepCall) {
			calls = append(calls, c)
			// Encoded now: the vector's input is the state at the call.
			in, err := json.Marshal(c.Input)
			if err != nil {
				t.Fatalf("%s: %s input: %v", name, c.Decision, err)
			}
			opts, _ := json.Marshal(c.Options)
			p, _ := json.Marshal(c.Plan)
			enc = append(enc, encoded{[]byte(c.Decision), opts, in, p})
		}})
		if err != nil {
			t.Fatal(err)
		}
		w.Run(t0.Add(20 * time.Minute))
		for i, e := range enc {
			c := calls[i]
			seen[c.Decision]++
			if c.Controller == "" || c.Time.IsZero() || c.Plan == nil {
				t.Errorf("%s: call %d (%s) lacks its controller, time or plan", name, i, c.Decision)
			}
			if c.Options != nil && !reflect.DeepEqual(c.Options, reflect.Zero(reflect.TypeOf(c.Options)).Interface()) {
				t.Errorf("%s: call %d (%s): options %s, want the defaults the scenario ran with", name, i, c.Decision, e.options)
			}
			got, err := impl.Decide(string(e.decision), nil, e.input)
			if err != nil {
				t.Errorf("%s: %s at %v (%s %v): as a vector: %v\ninput: %s", name, c.Decision, c.Time.Sub(t0), c.Controller, c.Object, err, e.input)
				continue
			}
			if ok, why := conformance.Match(e.plan, got); !ok {
				t.Errorf("%s: %s at %v (%s %v): the vector's answer is not what the world got: %s\ninput: %s\nworld: %s\nvector: %s",
					name, c.Decision, c.Time.Sub(t0), c.Controller, c.Object, why, e.input, e.plan, got)
			}
		}
	}
	for _, d := range []string{"rollout.Step", "replicaset.Step", "statefulset.Step", "daemonset.Step", "job.Step",
		"cronjob.Step", "pdb.Step", "pdb.Evict", "podgc.Step", "node.Step", "node.EvictionStep"} {
		if seen[d] == 0 {
			t.Errorf("no %s call reported", d)
		}
	}
	t.Logf("calls: %v", seen)
}
