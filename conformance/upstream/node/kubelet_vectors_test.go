package node_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"
	_ "unsafe" // go:linkname

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	kubeletv1beta1 "k8s.io/kubelet/config/v1beta1"
	kubeletconfig "k8s.io/kubernetes/pkg/kubelet/apis/config"
	kubeletdefaults "k8s.io/kubernetes/pkg/kubelet/apis/config/v1beta1"
	"k8s.io/kubernetes/pkg/kubelet/nodeshutdown"
	"k8s.io/utils/clock"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/node"
)

//go:linkname upPeriodRequested k8s.io/kubernetes/pkg/kubelet/nodeshutdown.(*podManager).periodRequested
func upPeriodRequested(m *upPodManager) time.Duration

// vectorDuration parses a vector's duration ("" is 0).
func vectorDuration(t *testing.T, s string) time.Duration {
	if s == "" {
		return 0
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// upShutdown runs the kubelet's shutdown pod manager on the recorder
// (see TestNodeDiffShutdownManager) for a configuration and pods.
func upShutdown(t *testing.T, byPriority []node.ShutdownPeriod, req, crit time.Duration, pods []*v1.Pod) (*upPodManager, *shutdownRecorder) {
	var ups []kubeletconfig.ShutdownGracePeriodByPodPriority
	for _, p := range byPriority {
		ups = append(ups, kubeletconfig.ShutdownGracePeriodByPodPriority{Priority: p.Priority, ShutdownGracePeriodSeconds: p.Seconds})
	}
	rec := &shutdownRecorder{Clock: clock.RealClock{}, grace: map[string]int64{}}
	m := upNewPodManager(&nodeshutdown.Config{
		Logger: klog.Background(), VolumeManager: rec, KillPodFunc: rec.kill, Clock: rec,
		ShutdownGracePeriodRequested: req, ShutdownGracePeriodCriticalPods: crit,
		ShutdownGracePeriodByPodPriority: ups,
	})
	// an empty configuration leaves the kubelet without a shutdown manager
	if len(upPeriods(m)) > 0 {
		if err := upKillPods(m, pods); err != nil {
			t.Fatal(err)
		}
	}
	return m, rec
}

// TestNodeKubeletVectorsUpstream replays the testdata/node vectors of the
// kubelet's decisions through v1.36.3 and checks each vector's want:
// MigrateShutdownConfig (migrateConfig), GroupForPriority (newPodManager's
// sort, groupByPriority), Shutdown (newPodManager and killPods on fakes:
// groups, each pod's grace, each group's wait, periodRequested),
// LeaseRetryBackoff and LeaseRenewInterval (the lease controller's and the
// kubelet's constants), StatusUpdate (isUpdateStatusPeriodExpired) and
// StatusReportFrequency (SetDefaults_KubeletConfiguration). Vectors that
// expect an error are configurations kubelet validation rejects; they are
// not replayed.
func TestNodeKubeletVectorsUpstream(t *testing.T) {
	c := upLeaseConsts(t)
	files, _ := filepath.Glob(difftest.Repo("testdata/node/*.json"))
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var vs []struct {
			Decision  string          `json:"decision"`
			Name      string          `json:"name"`
			Input     json.RawMessage `json:"input"`
			Want      json.RawMessage `json:"want"`
			WantError json.RawMessage `json:"wantError"`
		}
		if err := json.Unmarshal(data, &vs); err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			if v.WantError != nil {
				continue
			}
			fail := func(got, want any) { t.Errorf("%s %s: upstream %v, vector %v", filepath.Base(f), v.Name, got, want) }
			unmarshal := func(in, want any) {
				if err := json.Unmarshal(v.Input, in); err != nil {
					t.Fatalf("%s: %v", v.Name, err)
				}
				if err := json.Unmarshal(v.Want, want); err != nil {
					t.Fatalf("%s: %v", v.Name, err)
				}
			}
			switch v.Decision {
			case "node.MigrateShutdownConfig":
				var in struct{ ShutdownGracePeriod, ShutdownGracePeriodCriticalPods string }
				var want struct{ Periods []node.ShutdownPeriod }
				unmarshal(&in, &want)
				got := fromUpPeriods(upMigrateConfig(vectorDuration(t, in.ShutdownGracePeriod), vectorDuration(t, in.ShutdownGracePeriodCriticalPods)))
				if !reflect.DeepEqual(got, want.Periods) && len(got)+len(want.Periods) > 0 {
					fail(got, want.Periods)
				}
			case "node.GroupForPriority":
				var in struct {
					Periods  []node.ShutdownPeriod
					Priority int32
				}
				var want struct {
					Index         int
					GroupPriority int32
				}
				unmarshal(&in, &want)
				m, _ := upShutdown(t, in.Periods, 0, 0, nil)
				periods := upPeriods(m)
				index := -1 // upstream never groups without periods (no shutdown manager)
				if len(periods) > 0 {
					prio := in.Priority
					pod := &v1.Pod{Spec: v1.PodSpec{Priority: &prio}}
					for i, g := range upGroupByPriority(periods, []*v1.Pod{pod}) {
						if len(g.Pods) > 0 {
							index = i
						}
					}
				}
				if index != want.Index || index >= 0 && periods[index].Priority != want.GroupPriority {
					fail(index, want.Index)
				}
			case "node.PlanShutdown":
				var in struct {
					ShutdownGracePeriodByPodPriority                     []node.ShutdownPeriod
					ShutdownGracePeriod, ShutdownGracePeriodCriticalPods string
					Pods                                                 []*v1.Pod
				}
				var want struct {
					Periods []node.ShutdownPeriod
					Groups  []struct {
						Pods []struct {
							Name               string
							GracePeriodSeconds int64
						}
						Start, End string
					}
					Delay, Total string
				}
				unmarshal(&in, &want)
				m, rec := upShutdown(t, in.ShutdownGracePeriodByPodPriority, vectorDuration(t, in.ShutdownGracePeriod), vectorDuration(t, in.ShutdownGracePeriodCriticalPods), in.Pods)
				if got := fromUpPeriods(upPeriods(m)); !reflect.DeepEqual(got, want.Periods) && len(got)+len(want.Periods) > 0 {
					fail(got, want.Periods)
				}
				var groups [][]string
				var waits []time.Duration
				for _, g := range want.Groups {
					if len(g.Pods) == 0 {
						continue
					}
					var names []string
					for _, p := range g.Pods {
						names = append(names, p.Name)
						if rec.grace[p.Name] != p.GracePeriodSeconds {
							fail(rec.grace[p.Name], p.GracePeriodSeconds)
						}
					}
					groups = append(groups, names)
					waits = append(waits, vectorDuration(t, g.End)-vectorDuration(t, g.Start))
				}
				if !reflect.DeepEqual(rec.groups, groups) {
					fail(rec.groups, groups)
				}
				if !slices.Equal(rec.waits, waits) {
					fail(rec.waits, waits)
				}
				var total time.Duration
				for _, w := range rec.waits {
					total += w
				}
				if total != vectorDuration(t, want.Total) {
					fail(total, want.Total)
				}
				if d := upPeriodRequested(m); d != vectorDuration(t, want.Delay) {
					fail(d, want.Delay)
				}
			case "node.LeaseRetryBackoff":
				var in struct{ Attempt int }
				var want struct{ Wait string }
				unmarshal(&in, &want)
				if got := upRetryBackoff(c, in.Attempt); got != vectorDuration(t, want.Wait) {
					fail(got, want.Wait)
				}
			case "node.LeaseRenewInterval":
				var in struct {
					LeaseDuration string
					LastRenew     time.Time
				}
				var want struct {
					Interval string
					Next     time.Time
				}
				unmarshal(&in, &want)
				var cfg kubeletv1beta1.KubeletConfiguration
				cfg.NodeLeaseDurationSeconds = int32(vectorDuration(t, in.LeaseDuration) / time.Second)
				kubeletdefaults.SetDefaults_KubeletConfiguration(&cfg)
				got := upRenewInterval(c, cfg.NodeLeaseDurationSeconds)
				if got != vectorDuration(t, want.Interval) || !in.LastRenew.Add(got).Equal(want.Next) {
					fail(got, want.Interval)
				}
			case "node.StatusUpdate":
				var in struct {
					Changed                bool
					LastReport, Now        time.Time
					Delay, ReportFrequency string
				}
				var want node.StatusReport
				unmarshal(&in, &want)
				var cfg kubeletv1beta1.KubeletConfiguration
				cfg.NodeStatusReportFrequency.Duration = vectorDuration(t, in.ReportFrequency)
				kubeletdefaults.SetDefaults_KubeletConfiguration(&cfg)
				got := upStatusUpdate(in.Changed, in.LastReport, vectorDuration(t, in.Delay), cfg.NodeStatusReportFrequency.Duration, in.Now)
				if got != want {
					fail(got, want)
				}
			case "node.StatusReportFrequency":
				var in struct{ NodeStatusUpdateFrequency, NodeStatusReportFrequency string }
				var want struct{ ReportFrequency string }
				unmarshal(&in, &want)
				var cfg kubeletv1beta1.KubeletConfiguration
				cfg.NodeStatusUpdateFrequency.Duration = vectorDuration(t, in.NodeStatusUpdateFrequency)
				cfg.NodeStatusReportFrequency.Duration = vectorDuration(t, in.NodeStatusReportFrequency)
				kubeletdefaults.SetDefaults_KubeletConfiguration(&cfg)
				if got := cfg.NodeStatusReportFrequency.Duration; got != vectorDuration(t, want.ReportFrequency) {
					fail(got, want.ReportFrequency)
				}
			default:
				continue
			}
			checked++
		}
	}
	if checked < 35 {
		t.Fatalf("checked only %d vectors", checked)
	}
	t.Logf("%d kubelet vectors replayed through upstream", checked)
}
