package node

// DefaultTolerationSeconds is the tolerationSeconds of the not-ready and
// unreachable NoExecute tolerations the DefaultTolerationSeconds admission
// plugin adds (kube-apiserver --default-not-ready-toleration-seconds and
// --default-unreachable-toleration-seconds).
//
// Source: upstream plugin/pkg/admission/defaulttolerationseconds
// (v1.36.3): 300.
const DefaultTolerationSeconds int64 = 300

// DefaultTolerations returns tolerations with the admission plugin's
// defaults appended, both of its flags at seconds ([DefaultTolerationsFor]);
// seconds < 0 means [DefaultTolerationSeconds]. The plugin runs when a pod
// is created (and on updates), so pods created before it was enabled keep
// their tolerations (kubernetes/kubernetes#124243). The input is not
// modified.
//
// Source: upstream plugin/pkg/admission/defaulttolerationseconds
// Plugin.Admit (v1.36.3).
func DefaultTolerations(tolerations []Toleration, seconds int64) []Toleration {
	if seconds < 0 {
		seconds = DefaultTolerationSeconds
	}
	return DefaultTolerationsFor(tolerations, seconds, seconds)
}

// DefaultTolerationsFor returns tolerations with the admission plugin's
// defaults appended: an Exists NoExecute toleration of
// node.kubernetes.io/not-ready for notReadySeconds (unless a toleration with
// that key or an empty key, and effect NoExecute or empty, is already
// there), then the same for node.kubernetes.io/unreachable with
// unreachableSeconds. The seconds are the plugin's flags
// (--default-not-ready-toleration-seconds,
// --default-unreachable-toleration-seconds), any int64, negative ones
// included, taken as they are. The input is not modified.
//
// Source: upstream plugin/pkg/admission/defaulttolerationseconds
// Plugin.Admit (v1.36.3).
func DefaultTolerationsFor(tolerations []Toleration, notReadySeconds, unreachableSeconds int64) []Toleration {
	notReady, unreachable := false, false
	for _, t := range tolerations {
		if t.Effect != "" && t.Effect != string(NoExecute) {
			continue
		}
		if t.Key == "" || t.Key == TaintNotReady {
			notReady = true
		}
		if t.Key == "" || t.Key == TaintUnreachable {
			unreachable = true
		}
	}
	out := make([]Toleration, len(tolerations), len(tolerations)+2)
	copy(out, tolerations)
	if !notReady {
		s := notReadySeconds
		out = append(out, Toleration{Key: TaintNotReady, Operator: OpExists, Effect: string(NoExecute), TolerationSeconds: &s})
	}
	if !unreachable {
		s := unreachableSeconds
		out = append(out, Toleration{Key: TaintUnreachable, Operator: OpExists, Effect: string(NoExecute), TolerationSeconds: &s})
	}
	return out
}
