package statefulset

import (
	"strconv"
	"strings"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/podstatus"
)

// Label keys a StatefulSet pod carries.
const (
	LabelPodName  = "statefulset.kubernetes.io/pod-name"
	LabelPodIndex = "apps.kubernetes.io/pod-index"
)

// Ordinals returns the first and one-past-last ordinal a set with replicas
// replicas and spec.ordinals.start start owns: [start, start+replicas).
// end is an int64 because start+replicas may pass int32 (upstream computes
// in int, 64 bits wide on the platforms Kubernetes ships for). The API
// accepts a last ordinal beyond int32, and so does Ordinals; see [Step]
// for what v1.36.3 does with such ordinals.
//
// Negative values are a *field.Error wrapping field.ErrNegative at
// spec.replicas or spec.ordinals.start.
//
// Source: upstream pkg/controller/statefulset stateful_set_utils.go
// getStartOrdinal, getEndOrdinal (v1.36.3); seed 002:L122-124.
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
// "<set>-<ordinal>".
//
// Source: upstream pkg/controller/statefulset stateful_set_utils.go
// getPodName (v1.36.3); seed 002:L128.
func PodName(set string, ordinal int32) string {
	return set + "-" + strconv.FormatInt(int64(ordinal), 10)
}

// ParentAndOrdinal splits a pod name "<parent>-<digits>" at its last dash
// into the parent set name and the ordinal; ok is false when the ordinal
// is not a decimal int32. A name without that form has parent "" and
// ordinal -1; one whose digits pass int32 ("web-2147483648") keeps its
// parent with ordinal -1, as upstream's regular expression takes the
// parent and parses the digits in 32 bits. As that expression's "." does
// not match a line break, the parent of a name holding one (never an API
// name) is the part of its last line before the dash.
//
// Source: upstream pkg/controller/statefulset stateful_set_utils.go
// getParentNameAndOrdinal, statefulPodRegex (v1.36.3).
func ParentAndOrdinal(pod string) (parent string, ordinal int32, ok bool) {
	i, ordinal, ok := splitOrdinal(pod)
	if i < 0 {
		return "", -1, false
	}
	return pod[strings.LastIndexByte(pod[:i], '\n')+1 : i], ordinal, ok
}

// splitOrdinal returns the index of the dash before pod's ordinal and the
// ordinal, as ParentAndOrdinal reads them; i is -1 when the name does not
// end in a dash and digits.
func splitOrdinal(pod string) (i int, ordinal int32, ok bool) {
	i = strings.LastIndexByte(pod, '-')
	if i < 0 || i == len(pod)-1 {
		return -1, -1, false
	}
	suffix := pod[i+1:]
	for j := 0; j < len(suffix); j++ {
		if suffix[j] < '0' || suffix[j] > '9' {
			return -1, -1, false
		}
	}
	n, err := strconv.ParseInt(suffix, 10, 32)
	if err != nil {
		return i, -1, false
	}
	return i, int32(n), true
}

// ParseOrdinal returns the ordinal of pod, or -1 when the name carries none
// ([ParentAndOrdinal]).
//
// Source: upstream pkg/controller/statefulset stateful_set_utils.go
// getOrdinal (v1.36.3).
func ParseOrdinal(pod string) int32 {
	_, o, _ := splitOrdinal(pod)
	return o
}

// IsMemberOf reports whether pod belongs to set by name: its parent is set,
// whether or not its ordinal fits int32.
//
// Source: upstream pkg/controller/statefulset stateful_set_utils.go
// isMemberOf, getParentName (v1.36.3).
func IsMemberOf(set, pod string) bool {
	p, _, _ := ParentAndOrdinal(pod)
	return p == set
}

