package node

import (
	"cmp"
	"slices"
	"sort"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/podstatus"
)

// ShutdownPeriod is one kubelet shutdownGracePeriodByPodPriority entry:
// pods with a priority from Priority up to the next entry's get Seconds.
type ShutdownPeriod struct {
	Priority int32 `json:"priority"`
	Seconds  int64 `json:"shutdownGracePeriodSeconds"`
}

// Priorities of the migrated configuration (upstream pkg/apis/scheduling).
const (
	DefaultPriority        int32 = 0
	SystemCriticalPriority int32 = 2000000000
)

// MigrateShutdownConfig turns the kubelet's shutdownGracePeriod and
// shutdownGracePeriodCriticalPods into priority groups: nil when requested
// is 0 or critical exceeds it; else priority 0 gets requested − critical
// and priority 2,000,000,000 gets critical, each truncated to whole
// seconds (30 s / 10 s → 20 s + 10 s).
//
// Source: upstream pkg/kubelet/nodeshutdown migrateConfig (v1.36.3); seed
// 001 (graceful node shutdown).
func MigrateShutdownConfig(requested, critical time.Duration) []ShutdownPeriod {
	if requested == 0 {
		return nil
	}
	regular := requested - critical
	if regular < 0 {
		return nil
	}
	crit := requested - regular
	if crit < 0 {
		return nil
	}
	return []ShutdownPeriod{
		{Priority: DefaultPriority, Seconds: int64(regular / time.Second)},
		{Priority: SystemCriticalPriority, Seconds: int64(crit / time.Second)},
	}
}

// ShutdownPeriods returns the groups the kubelet uses: byPriority when set
// (and Options do not disable the gate), else [MigrateShutdownConfig],
// sorted by priority ascending (stably: equal priorities keep their
// order, which upstream leaves to an unstable sort).
//
// Source: upstream pkg/kubelet/nodeshutdown newPodManager (v1.36.3).
func ShutdownPeriods(byPriority []ShutdownPeriod, requested, critical time.Duration) []ShutdownPeriod {
	ps := slices.Clone(byPriority)
	if len(ps) == 0 {
		ps = MigrateShutdownConfig(requested, critical)
	}
	slices.SortStableFunc(ps, func(a, b ShutdownPeriod) int { return cmp.Compare(a.Priority, b.Priority) })
	return ps
}

// ShutdownGroup is one priority group of a graceful node shutdown.
type ShutdownGroup struct {
	ShutdownPeriod
	// Pods are the group's pods, in input order, each with its grace.
	Pods []ShutdownPod `json:"pods"`
	// Start and End are offsets from the shutdown's start: the group waits
	// up to Seconds for its pods; an empty group takes no time.
	Start time.Duration `json:"start"`
	End   time.Duration `json:"end"`
}

// ShutdownPod is a pod killed in a shutdown group.
type ShutdownPod struct {
	Name string `json:"name"`
	// GracePeriod is min(group seconds, terminationGracePeriodSeconds).
	GracePeriodSeconds int64 `json:"gracePeriodSeconds"`
}

// GroupForPriority returns the index of the group (periods sorted by
// priority) a pod of priority belongs to: the group with the greatest
// priority ≤ the pod's, the lowest group below all of them, the highest
// above; -1 when there are no groups.
//
// Source: upstream pkg/kubelet/nodeshutdown groupByPriority (v1.36.3).
func GroupForPriority(periods []ShutdownPeriod, priority int32) int {
	if len(periods) == 0 {
		return -1
	}
	i := sort.Search(len(periods), func(i int) bool { return periods[i].Priority >= priority })
	switch {
	case i == len(periods):
		i = len(periods) - 1
	case i > 0 && periods[i].Priority > priority:
		i--
	}
	return i
}

// Shutdown is the kubelet's graceful node shutdown of pods under periods
// (sorted by priority, see [ShutdownPeriods]): pods are grouped by
// priority ([GroupForPriority]; no priority counts as 0), groups run from
// the lowest priority to the highest, each pod is killed with
// min(group seconds, terminationGracePeriodSeconds) and the kubelet waits up
// to the group's seconds before the next group; an empty group is skipped
// and takes no time. Every group is returned, empty ones with Start = End.
//
// Source: upstream pkg/kubelet/nodeshutdown podManager.killPods and
// groupByPriority (v1.36.3); seed 001 (pod priority based graceful node
// shutdown).
func Shutdown(periods []ShutdownPeriod, pods []*podstatus.Pod) ([]ShutdownGroup, error) {
	if err := ValidateShutdownPeriods(periods); err != nil {
		return nil, err
	}
	for i, p := range pods {
		if p == nil {
			return nil, field.New(field.Index("pods", i), "", field.ErrRequired)
		}
		if g := p.Spec.TerminationGracePeriodSeconds; g != nil && *g < 0 {
			return nil, field.Int(field.Index("pods", i)+".spec.terminationGracePeriodSeconds", *g, field.ErrNegative)
		}
	}
	groups := make([]ShutdownGroup, len(periods))
	for i, p := range periods {
		groups[i] = ShutdownGroup{ShutdownPeriod: p, Pods: []ShutdownPod{}}
	}
	if len(groups) == 0 {
		return groups, nil
	}
	for _, p := range pods {
		var prio int32
		if p.Spec.Priority != nil {
			prio = *p.Spec.Priority
		}
		g := &groups[GroupForPriority(periods, prio)]
		grace := g.Seconds
		if t := p.Spec.TerminationGracePeriodSeconds; t != nil && *t <= grace {
			grace = *t
		}
		g.Pods = append(g.Pods, ShutdownPod{Name: p.Name, GracePeriodSeconds: grace})
	}
	var at time.Duration
	for i := range groups {
		groups[i].Start = at
		if len(groups[i].Pods) > 0 {
			at += time.Duration(groups[i].Seconds) * time.Second
		}
		groups[i].End = at
	}
	return groups, nil
}

// ShutdownDelay is the total the kubelet asks systemd to delay shutdown
// by: the sum of all groups' seconds, empty groups included.
//
// Source: upstream pkg/kubelet/nodeshutdown podManager.periodRequested
// (v1.36.3).
func ShutdownDelay(periods []ShutdownPeriod) time.Duration {
	var sum int64
	for _, p := range periods {
		sum += p.Seconds
	}
	return time.Duration(sum) * time.Second
}

// ValidateShutdownPeriods rejects periods [Shutdown] cannot order: the
// first negative shutdownGracePeriodSeconds (field.ErrNegative) or
// repeated priority (field.ErrDuplicate), as a *field.Error at
// shutdownGracePeriodByPodPriority[i].
//
// Source: kubesem's input check. v1.36.3's ValidateKubeletConfiguration
// (pkg/kubelet/apis/config/validation) checks neither: it only bounds
// shutdownGracePeriod and shutdownGracePeriodCriticalPods and forbids
// mixing them with shutdownGracePeriodByPodPriority; pkg/kubelet/
// nodeshutdown groupByPriority reads the periods as given.
func ValidateShutdownPeriods(periods []ShutdownPeriod) error {
	seen := map[int32]bool{}
	for i, p := range periods {
		path := field.Index("shutdownGracePeriodByPodPriority", i)
		if p.Seconds < 0 {
			return field.Int(path+".shutdownGracePeriodSeconds", p.Seconds, field.ErrNegative)
		}
		if seen[p.Priority] {
			return field.Int(path+".priority", int64(p.Priority), field.ErrDuplicate)
		}
		seen[p.Priority] = true
	}
	return nil
}
