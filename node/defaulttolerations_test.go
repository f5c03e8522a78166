package node

import (
	"testing"
)

func TestDefaultTolerationsSeconds(t *testing.T) {
	t.Parallel()
	got := DefaultTolerations(nil, 30)
	if len(got) != 2 || *got[0].TolerationSeconds != 30 || *got[1].TolerationSeconds != 30 {
		t.Fatalf("%+v", got)
	}
	if got[0].TolerationSeconds == got[1].TolerationSeconds {
		t.Fatal("the two defaults share one seconds pointer")
	}
	in := []Toleration{{Key: TaintUnreachable, Operator: OpExists, Effect: string(NoExecute)}}
	got = DefaultTolerations(in, -1)
	if len(got) != 2 || got[1].Key != TaintNotReady || len(in) != 1 {
		t.Fatalf("only not-ready added, input untouched: %+v", got)
	}
	// an empty effect counts as NoExecute
	got = DefaultTolerations([]Toleration{{Key: TaintNotReady, Operator: OpExists}}, -1)
	if len(got) != 2 || got[1].Key != TaintUnreachable {
		t.Fatalf("empty effect: %+v", got)
	}
}

func TestDefaultTolerations(t *testing.T) {
	t.Parallel()
	got := DefaultTolerations(nil, -1)
	if len(got) != 2 || got[0].Key != TaintNotReady || got[1].Key != TaintUnreachable || *got[0].TolerationSeconds != 300 {
		t.Fatalf("%+v", got)
	}
	if got := DefaultTolerations([]Toleration{{Operator: OpExists}}, -1); len(got) != 1 {
		t.Fatalf("empty key: %+v", got)
	}
	if got := DefaultTolerations([]Toleration{{Key: TaintNotReady, Operator: OpExists, Effect: "NoSchedule"}}, -1); len(got) != 3 {
		t.Fatalf("NoSchedule does not count: %+v", got)
	}
	// The flags are taken as they are, negative ones included, each for its
	// own toleration.
	got = DefaultTolerationsFor([]Toleration{{Key: TaintUnreachable, Operator: OpExists}}, -1, 7)
	if len(got) != 2 || got[1].Key != TaintNotReady || *got[1].TolerationSeconds != -1 {
		t.Fatalf("DefaultTolerationsFor(-1, 7): %+v", got)
	}
	got = DefaultTolerationsFor(nil, 0, 7)
	if len(got) != 2 || *got[0].TolerationSeconds != 0 || *got[1].TolerationSeconds != 7 {
		t.Fatalf("DefaultTolerationsFor(0, 7): %+v", got)
	}
}
