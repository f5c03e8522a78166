package node

import "time"

// Kubelet heartbeat defaults (KubeletConfiguration).
//
// Source: upstream pkg/kubelet/apis/config/v1beta1 defaults and
// pkg/kubelet/kubelet.go (v1.36.3); seed 001 (heartbeats).
const (
	DefaultNodeLeaseDuration         = 40 * time.Second
	DefaultNodeStatusUpdateFrequency = 10 * time.Second
	DefaultNodeStatusReportFrequency = 5 * time.Minute
	// LeaseRetryMaxBackoff caps the lease retry backoff.
	LeaseRetryMaxBackoff = 7 * time.Second
)

// LeaseRenewInterval is how often the kubelet renews its node Lease: a
// quarter of the lease duration (40 s → 10 s); 0 means
// [DefaultNodeLeaseDuration].
//
// Source: upstream pkg/kubelet/kubelet.go nodeLeaseRenewIntervalFraction
// (v1.36.3).
func LeaseRenewInterval(leaseDuration time.Duration) time.Duration {
	if leaseDuration <= 0 {
		leaseDuration = DefaultNodeLeaseDuration
	}
	return time.Duration(float64(leaseDuration) * 0.25)
}

// LeaseRetryBackoff is the wait before the attempt-th retry (1-based) of a
// failed lease creation or read: 200 ms doubling per attempt, capped at
// 7 s; 0 for attempt < 1.
//
// Source: upstream k8s.io/component-helpers apimachinery/lease
// controller.backoffEnsureLease (v1.36.3).
func LeaseRetryBackoff(attempt int) time.Duration {
	if attempt < 1 {
		return 0
	}
	d := 100 * time.Millisecond
	for i := 0; i < attempt; i++ {
		d *= 2
		if d >= LeaseRetryMaxBackoff {
			return LeaseRetryMaxBackoff
		}
	}
	return d
}

// StatusReport says whether the kubelet patches its node status in one
// status sync (every nodeStatusUpdateFrequency, 10 s).
type StatusReport struct {
	// Patch is whether the status is written.
	Patch bool `json:"patch"`
	// NewDelay is true when the kubelet draws a new random delay (in
	// [−reportFrequency/2, +reportFrequency/2)) for the next periodic
	// report: after a change or on the first report; otherwise the delay
	// is reset to 0.
	NewDelay bool `json:"newDelay"`
}

// StatusChange says whether the node status the kubelet built in a
// status sync differs from the one it last wrote ([StatusUpdate]).
type StatusChange bool

// Status changes.
const (
	StatusUnchanged StatusChange = false
	StatusChanged   StatusChange = true
)

// StatusUpdate decides one kubelet node-status sync at now: the status is
// patched when it changed ([StatusChanged]), or when now − lastReport ≥ reportFrequency +
// delay (always when lastReport is zero, after a restart). reportFrequency
// is the defaulted one ([StatusReportFrequency]); 0 means
// [DefaultNodeStatusReportFrequency]. delay is the random delay the kubelet
// drew at the last change.
//
// Source: upstream pkg/kubelet/kubelet_node_status.go tryUpdateNodeStatus
// and isUpdateStatusPeriodExpired (v1.36.3).
func StatusUpdate(change StatusChange, lastReport time.Time, delay, reportFrequency time.Duration, now time.Time) StatusReport {
	if reportFrequency <= 0 {
		reportFrequency = DefaultNodeStatusReportFrequency
	}
	expired := now.Sub(lastReport) >= reportFrequency+delay
	if change == StatusUnchanged && !expired {
		return StatusReport{}
	}
	return StatusReport{Patch: true, NewDelay: change == StatusChanged || lastReport.IsZero()}
}

// NextLeaseRenewal is when a kubelet that renewed its lease at last renews
// it again: last + [LeaseRenewInterval], the earliest instant of upstream's
// jittered period (up to 4 % later there).
//
// Source: upstream k8s.io/component-helpers apimachinery/lease
// controller.Run (wait.JitterUntilWithContext with jitter 0.04, sliding)
// (v1.36.3).
func NextLeaseRenewal(last time.Time, leaseDuration time.Duration) time.Time {
	return last.Add(LeaseRenewInterval(leaseDuration))
}

// StatusReportFrequency is the kubelet's nodeStatusReportFrequency after
// configuration defaulting: reportFrequency when set (non-zero); else
// updateFrequency when that is set, for backward compatibility (a kubelet
// configured with nodeStatusUpdateFrequency 4s reports every 4 s, not
// every 5 minutes); else [DefaultNodeStatusReportFrequency].
//
// Source: upstream pkg/kubelet/apis/config/v1beta1
// SetDefaults_KubeletConfiguration (v1.36.3).
func StatusReportFrequency(updateFrequency, reportFrequency time.Duration) time.Duration {
	switch {
	case reportFrequency != 0:
		return reportFrequency
	case updateFrequency != 0:
		return updateFrequency
	}
	return DefaultNodeStatusReportFrequency
}
