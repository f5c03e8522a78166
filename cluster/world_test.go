package cluster_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
)

func TestRollingUpdateWithNodeOutage(t *testing.T) {
	w, err := cluster.New(rollingScenario(), cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at, ok := w.RunUntilSettled(2 * time.Hour)
	t.Logf("settled=%v at %v, %d trace entries", ok, at.Sub(t0), len(w.Trace))
	t.Log("\n" + summary(w.Trace))
	if !ok {
		t.Fatal("did not settle")
	}
}