// IdentityMatches reports whether a pod with name pod, hostname hostname,
// subdomain subdomain and labels has the identity of ordinal ordinal in set
// set governed by service: the name and hostname are the pod name, the
// subdomain is the service, and the pod-name label is the pod name.
//
// Source: seed 002:L128 and L152 (hostname, governing service subdomain,
// pod-name label); upstream pkg/controller/statefulset
// stateful_set_utils.go identityMatches (v1.36.3), which checks the name
// and label as here, also the namespace (which Step checks), and not the
// hostname and subdomain, which initIdentity sets once at creation.
func IdentityMatches(set string, ordinal int32, service, pod, hostname, subdomain string, labels map[string]string) bool {
	_, o, ok := ParentAndOrdinal(pod)
	name := PodName(set, ordinal)
	return ok && o == ordinal && IsMemberOf(set, pod) && pod == name &&
		hostname == name && subdomain == service && labels[LabelPodName] == name
}

// DNSName returns the stable DNS name of a pod:
// "<pod>.<service>.<namespace>.svc.<domain>".
//
// Source: seed 002:L128 and the stable network ID table at L139-144.
func DNSName(pod, service, namespace, domain string) string {
	return pod + "." + service + "." + namespace + ".svc." + domain
}

// ServiceDNSName returns the DNS name of the governing headless service:
// "<service>.<namespace>.svc.<domain>".
//
// Source: seed 002:L128 and the stable network ID table at L139-144.
func ServiceDNSName(service, namespace, domain string) string {
	return service + "." + namespace + ".svc." + domain
}

// ClaimName returns the name of the PersistentVolumeClaim from template claim
// for the pod with ordinal ordinal in set set: "<claim>-<set>-<ordinal>".
//
// Source: upstream pkg/controller/statefulset stateful_set_utils.go
// getPersistentVolumeClaimName (v1.36.3); seed 002:L148.
func ClaimName(claim, set string, ordinal int32) string {
	return claim + "-" + PodName(set, ordinal)
}

// IdentityLabels returns the labels the controller sets on the pod with
// ordinal ordinal in set set: [LabelPodName], the pod's name, and
// [LabelPodIndex], the ordinal in decimal (the PodIndexLabel gate, GA and
// removed, so always on in v1.36.3).
//
// Source: upstream pkg/controller/statefulset stateful_set_utils.go
// updateIdentity (v1.36.3); seed 002:L152.
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

// nameMatches is identityMatches for a pod the controller builds (its
// namespace and pod-name label are right): its name is "<set>-<ordinal>"
// for the ordinal it parses to.
func (s *stepper) nameMatches(name string) bool {
	o := ParseOrdinal(name)
	return o >= 0 && isPodName(name, s.set.Name, o)
}

// identityMatches mirrors identityMatches (stateful_set_utils.go).
func (s *stepper) identityMatches(p *podstatus.Pod) bool {
	return s.nameMatches(p.Name) && p.Namespace == s.set.Namespace && p.Labels[LabelPodName] == p.Name
}

// storageMatches mirrors storageMatches (stateful_set_utils.go).
func (s *stepper) storageMatches(p *podstatus.Pod, o int32) bool {
	for _, tc := range s.set.Spec.VolumeClaimTemplates {
		t := tc.Name
		found := false
		for i := range p.Spec.Volumes {
			if v := &p.Spec.Volumes[i]; v.Name == t {
				found = isClaimName(v.ClaimName(), t, s.set.Name, o)
				// upstream keeps the last volume of a name
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// isPodName reports name == PodName(set, o) without building it.
func isPodName(name, set string, o int32) bool {
	return len(name) > len(set) && name[:len(set)] == set && name[len(set)] == '-' && isDecimal(name[len(set)+1:], o)
}

// isClaimName reports name == ClaimName(claim, set, o) without building it.
func isClaimName(name, claim, set string, o int32) bool {
	n := len(claim) + 1 + len(set)
	return len(name) > n+1 && name[:len(claim)] == claim && name[len(claim)] == '-' &&
		name[len(claim)+1:n] == set && name[n] == '-' && isDecimal(name[n+1:], o)
}

// isDecimal reports s == strconv.Itoa(o) for o >= 0.
func isDecimal(s string, o int32) bool {
	if o < 0 || s == "" || (len(s) > 1 && s[0] == '0') {
		return false
	}
	v := int64(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' || i > 10 {
			return false
		}
		v = v*10 + int64(c-'0')
	}
	return v == int64(o)
}
