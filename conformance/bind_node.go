package conformance

import (
	"strings"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

type nodeTolerationIn struct {
	Toleration node.Toleration `json:"toleration"`
	Taint      node.Taint      `json:"taint"`
}

type nodeTolerationOut struct {
	Tolerated bool `json:"tolerated"`
}

type nodeUntoleratedIn struct {
	Taints      []node.Taint      `json:"taints"`
	Tolerations []node.Toleration `json:"tolerations"`
	// Effects selects the taints checked; empty checks every taint.
	Effects []node.TaintEffect `json:"effects,omitempty"`
}

type nodeUntoleratedOut struct {
	Found bool        `json:"found"`
	Taint *node.Taint `json:"taint,omitempty"`
}

type nodeSelectorIn struct {
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
	Affinity     *node.Affinity    `json:"affinity"`
	Node         node.Node         `json:"node"`
}

type nodeSelectorOut struct {
	Matches bool `json:"matches"`
}

type nodeTolerationsIn struct {
	Tolerations []node.Toleration `json:"tolerations,omitempty"`
	// Seconds is the admission plugin's two flags, any int64, taken as they
	// are; absent means their defaults (300).
	Seconds *int64 `json:"seconds"`
}

type nodeTolerationsOut struct {
	Tolerations []node.Toleration `json:"tolerations"`
}

type nodeMinTimeIn struct {
	Tolerations []node.Toleration `json:"tolerations"`
}

type nodeMinTimeOut struct {
	Forever bool          `json:"forever"`
	Time    time.Duration `json:"time"`
}

type nodeEvictionIn struct {
	Tolerations []node.Toleration `json:"tolerations"`
	Taints      []node.Taint      `json:"taints"`
	Seen        time.Time         `json:"seen"`
}

type nodeEvictionStepIn struct {
	Node      node.Node                `json:"node"`
	Pods      []*podstatus.Pod         `json:"pods"`
	Scheduled []node.ScheduledEviction `json:"memory,omitempty"`
	Now       time.Time                `json:"now"`
}

type nodeZoneStateIn struct {
	// Ready is each node's Ready status ("" for a node without one).
	Ready []node.ConditionStatus `json:"ready"`
}

type nodeZoneStateOut struct {
	NotReady int            `json:"notReady"`
	State    node.ZoneState `json:"state"`
}

type nodeZoneRateIn struct {
	State    node.ZoneState `json:"state"`
	ZoneSize int            `json:"zoneSize"`
}

type nodeZoneRateOut struct {
	Rate    float32 `json:"rate"`
	Changes bool    `json:"changes"`
}

type nodeZoneStatesIn struct {
	Nodes []*node.Node `json:"nodes"`
}

type nodeZoneStatesOut struct {
	Zones []node.ZoneReport `json:"zones"`
}

type nodeZoneIn struct {
	Node node.Node `json:"node"`
}

type nodeZoneOut struct {
	Zone     string `json:"zone"`
	Excluded bool   `json:"excluded"`
}

type nodeHealthIn struct {
	Node   node.Node    `json:"node"`
	Lease  *node.Lease  `json:"lease"`
	Health *node.Health `json:"health"`
	Now    time.Time    `json:"now"`
}

type nodeStepIn struct {
	Nodes  []*node.Node `json:"nodes"`
	Leases []node.Lease `json:"leases,omitempty"`
	// Pods are the pods the controller's cache lists (optional): those of
	// a node marked not ready get their NodeNotReady events.
	Pods   []*podstatus.Pod `json:"pods,omitempty"`
	Memory node.Memory      `json:"memory,omitempty"`
	Now    time.Time        `json:"now"`
}

type nodeConditionTaintsIn struct {
	Node node.Node `json:"node"`
}

type nodeConditionTaintsOut struct {
	Want   []node.Taint `json:"want"`
	Add    []node.Taint `json:"add"`
	Remove []node.Taint `json:"remove"`
}

type nodeMigrateIn struct {
	ShutdownGracePeriod             string `json:"shutdownGracePeriod"`
	ShutdownGracePeriodCriticalPods string `json:"shutdownGracePeriodCriticalPods,omitempty"`
}

type nodeMigrateOut struct {
	Periods []node.ShutdownPeriod `json:"periods"`
}

type nodeShutdownIn struct {
	ShutdownGracePeriodByPodPriority []node.ShutdownPeriod `json:"shutdownGracePeriodByPodPriority,omitempty"`
	ShutdownGracePeriod              string                `json:"shutdownGracePeriod,omitempty"`
	ShutdownGracePeriodCriticalPods  string                `json:"shutdownGracePeriodCriticalPods,omitempty"`
	Pods                             []*podstatus.Pod      `json:"pods,omitempty"`
}

type nodeGroupIn struct {
	Periods  []node.ShutdownPeriod `json:"periods"`
	Priority int32                 `json:"priority"`
}

type nodeGroupOut struct {
	Index    int   `json:"index"`
	Priority int32 `json:"groupPriority"`
}

type nodeParseTaintsIn struct {
	Taints []string `json:"taints"`
}

type nodeParseTaintsOut struct {
	Add    []node.Taint `json:"add"`
	Remove []node.Taint `json:"remove"`
}

type nodeValidateTolerationsIn struct {
	Tolerations []node.Toleration `json:"tolerations,omitempty"`
}

type nodeValidateTaintsIn struct {
	Taints []node.Taint `json:"taints,omitempty"`
}

type nodeValidateOut struct {
	Valid bool `json:"valid"`
}

type nodeBackoffIn struct {
	Attempt int `json:"attempt"`
}

type nodeBackoffOut struct {
	Wait time.Duration `json:"wait"`
}

type nodeRenewIn struct {
	LeaseDuration string    `json:"leaseDuration"`
	LastRenew     time.Time `json:"lastRenew"`
}

type nodeRenewOut struct {
	Interval time.Duration `json:"interval"`
	Next     time.Time     `json:"next"`
}

type nodeStatusIn struct {
	Changed         bool      `json:"changed"`
	LastReport      time.Time `json:"lastReport,omitzero"`
	Delay           string    `json:"delay,omitempty"`
	ReportFrequency string    `json:"reportFrequency,omitempty"`
	Now             time.Time `json:"now"`
}

type nodeReportFrequencyIn struct {
	NodeStatusUpdateFrequency string `json:"nodeStatusUpdateFrequency,omitempty"`
	NodeStatusReportFrequency string `json:"nodeStatusReportFrequency,omitempty"`
}

type nodeReportFrequencyOut struct {
	ReportFrequency time.Duration `json:"reportFrequency"`
}

// nodeDecisions returns the node decisions the vectors in testdata/node name.
func nodeDecisions() []Decision {
	return []Decision{
		Bind("node.ToleratesTaint", func(in nodeTolerationIn, opts node.Options) (nodeTolerationOut, error) {
			return nodeTolerationOut{node.ToleratesTaint(&in.Toleration, &in.Taint, opts)}, nil
		}),
		Bind("node.FindUntoleratedTaint", func(in nodeUntoleratedIn, opts node.Options) (nodeUntoleratedOut, error) {
			var f node.TaintFilter
			if len(in.Effects) > 0 {
				f = node.EffectFilter(in.Effects...)
			}
			t, ok := node.FindUntoleratedTaint(in.Taints, in.Tolerations, f, opts)
			if !ok {
				return nodeUntoleratedOut{}, nil
			}
			return nodeUntoleratedOut{Found: true, Taint: &t}, nil
		}),
		Bind("node.MatchesNodeSelector", func(in nodeSelectorIn, _ struct{}) (nodeSelectorOut, error) {
			ok, err := node.MatchesNodeSelector(in.NodeSelector, in.Affinity, &in.Node)
			if fe, isField := err.(*field.Error); isField {
				// the pod's spec.affinity is the input's affinity
				fe.Path = strings.TrimPrefix(fe.Path, "spec.")
			}
			return nodeSelectorOut{ok}, err
		}),
		Bind("node.DefaultTolerations", func(in nodeTolerationsIn, _ struct{}) (nodeTolerationsOut, error) {
			s := node.DefaultTolerationSeconds
			if in.Seconds != nil {
				s = *in.Seconds
			}
			return nodeTolerationsOut{node.DefaultTolerationsFor(in.Tolerations, s, s)}, nil
		}),
		Bind("node.MinTolerationTime", func(in nodeMinTimeIn, _ struct{}) (nodeMinTimeOut, error) {
			d := node.MinTolerationTime(in.Tolerations)
			if d == node.Forever {
				return nodeMinTimeOut{Forever: true}, nil
			}
			return nodeMinTimeOut{Time: d}, nil
		}),
		Bind("node.EvictionFor", func(in nodeEvictionIn, opts node.Options) (node.Eviction, error) {
			return node.EvictionFor(in.Tolerations, in.Taints, in.Seen, opts), nil
		}),
		Bind("node.EvictionStep", func(in nodeEvictionStepIn, opts node.Options) (node.EvictionPlan, error) {
			return node.EvictionStep(&in.Node, in.Pods, in.Scheduled, in.Now, opts)
		}),
		Bind("node.ComputeZoneState", func(in nodeZoneStateIn, opts node.Options) (nodeZoneStateOut, error) {
			n, s := node.ComputeZoneState(in.Ready, opts)
			return nodeZoneStateOut{n, s}, nil
		}),
		Bind("node.ZoneRate", func(in nodeZoneRateIn, opts node.Options) (nodeZoneRateOut, error) {
			r, ok := node.ZoneRate(in.State, in.ZoneSize, opts)
			return nodeZoneRateOut{r, ok}, nil
		}),
		Bind("node.ZoneStates", func(in nodeZoneStatesIn, opts node.Options) (nodeZoneStatesOut, error) {
			return nodeZoneStatesOut{node.ZoneStates(in.Nodes, opts)}, nil
		}),
		Bind("node.Zone", func(in nodeZoneIn, _ struct{}) (nodeZoneOut, error) {
			return nodeZoneOut{node.Zone(&in.Node), node.ExcludedFromDisruption(&in.Node)}, nil
		}),
		Bind("node.UpdateHealth", func(in nodeHealthIn, opts node.Options) (node.HealthUpdate, error) {
			return node.UpdateHealth(&in.Node, in.Lease, in.Health, in.Now, opts), nil
		}),
		Bind("node.Step", func(in nodeStepIn, opts node.Options) (node.Plan, error) {
			return node.Step(in.Nodes, in.Leases, in.Pods, in.Memory, in.Now, opts)
		}),
		Bind("node.ConditionTaints", func(in nodeConditionTaintsIn, _ struct{}) (nodeConditionTaintsOut, error) {
			add, remove := node.ConditionTaintDiff(&in.Node)
			return nodeConditionTaintsOut{node.ConditionTaints(&in.Node), add, remove}, nil
		}),
		Bind("node.MigrateShutdownConfig", func(in nodeMigrateIn, _ struct{}) (nodeMigrateOut, error) {
			req, err := parseDuration("shutdownGracePeriod", in.ShutdownGracePeriod)
			if err != nil {
				return nodeMigrateOut{}, err
			}
			crit, err := parseDuration("shutdownGracePeriodCriticalPods", in.ShutdownGracePeriodCriticalPods)
			if err != nil {
				return nodeMigrateOut{}, err
			}
			return nodeMigrateOut{node.MigrateShutdownConfig(req, crit)}, nil
		}),
		Bind("node.PlanShutdown", func(in nodeShutdownIn, _ struct{}) (node.ShutdownPlan, error) {
			req, err := parseDuration("shutdownGracePeriod", in.ShutdownGracePeriod)
			if err != nil {
				return node.ShutdownPlan{}, err
			}
			crit, err := parseDuration("shutdownGracePeriodCriticalPods", in.ShutdownGracePeriodCriticalPods)
			if err != nil {
				return node.ShutdownPlan{}, err
			}
			return node.PlanShutdown(in.ShutdownGracePeriodByPodPriority, req, crit, in.Pods)
		}),
		Bind("node.GroupForPriority", func(in nodeGroupIn, _ struct{}) (nodeGroupOut, error) {
			ps := node.ShutdownPeriods(in.Periods, 0, 0)
			i := node.GroupForPriority(ps, in.Priority)
			if i < 0 {
				return nodeGroupOut{Index: -1}, nil
			}
			return nodeGroupOut{i, ps[i].Priority}, nil
		}),
		Bind("node.ParseTaints", func(in nodeParseTaintsIn, _ struct{}) (nodeParseTaintsOut, error) {
			add, remove, err := node.ParseTaints(in.Taints)
			return nodeParseTaintsOut{add, remove}, err
		}),
		Bind("node.ValidateTolerations", func(in nodeValidateTolerationsIn, opts node.Options) (nodeValidateOut, error) {
			if err := node.ValidateTolerations(in.Tolerations, "tolerations", opts); err != nil {
				return nodeValidateOut{}, err
			}
			return nodeValidateOut{true}, nil
		}),
		Bind("node.ValidateTaints", func(in nodeValidateTaintsIn, _ struct{}) (nodeValidateOut, error) {
			if err := node.ValidateTaints(in.Taints, "taints"); err != nil {
				return nodeValidateOut{}, err
			}
			return nodeValidateOut{true}, nil
		}),
		Bind("node.LeaseRetryBackoff", func(in nodeBackoffIn, _ struct{}) (nodeBackoffOut, error) {
			return nodeBackoffOut{node.LeaseRetryBackoff(in.Attempt)}, nil
		}),
		Bind("node.LeaseRenewInterval", func(in nodeRenewIn, _ struct{}) (nodeRenewOut, error) {
			d, err := parseDuration("leaseDuration", in.LeaseDuration)
			if err != nil {
				return nodeRenewOut{}, err
			}
			return nodeRenewOut{node.LeaseRenewInterval(d), node.NextLeaseRenewal(in.LastRenew, d)}, nil
		}),
		Bind("node.StatusUpdate", func(in nodeStatusIn, _ struct{}) (node.StatusReport, error) {
			delay, err := parseDuration("delay", in.Delay)
			if err != nil {
				return node.StatusReport{}, err
			}
			freq, err := parseDuration("reportFrequency", in.ReportFrequency)
			if err != nil {
				return node.StatusReport{}, err
			}
			return node.StatusUpdate(node.StatusChange(in.Changed), in.LastReport, delay, freq, in.Now), nil
		}),
		Bind("node.StatusReportFrequency", func(in nodeReportFrequencyIn, _ struct{}) (nodeReportFrequencyOut, error) {
			upd, err := parseDuration("nodeStatusUpdateFrequency", in.NodeStatusUpdateFrequency)
			if err != nil {
				return nodeReportFrequencyOut{}, err
			}
			rep, err := parseDuration("nodeStatusReportFrequency", in.NodeStatusReportFrequency)
			if err != nil {
				return nodeReportFrequencyOut{}, err
			}
			return nodeReportFrequencyOut{node.StatusReportFrequency(upd, rep)}, nil
		}),
	}
}
