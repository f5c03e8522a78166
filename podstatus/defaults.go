package podstatus

import (
	"encoding/json"
	"regexp"
	"strings"
)

// API defaulting, for comparison.
//
// Before the Deployment controller compares two templates, the API server
// has defaulted both (apps/v1 SetObjectDefaults_Deployment: core/v1
// SetDefaults_PodSpec, SetDefaults_Container, SetDefaults_Probe, the
// declarative defaults of zz_generated.defaults.go, v1.36.3). A template a
// user trimmed by hand lacks those values; so that it compares as upstream
// compares the stored object, kubesem fills the same defaults into a copy
// of the template JSON before it is normalised (normal.go). The defaults
// filled, all from v1.36.3 with default feature gates:
//
//   - pod spec: dnsPolicy ClusterFirst, schedulerName default-scheduler,
//     securityContext {} (and, modelled, restartPolicy Always and
//     terminationGracePeriodSeconds 30: see Template.Comparable);
//   - every container (containers, initContainers, ephemeralContainers):
//     imagePullPolicy Always for an image tagged latest or untagged and
//     undigested, IfNotPresent otherwise (an image that is not a valid
//     reference: IfNotPresent); terminationMessagePath
//     /dev/termination-log; terminationMessagePolicy File; ports' protocol
//     TCP; env valueFrom.fieldRef.apiVersion v1 and fileKeyRef.optional
//     false; probes' timeoutSeconds 1, periodSeconds 10, successThreshold
//     1, failureThreshold 3, httpGet path / and scheme HTTP, grpc service
//     ""; lifecycle handlers' httpGet path and scheme; resource limits and
//     requests rounded up to a multiple of 1m;
//   - pod resources and overhead rounded up to a multiple of 1m;
//   - volumes: no source is emptyDir {}; secret, configMap, downwardAPI and
//     projected defaultMode 420; downwardAPI items' fieldRef apiVersion v1;
//     serviceAccountToken expirationSeconds 3600; hostPath type "";
//     image pullPolicy as a container's; iscsi iscsiInterface default;
//     rbd pool rbd, user admin, keyring /etc/ceph/keyring; azureDisk
//     cachingMode ReadWrite, fsType ext4, readOnly false, kind Shared;
//     scaleIO storageMode ThinProvisioned, fsType xfs; an ephemeral
//     volume's claim template volumeMode Filesystem, its resources
//     rounded to 1m.
//
// Not filled (a residual difference): defaults set by admission plugins
// (DefaultTolerationSeconds, priority, service account, LimitRanger), which
// act on pods, not on a Deployment's template.

// withDefaults fills the API defaults above into tpl, the JSON of a pod
// template (as decoded with json.Number), in place.
func withDefaults(tpl any) {
	t, ok := tpl.(map[string]any)
	if !ok {
		return
	}
	spec, ok := t["spec"].(map[string]any)
	if !ok {
		if t["spec"] != nil {
			return
		}
		spec = map[string]any{}
		t["spec"] = spec
	}
	defaultString(spec, "dnsPolicy", "ClusterFirst")
	defaultString(spec, "restartPolicy", "Always")
	defaultString(spec, "schedulerName", "default-scheduler")
	defaultValue(spec, "securityContext", map[string]any{})
	defaultValue(spec, "terminationGracePeriodSeconds", json.Number("30"))
	for _, key := range []string{"initContainers", "containers", "ephemeralContainers"} {
		for _, c := range objects(spec[key]) {
			defaultContainer(c)
		}
	}
	roundMilli(spec["overhead"])
	if r, ok := spec["resources"].(map[string]any); ok {
		roundMilli(r["limits"])
		roundMilli(r["requests"])
	}
	for _, v := range objects(spec["volumes"]) {
		defaultVolume(v)
	}
}

func defaultContainer(c map[string]any) {
	if isEmpty(c["imagePullPolicy"]) {
		image, _ := c["image"].(string)
		c["imagePullPolicy"] = pullPolicy(image)
	}
	defaultString(c, "terminationMessagePath", "/dev/termination-log")
	defaultString(c, "terminationMessagePolicy", "File")
	for _, p := range objects(c["ports"]) {
		defaultString(p, "protocol", "TCP")
	}
	for _, e := range objects(c["env"]) {
		if from, ok := e["valueFrom"].(map[string]any); ok {
			if ref, ok := from["fieldRef"].(map[string]any); ok {
				defaultString(ref, "apiVersion", "v1")
			}
			if ref, ok := from["fileKeyRef"].(map[string]any); ok {
				defaultValue(ref, "optional", false)
			}
		}
	}
	for _, key := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
		p, ok := c[key].(map[string]any)
		if !ok {
			continue
		}
		defaultNumber(p, "timeoutSeconds", "1")
		defaultNumber(p, "periodSeconds", "10")
		defaultNumber(p, "successThreshold", "1")
		defaultNumber(p, "failureThreshold", "3")
		defaultHTTPGet(p["httpGet"])
		if g, ok := p["grpc"].(map[string]any); ok {
			defaultValue(g, "service", "")
		}
	}
	if l, ok := c["lifecycle"].(map[string]any); ok {
		for _, key := range []string{"postStart", "preStop"} {
			if h, ok := l[key].(map[string]any); ok {
				defaultHTTPGet(h["httpGet"])
			}
		}
	}
	if r, ok := c["resources"].(map[string]any); ok {
		roundMilli(r["limits"])
		roundMilli(r["requests"])
	}
}

func defaultHTTPGet(v any) {
	if h, ok := v.(map[string]any); ok {
		defaultString(h, "path", "/")
		defaultString(h, "scheme", "HTTP")
	}
}

