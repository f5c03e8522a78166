package podstatus_test

import (
	"testing"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

func TestCondition(t *testing.T) {
	t.Parallel()
	p := &podstatus.Pod{Status: podstatus.Status{Conditions: []podstatus.Condition{
		{Type: podstatus.PodScheduled, Status: meta.ConditionTrue},
		{Type: podstatus.Ready, Status: meta.ConditionFalse, Reason: "first"},
		{Type: podstatus.Ready, Status: meta.ConditionTrue, Reason: "second"},
	}}}
	if c := p.Condition(podstatus.Ready); c == nil || c.Reason != "first" {
		t.Errorf("Condition(Ready) = %+v; want the first Ready condition", c)
	}
	if c := p.Condition(podstatus.Initialized); c != nil {
		t.Errorf("Condition(Initialized) = %+v; want nil", c)
	}
	var nilPod *podstatus.Pod
	if c := nilPod.Condition(podstatus.Ready); c != nil {
		t.Errorf("nil.Condition(Ready) = %+v; want nil", c)
	}
}
