package cluster

import (
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"strconv"

	"github.com/kubesem/kubesem/podstatus"
)

// Namer supplies what the API server and the controllers compute from
// randomness or from Go's encoding of objects, which the library replaces by
// deterministic rules: names from generateName, UIDs, and template hashes.
// The k8s adapter module supplies v1.36.3's exact hashes; [DefaultNamer] is
// kubesem's own.
type Namer interface {
	// Name completes generateName into a name, given n, the State's
	// counter (a fresh value on every call).
	Name(generateName string, n uint64) string
	// UID returns the UID of the n-th object the API server creates.
	UID(n uint64) string
	// PodTemplateHash is a Deployment's pod-template-hash for its
	// template and status.collisionCount (rollout.Options.TemplateHash);
	// "" leaves the rollout package's own hash.
	PodTemplateHash(t *podstatus.Template, collisionCount *int32) string
	// RevisionHash is the controller-revision-hash of a StatefulSet's
	// template with its status.collisionCount (and of a DaemonSet's when
	// PodTemplateHash returns "": v1.36.3 names a DaemonSet's revisions by
	// the pod-template-hash).
	RevisionHash(t *podstatus.Template, collisionCount *int32) string
}

// Alphabet is the API server's alphabet for generated name suffixes (and
// for the hash in pod-template-hash): no vowels, no 0, 1 and 3, so no
// words and no look-alikes.
const Alphabet = "bcdfghjklmnpqrstvwxz2456789"

// DefaultNamer is the deterministic namer of the core. Name appends five
// characters of [Alphabet] spelling n (in base 27, least significant first,
// as a counter) where the API server appends five random ones;
// UID is "uid-<n>"; PodTemplateHash returns "" (the rollout package's own
// hash); RevisionHash is FNV-32a over the template's JSON encoding and the
// collision count, spelled in [Alphabet]. None of these is the value
// Kubernetes would compute.
type DefaultNamer struct{}

// Name implements [Namer].
func (DefaultNamer) Name(generateName string, n uint64) string {
	var b [5]byte
	for i := range b {
		b[i] = Alphabet[n%uint64(len(Alphabet))]
		n /= uint64(len(Alphabet))
	}
	return generateName + string(b[:])
}

// UID implements [Namer].
func (DefaultNamer) UID(n uint64) string { return "uid-" + strconv.FormatUint(n, 10) }

// PodTemplateHash implements [Namer].
func (DefaultNamer) PodTemplateHash(*podstatus.Template, *int32) string { return "" }

// RevisionHash implements [Namer].
func (DefaultNamer) RevisionHash(t *podstatus.Template, collisionCount *int32) string {
	h := fnv.New32a()
	b, _ := json.Marshal(t)
	h.Write(b)
	if collisionCount != nil {
		var c [4]byte
		binary.LittleEndian.PutUint32(c[:], uint32(*collisionCount))
		h.Write(c[:])
	}
	return spell(uint64(h.Sum32()))
}

// spell writes v in Alphabet, most significant first.
func spell(v uint64) string {
	if v == 0 {
		return Alphabet[:1]
	}
	var b []byte
	for v > 0 {
		b = append(b, Alphabet[v%uint64(len(Alphabet))])
		v /= uint64(len(Alphabet))
	}
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}
