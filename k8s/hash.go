package k8s

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/utils/dump"

	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/rollout"
)

// PodTemplateHash returns the pod-template-hash label value v1.36.3's
// Deployment controller gives template: FNV-32a over dump.ForHash of the
// template value, followed, when collisionCount is set, by its 8-byte
// little-endian encoding (the count in the low 4 bytes), printed in decimal
// and spelled in rand.SafeEncodeString's alphabet.
//
// Source: upstream pkg/controller/controller_utils.go ComputeHash,
// pkg/util/hash DeepHashObject (v1.36.3).
func PodTemplateHash(template *corev1.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	fmt.Fprintf(h, "%v", dump.ForHash(*template))
	if collisionCount != nil {
		var b [8]byte
		binary.LittleEndian.PutUint32(b[:4], uint32(*collisionCount))
		h.Write(b[:])
	}
	return rand.SafeEncodeString(fmt.Sprint(h.Sum32()))
}

// TemplateHash is [PodTemplateHash] on kubesem's pod template: the
// template is converted to the API type through its API JSON (the fields
// kubesem does not model ride along), so the hash is the one v1.36.3 gives
// the same template. It returns "" when the template does not convert,
// which rollout takes as "no injected hash". Its signature is
// rollout.Options.TemplateHash's; see [RolloutOptions].
func TemplateHash(t *podstatus.Template, collisionCount *int32) string {
	if t == nil {
		return ""
	}
	api, err := convert[corev1.PodTemplateSpec]("PodTemplateSpec", t)
	if err != nil {
		return ""
	}
	return PodTemplateHash(api, collisionCount)
}

// RolloutOptions returns rollout.Options with v1.36.3's exact
// pod-template-hash injected ([TemplateHash]), for rollout.Step on
// converted objects.
func RolloutOptions() rollout.Options {
	return rollout.Options{TemplateHash: TemplateHash}
}
