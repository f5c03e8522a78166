package podstatus

import (
	"hash/fnv"
	"strconv"
	"time"

	"github.com/kubesem/kubesem/field"
)

// Crash-loop backoff constants of the kubelet.
const (
	// InitialCrashLoopBackOff is the first restart delay.
	InitialCrashLoopBackOff = 10 * time.Second
	// MaxCrashLoopBackOff is the default cap of the delay.
	MaxCrashLoopBackOff = 300 * time.Second
	// ReducedInitialCrashLoopBackOff and ReducedMaxCrashLoopBackOff apply
	// with gate ReduceDefaultCrashLoopBackOffDecay (alpha, off).
	ReducedInitialCrashLoopBackOff = 1 * time.Second
	ReducedMaxCrashLoopBackOff     = 60 * time.Second
	// CrashLoopBackOffReset is how long after the last backoff update an
	// exit starts over at the initial delay.
	CrashLoopBackOffReset = 600 * time.Second
)

// ReasonCrashLoopBackOff is the waiting reason of a container in backoff.
const ReasonCrashLoopBackOff = "CrashLoopBackOff"

// BackoffOptions configure the kubelet's crash-loop backoff; the zero value
// is v1.36.3's default.
type BackoffOptions struct {
	// MaxContainerRestartPeriod is the kubelet's
	// crashLoopBackOff.maxContainerRestartPeriod; 0 means 300s.
	MaxContainerRestartPeriod time.Duration `json:"maxContainerRestartPeriod,omitempty"`
	// ReducedDecay turns gate ReduceDefaultCrashLoopBackOffDecay on: 1s
	// initial, 60s default cap.
	ReducedDecay bool `json:"reducedDecay,omitempty"`
	// DisableMaxGate turns gate KubeletCrashLoopBackOffMax off, so that
	// MaxContainerRestartPeriod is ignored.
	DisableMaxGate bool `json:"disableMaxGate,omitempty"`
}

// CrashLoopBounds returns the initial delay and the cap of the crash-loop
// backoff: 10s and 300s (1s and 60s with ReducedDecay); with the
// KubeletCrashLoopBackOffMax gate a configured maximum replaces the cap and
// lowers the initial delay to it when smaller. With the gate on and nothing
// configured the cap is the kubelet configuration's default, 300s, even with
// ReducedDecay.
//
// Source: upstream pkg/kubelet/kubelet.go newCrashLoopBackOff and
// pkg/kubelet/apis/config/v1beta1/defaults.go (v1.36.3).
func CrashLoopBounds(o BackoffOptions) (initial, max time.Duration) {
	initial, max = InitialCrashLoopBackOff, MaxCrashLoopBackOff
	if o.ReducedDecay {
		initial, max = ReducedInitialCrashLoopBackOff, ReducedMaxCrashLoopBackOff
	}
	if !o.DisableMaxGate {
		max = o.MaxContainerRestartPeriod
		if max <= 0 {
			max = MaxCrashLoopBackOff
		}
		if max < initial {
			initial = max
		}
	}
	return initial, max
}

// BackoffEntry is the kubelet's memory of one container's backoff: the
// current delay and when it was last updated.
type BackoffEntry struct {
	Delay      time.Duration `json:"delay"`
	LastUpdate time.Time     `json:"lastUpdate"`
}

// RestartDecision is what the kubelet decides when it finds a container
// exited: whether it is still in backoff (and until when), and the backoff
// memory afterwards.
type RestartDecision struct {
	// InBackoff means the container stays waiting with CrashLoopBackOff.
	InBackoff bool `json:"inBackoff"`
	// Until is when the backoff ends (finishedAt + delay), set in backoff.
	Until time.Time `json:"until,omitzero"`
	// Entry is the memory after the decision: unchanged in backoff, else
	// the delay to wait after the restart now started.
	Entry BackoffEntry `json:"entry"`
}

