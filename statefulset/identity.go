package statefulset

import (
	"strconv"
	"strings"

	"github.com/kubesem/kubesem/field"
)

// Label keys a StatefulSet pod carries.
const (
	LabelPodName  = "statefulset.kubernetes.io/pod-name"
	LabelPodIndex = "apps.kubernetes.io/pod-index"
)

// Ordinals returns the first and one-past-last ordinal a set with replicas
// replicas and spec.ordinals.start start owns: [start, start+replicas)
// (getStartOrdinal/getEndOrdinal, stateful_set_utils.go, v1.36.3, which
// compute in int, 64 bits wide on the platforms Kubernetes ships for); end
// is an int64 because start+replicas may pass int32. The API accepts a
// last ordinal beyond int32, and so does Ordinals; see [Step] for what
// v1.36.3 does with such ordinals. Negative values are rejected with the
// API field path.
func Ordinals(replicas, start int32) (first int32, end int64, err error) {
	if replicas < 0 {
		return 0, 0, field.Int("spec.replicas", int64(replicas), field.ErrNegative)
	}
	if start < 0 {
		return 0, 0, field.Int("spec.ordinals.start", int64(start), field.ErrNegative)
	}
	return start, int64(start) + int64(replicas), nil
}

// PodName returns the name of the pod with ordinal ordinal in set set:
// "<set>-<ordinal>" (getPodName, stateful_set_utils.go, v1.36.3; seed 002).
func PodName(set string, ordinal int32) string {
	return set + "-" + strconv.FormatInt(int64(ordinal), 10)
}

// ParentAndOrdinal splits a pod name "<parent>-<digits>" at its last dash
// into the parent set name and the ordinal; ok is false when the ordinal
// is not a decimal int32. A name without that form has parent "" and
// ordinal -1; one whose digits pass int32 ("web-2147483648") keeps its
// parent with ordinal -1 (getParentNameAndOrdinal, stateful_set_utils.go,
// v1.36.3, whose regular expression takes the parent and parses the digits
// in 32 bits). As that expression's "." does not match a line break, the
// parent of a name holding one (never an API name) is the part of its
// last line before the dash.
func ParentAndOrdinal(pod string) (parent string, ordinal int32, ok bool) {
	i := strings.LastIndexByte(pod, '-')
	if i < 0 {
		return "", -1, false
	}
	suffix := pod[i+1:]
	if suffix == "" {
		return "", -1, false
	}
	for j := 0; j < len(suffix); j++ {
		if suffix[j] < '0' || suffix[j] > '9' {
			return "", -1, false
		}
	}
	parent = pod[strings.LastIndexByte(pod[:i], '\n')+1 : i]
	n, err := strconv.ParseInt(suffix, 10, 32)
	if err != nil {
		return parent, -1, false
	}
	return parent, int32(n), true
}

// ParseOrdinal returns the ordinal of pod, or -1 when the name carries none
// (getOrdinal, stateful_set_utils.go, v1.36.3).
func ParseOrdinal(pod string) int32 {
	_, o, _ := ParentAndOrdinal(pod)
	return o
}

// IsMemberOf reports whether pod belongs to set by name: its parent is set,
// whether or not its ordinal fits int32 (isMemberOf, stateful_set_utils.go,
// v1.36.3).
func IsMemberOf(set, pod string) bool {
	p, _, _ := ParentAndOrdinal(pod)
	return p == set
}

// IdentityMatches reports whether a pod with name pod, hostname hostname,
// subdomain subdomain and labels has the identity of ordinal ordinal in set
// set governed by service: the name and hostname are the pod name, the
// subdomain is the service, and the pod-name label is the pod name
// (identityMatches, stateful_set_utils.go, v1.36.3).
func IdentityMatches(set string, ordinal int32, service, pod, hostname, subdomain string, labels map[string]string) bool {
	_, o, ok := ParentAndOrdinal(pod)
	name := PodName(set, ordinal)
	return ok && o == ordinal && IsMemberOf(set, pod) && pod == name &&
		hostname == name && subdomain == service && labels[LabelPodName] == name
}

// DNSName returns the stable DNS name of a pod: "<pod>.<service>.<namespace>.svc.<domain>"
// (seed 002, stable network ID table).
func DNSName(pod, service, namespace, domain string) string {
	return pod + "." + service + "." + namespace + ".svc." + domain
}

// ServiceDNSName returns the DNS name of the governing headless service:
// "<service>.<namespace>.svc.<domain>" (seed 002).
func ServiceDNSName(service, namespace, domain string) string {
	return service + "." + namespace + ".svc." + domain
}

// ClaimName returns the name of the PersistentVolumeClaim from template claim
// for the pod with ordinal ordinal in set set: "<claim>-<set>-<ordinal>"
// (getPersistentVolumeClaimName, stateful_set_utils.go, v1.36.3; seed 002).
func ClaimName(claim, set string, ordinal int32) string {
	return claim + "-" + PodName(set, ordinal)
}

// IdentityLabels returns the labels the controller sets on the pod with
// ordinal ordinal in set set: pod-name always and pod-index
// (PodIndexLabel, on by default in v1.36.3) (updateIdentity, stateful_set_utils.go).
func IdentityLabels(set string, ordinal int32) map[string]string {
	return map[string]string{
		LabelPodName:  PodName(set, ordinal),
		LabelPodIndex: strconv.FormatInt(int64(ordinal), 10),
	}
}

// PodIdentity is the stable identity of one pod of a StatefulSet: what
// stays the same when the pod is deleted and created again.
type PodIdentity struct {
	// Pod is the pod's name, "<set>-<ordinal>" ([PodName]).
	Pod string `json:"pod"`
	// Hostname is the pod's spec.hostname: its name.
	Hostname string `json:"hostname"`
	// DNS is the pod's stable DNS name ([DNSName]).
	DNS string `json:"dns"`
	// Claims are the names of its PersistentVolumeClaims, one per claim
	// template in the templates' order ([ClaimName]).
	Claims []string `json:"claims"`
	// Labels are the identity labels the controller sets ([IdentityLabels]).
	Labels map[string]string `json:"labels"`
}

// Identity returns the stable identity of the pod with ordinal ordinal in
// set set, governed by the headless service service in namespace under
// the cluster domain domain, with the volume claim templates named
// claimTemplates: web-0, hostname web-0,
// web-0.nginx.default.svc.cluster.local, claim www-web-0.
//
// Source: upstream stateful_set_utils.go getPodName, updateIdentity and
// getPersistentVolumeClaimName (v1.36.3); seed 002 (stable network ID and
// stable storage tables).
func Identity(set string, ordinal int32, service, namespace, domain string, claimTemplates []string) PodIdentity {
	pod := PodName(set, ordinal)
	claims := make([]string, 0, len(claimTemplates))
	for _, c := range claimTemplates {
		claims = append(claims, ClaimName(c, set, ordinal))
	}
	return PodIdentity{
		Pod:      pod,
		Hostname: pod,
		DNS:      DNSName(pod, service, namespace, domain),
		Claims:   claims,
		Labels:   IdentityLabels(set, ordinal),
	}
}
