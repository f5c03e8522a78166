package node

import (
	"time"

	"github.com/kubesem/kubesem/podstatus"
)

// ShutdownPlan is a whole graceful node shutdown as the kubelet runs it:
// the priority groups its configuration comes to, the pods each group
// kills and when, how long it asks systemd to wait, and how long the pods
// take.
type ShutdownPlan struct {
	// Periods are the groups' priorities and seconds, sorted by priority
	// ([ShutdownPeriods]).
	Periods []ShutdownPeriod `json:"periods"`
	// Groups are the periods with their pods and offsets ([Shutdown]).
	Groups []ShutdownGroup `json:"groups"`
	// Delay is the inhibit delay the kubelet asks for: the sum of the
	// periods ([ShutdownDelay]).
	Delay time.Duration `json:"delay"`
	// Total is when the last group with pods ends: the End of the last
	// group, 0 without groups.
	Total time.Duration `json:"total"`
}

// PlanShutdown returns the kubelet's graceful node shutdown of pods under
// its configuration: shutdownGracePeriodByPodPriority (byPriority) when
// set, else shutdownGracePeriod (requested) and
// shutdownGracePeriodCriticalPods (critical) migrated to two groups
// ([ShutdownPeriods]); then the pods grouped and killed group by group
// ([Shutdown]), the delay asked of systemd ([ShutdownDelay]) and the time
// the last group with pods ends. Without any configured group the plan has
// no groups and takes no time.
//
// It returns a *field.Error as [ValidateShutdownPeriods] does for
// byPriority, with the index of the entry as given (before sorting), and
// as [Shutdown] does for pods; the plan is then zero.
//
// Source: upstream pkg/kubelet/nodeshutdown newPodManager, migrateConfig,
// podManager.killPods and the manager's inhibit delay (v1.36.3); seed 001
// (graceful node shutdown, pod priority based graceful node shutdown).
func PlanShutdown(byPriority []ShutdownPeriod, requested, critical time.Duration, pods []*podstatus.Pod) (ShutdownPlan, error) {
	if err := ValidateShutdownPeriods(byPriority); err != nil {
		return ShutdownPlan{}, err
	}
	periods := ShutdownPeriods(byPriority, requested, critical)
	groups, err := Shutdown(periods, pods)
	if err != nil {
		return ShutdownPlan{}, err
	}
	var total time.Duration
	if len(groups) > 0 {
		total = groups[len(groups)-1].End
	}
	return ShutdownPlan{Periods: periods, Groups: groups, Delay: ShutdownDelay(periods), Total: total}, nil
}