// doubleCapped doubles d, never past max (and never overflowing).
func doubleCapped(d, max time.Duration) time.Duration {
	if d > max/2 {
		return max
	}
	return min(2*d, max)
}

// RestartBackoff decides a restart of a container that exited at finishedAt,
// seen at now, given its backoff memory (nil when none). An entry last
// updated more than 600s before finishedAt counts as none. With an entry, the
// container is in backoff while now - finishedAt < delay, until
// finishedAt+delay. Otherwise the kubelet restarts it and records the next
// delay: the initial one without an entry, else double the delay, capped;
// the update time is now.
//
// Source: upstream pkg/kubelet/kuberuntime/kuberuntime_manager.go doBackOff,
// client-go util/flowcontrol/backoff.go, and the expiry of 600s set in
// pkg/kubelet/kubelet.go NewMainKubelet (v1.36.3).
func RestartBackoff(entry *BackoffEntry, finishedAt, now time.Time, o BackoffOptions) RestartDecision {
	initial, max := CrashLoopBounds(o)
	live := entry != nil && finishedAt.Sub(entry.LastUpdate) <= CrashLoopBackOffReset
	if live && now.Sub(finishedAt) < entry.Delay {
		return RestartDecision{InBackoff: true, Until: finishedAt.Add(entry.Delay), Entry: *entry}
	}
	next := BackoffEntry{Delay: initial, LastUpdate: now}
	if live {
		next.Delay = doubleCapped(entry.Delay, max)
	}
	return RestartDecision{Entry: next}
}

// MaxCrashLoopDelays is the longest list [CrashLoopDelays] returns. The
// delays double from at least 1ns and so reach any cap within 63 restarts
// (within 9 with every configuration the kubelet accepts), and stay there:
// entries beyond the cap's reach repeat it. 10,000 restarts is more than a
// container crash-looping at the default 5-minute cap reaches in a month.
const MaxCrashLoopDelays = 10_000

// CrashLoopDelays returns the delays before the 1st, 2nd, … nth restart of a
// container that keeps exiting at once: initial, doubling, capped. n ≤ 0
// gives an empty list.
//
// It returns a *field.Error at path "n" wrapping field.ErrOverflow, and a nil
// list, when n exceeds [MaxCrashLoopDelays].
//
// Source: seed 000 pod lifecycle, restart policy (10s, 20s, 40s, … 5 minutes).
func CrashLoopDelays(n int, o BackoffOptions) ([]time.Duration, error) {
	if n > MaxCrashLoopDelays {
		return nil, field.Int("n", int64(n), field.ErrOverflow)
	}
	if n <= 0 {
		return []time.Duration{}, nil
	}
	initial, max := CrashLoopBounds(o)
	out := make([]time.Duration, n)
	d := initial
	for i := range out {
		out[i] = d
		d = doubleCapped(d, max)
	}
	return out, nil
}

// EmptyResources is how the kubelet prints a container's resources when
// none are set; kubesem does not model resources and uses it in every key.
const EmptyResources = "&ResourceRequirements{Limits:ResourceList{},Requests:ResourceList{},Claims:[]ResourceClaim{},}"

// BackoffKey returns the kubelet's backoff key of container c in pod p: the
// 64-bit FNV-1a hash, in hex, of pod name, namespace, UID, container name,
// image and resources joined by "/". A changed image starts a new backoff.
// Resources are taken as unset.
//
// Source: upstream pkg/kubelet/kuberuntime/helpers.go GetBackoffKey (v1.36.3).
func BackoffKey(p *Pod, c *Container) string {
	h := fnv.New64a()
	if p != nil {
		h.Write([]byte(p.Name + "/" + p.Namespace + "/" + p.UID + "/"))
	} else {
		h.Write([]byte("///"))
	}
	if c != nil {
		h.Write([]byte(c.Name + "/" + c.Image + "/"))
	} else {
		h.Write([]byte("//"))
	}
	h.Write([]byte(EmptyResources))
	return strconv.FormatUint(h.Sum64(), 16)
}