func defaultVolume(v map[string]any) {
	source := false
	for k, x := range v {
		if k != "name" && x != nil {
			source = true
		}
	}
	if !source {
		v["emptyDir"] = map[string]any{}
		return
	}
	for _, key := range []string{"secret", "configMap", "downwardAPI", "projected"} {
		if s, ok := v[key].(map[string]any); ok {
			defaultValue(s, "defaultMode", json.Number("420"))
		}
	}
	if s, ok := v["downwardAPI"].(map[string]any); ok {
		defaultFieldRefs(s["items"])
	}
	if s, ok := v["projected"].(map[string]any); ok {
		for _, src := range objects(s["sources"]) {
			if d, ok := src["downwardAPI"].(map[string]any); ok {
				defaultFieldRefs(d["items"])
			}
			if tok, ok := src["serviceAccountToken"].(map[string]any); ok {
				defaultValue(tok, "expirationSeconds", json.Number("3600"))
			}
		}
	}
	if s, ok := v["hostPath"].(map[string]any); ok {
		defaultValue(s, "type", "")
	}
	if s, ok := v["image"].(map[string]any); ok && isEmpty(s["pullPolicy"]) {
		ref, _ := s["reference"].(string)
		s["pullPolicy"] = pullPolicy(ref)
	}
	if s, ok := v["iscsi"].(map[string]any); ok {
		defaultString(s, "iscsiInterface", "default")
	}
	if s, ok := v["rbd"].(map[string]any); ok {
		defaultString(s, "pool", "rbd")
		defaultString(s, "user", "admin")
		defaultString(s, "keyring", "/etc/ceph/keyring")
	}
	if s, ok := v["azureDisk"].(map[string]any); ok {
		defaultValue(s, "cachingMode", "ReadWrite")
		defaultValue(s, "fsType", "ext4")
		defaultValue(s, "readOnly", false)
		defaultValue(s, "kind", "Shared")
	}
	if s, ok := v["scaleIO"].(map[string]any); ok {
		defaultString(s, "storageMode", "ThinProvisioned")
		defaultString(s, "fsType", "xfs")
	}
	if e, ok := v["ephemeral"].(map[string]any); ok {
		if t, ok := e["volumeClaimTemplate"].(map[string]any); ok {
			spec, ok := t["spec"].(map[string]any)
			if !ok && t["spec"] == nil {
				spec = map[string]any{}
				t["spec"] = spec
			}
			if spec != nil {
				defaultValue(spec, "volumeMode", "Filesystem")
				if r, ok := spec["resources"].(map[string]any); ok {
					roundMilli(r["limits"])
					roundMilli(r["requests"])
				}
			}
		}
	}
}

func defaultFieldRefs(items any) {
	for _, it := range objects(items) {
		if ref, ok := it["fieldRef"].(map[string]any); ok {
			defaultString(ref, "apiVersion", "v1")
		}
	}
}

// objects returns the objects of a JSON list (other elements skipped).
func objects(v any) []map[string]any {
	list, _ := v.([]any)
	var out []map[string]any
	for _, x := range list {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// isEmpty reports a string field the Go type reads as "": absent, null or "".
func isEmpty(v any) bool { return v == nil || v == "" }

// defaultString sets a non-pointer string field that reads as "".
func defaultString(m map[string]any, key, value string) {
	if isEmpty(m[key]) {
		m[key] = value
	}
}

// defaultNumber sets a non-pointer number field that reads as 0.
func defaultNumber(m map[string]any, key, value string) {
	switch x := m[key].(type) {
	case nil:
		m[key] = json.Number(value)
	case json.Number:
		if isZeroNumber(x) {
			m[key] = json.Number(value)
		}
	}
}

// defaultValue sets a pointer field that is nil (absent or null).
func defaultValue(m map[string]any, key string, value any) {
	if m[key] == nil {
		m[key] = value
	}
}

// roundMilli rounds every quantity of a resource list up to a multiple of
// 1m (SetDefaults_ResourceList), as quantityValue; other values are left
// for normalise to keep as given.
func roundMilli(v any) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	for k, x := range m {
		var s string
		switch q := x.(type) {
		case string:
			s = q
		case json.Number:
			s = string(q)
		default:
			continue
		}
		r, ok := parseQuantity(strings.TrimSpace(s))
		if !ok {
			continue
		}
		neg := r.Sign() < 0
		if neg {
			r.Neg(r)
		}
		r = roundUp(r, milli)
		if neg {
			r.Neg(r)
		}
		m[k] = quantityValue(r.RatString())
	}
}

// pullPolicy is SetDefaults_Container's image pull policy: Always for an
// image whose tag is latest, or that has neither tag nor digest; otherwise
// (and for an image that is not a valid reference) IfNotPresent.
func pullPolicy(image string) string {
	m := imageReference.FindStringSubmatch(image)
	if m == nil || len(m[1]) > 255 {
		return "IfNotPresent"
	}
	tag, digest := m[2], m[3]
	if tag == "latest" || tag == "" && digest == "" {
		return "Always"
	}
	return "IfNotPresent"
}

// imageReference is the container image reference grammar (the
// distribution reference spec: an optional registry host with port, a
// lower-case path of components, an optional tag, an optional digest):
// groups 1 name, 2 tag, 3 digest.
var imageReference = regexp.MustCompile(`^(` +
	// optional domain: a host name (or [IPv6]) with an optional port, then /
	`(?:(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*|\[[a-fA-F0-9:]+\])(?::[0-9]+)?/)?` +
	// path components: lower-case alphanumerics joined by . _ __ or dashes
	`[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*` +
	`)` +
	`(?::([\w][\w.-]{0,127}))?` +
	`(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$`)
