package replicaset

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

var dbgHook func(keys []sortKey)

func TestDbg(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		defer func() {
			if t.Failed() {
			}
		}()
		checkRankMatchesReference(t)
	})
	_ = fmt.Sprint
}
