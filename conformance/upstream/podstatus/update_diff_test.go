package podstatus_test

import (
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	podapi "k8s.io/kubernetes/pkg/api/pod"
	core "k8s.io/kubernetes/pkg/apis/core"
	corev1 "k8s.io/kubernetes/pkg/apis/core/v1"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/podstatus"
)

// updCore converts a kubesem pod to the API server's internal pod the way
// an update request reaches validation: v1 fields, v1 defaults, conversion.
// Metadata is fixed (name, namespace, resourceVersion) so that only the
// spec differs between old and new.
func updCore(p *podstatus.Pod) (*core.Pod, error) {
	u := &v1.Pod{}
	u.Name, u.Namespace, u.ResourceVersion, u.UID = "p", "default", "1", "uid"
	s := &p.Spec
	u.Spec.NodeName = s.NodeName
	u.Spec.NodeSelector = s.NodeSelector
	u.Spec.RestartPolicy = v1.RestartPolicy(s.RestartPolicy)
	u.Spec.Priority = s.Priority
	u.Spec.InitContainers = v1Containers(s.InitContainers)
	u.Spec.Containers = v1Containers(s.Containers)
	for _, g := range s.ReadinessGates {
		u.Spec.ReadinessGates = append(u.Spec.ReadinessGates, v1.PodReadinessGate{ConditionType: v1.PodConditionType(g.ConditionType)})
	}
	u.Spec.TerminationGracePeriodSeconds = s.TerminationGracePeriodSeconds
	u.Spec.ActiveDeadlineSeconds = s.ActiveDeadlineSeconds
	u.Spec.HostNetwork = s.HostNetwork
	for _, t := range s.Tolerations {
		u.Spec.Tolerations = append(u.Spec.Tolerations, v1.Toleration{Key: t.Key, Operator: v1.TolerationOperator(t.Operator), Value: t.Value,
			Effect: v1.TaintEffect(t.Effect), TolerationSeconds: t.TolerationSeconds})
	}
	// Stored pods carry a pull policy, and an update sends it back: were it
	// left to defaulting, a new image with another tag would change it
	// (latest: Always, else IfNotPresent) and the update would be rejected.
	for i := range u.Spec.InitContainers {
		u.Spec.InitContainers[i].ImagePullPolicy = v1.PullIfNotPresent
	}
	for i := range u.Spec.Containers {
		u.Spec.Containers[i].ImagePullPolicy = v1.PullIfNotPresent
	}
	corev1.SetObjectDefaults_Pod(u)
	out := &core.Pod{}
	err := corev1.Convert_v1_Pod_To_core_Pod(u, out, nil)
	return out, err
}

// upstreamUpdate is the API server's verdict on updating old to updated:
// ValidatePodUpdate's errors, with the options the pod strategy derives.
func upstreamUpdate(old, updated *core.Pod) []string {
	opts := podapi.GetValidationOptionsFromPodSpecAndMeta(&updated.Spec, &old.Spec, &updated.ObjectMeta, &old.ObjectMeta)
	var fields []string
	for _, e := range corevalidation.ValidatePodUpdate(updated, old, opts) {
		fields = append(fields, e.Field+" "+string(e.Type))
	}
	return fields
}

// createErrs is what the API server rejects in p on its own (create
// validation), leaving out the fields ValidateUpdate models itself: the
// active deadline and container images.
var modelledField = regexp.MustCompile(`^spec\.(activeDeadlineSeconds|(initC|c)ontainers\[\d+\]\.image)$`)

func createErrs(p *core.Pod) []string {
	opts := podapi.GetValidationOptionsFromPodSpecAndMeta(&p.Spec, nil, &p.ObjectMeta, nil)
	var out []string
	for _, e := range corevalidation.ValidatePodCreate(p, opts) {
		if !modelledField.MatchString(e.Field) {
			out = append(out, e.Field+": "+e.Detail)
		}
	}
	return out
}

// kubesemField is the API field path and error type of a ValidateUpdate
// error, in upstream's spelling.
func kubesemField(err error) string {
	var fe *field.Error
	if !errors.As(err, &fe) {
		return "?"
	}
	kinds := []struct {
		err  error
		kind string
	}{{field.ErrRequired, "FieldValueRequired"}, {field.ErrForbidden, "FieldValueForbidden"}, {field.ErrInvalid, "FieldValueInvalid"}, {field.ErrOverflow, "FieldValueInvalid"}}
	for _, k := range kinds {
		if errors.Is(err, k.err) {
			return fe.Path + " " + k.kind
		}
	}
	return fe.Path + " ?"
}

var images = []string{"nginx:1.25", "nginx:1.26", "busybox", "registry.k8s.io/pause:3.10"}

// updBase draws a pod the API server would have created: valid names,
// images, policies, tolerations and deadlines, defaulted fields set.
func updBase(t *rapid.T) *podstatus.Pod {
	p := &podstatus.Pod{}
	p.Spec.RestartPolicy = rapid.SampledFrom([]podstatus.RestartPolicy{podstatus.RestartAlways, podstatus.RestartOnFailure, podstatus.RestartNever}).Draw(t, "restartPolicy")
	if rapid.Bool().Draw(t, "scheduled") {
		p.Spec.NodeName = rapid.SampledFrom([]string{"node-1", "node-2"}).Draw(t, "nodeName")
	}
	if rapid.Bool().Draw(t, "hasSelector") {
		p.Spec.NodeSelector = map[string]string{"disk": rapid.SampledFrom([]string{"ssd", "hdd"}).Draw(t, "selector")}
	}
	for i := range rapid.IntRange(0, 2).Draw(t, "inits") {
		c := podstatus.Container{Name: "init" + string(rune('a'+i)), Image: rapid.SampledFrom(images).Draw(t, "initImage")}
		if rapid.IntRange(0, 2).Draw(t, "sidecar") == 0 {
			always := podstatus.RestartAlways
			c.RestartPolicy = &always
		}
		p.Spec.InitContainers = append(p.Spec.InitContainers, c)
	}
	for i := range rapid.IntRange(1, 3).Draw(t, "containers") {
		c := podstatus.Container{Name: "app" + string(rune('a'+i)), Image: rapid.SampledFrom(images).Draw(t, "image")}
		if rapid.IntRange(0, 3).Draw(t, "ownPolicy") == 0 {
			pol := rapid.SampledFrom([]podstatus.RestartPolicy{podstatus.RestartAlways, podstatus.RestartOnFailure, podstatus.RestartNever}).Draw(t, "policy")
			c.RestartPolicy = &pol
		}
		p.Spec.Containers = append(p.Spec.Containers, c)
	}
	tgps := rapid.SampledFrom([]int64{30, 30, 0, 1, 5, -1, -30}).Draw(t, "tgps")
	p.Spec.TerminationGracePeriodSeconds = &tgps
	if rapid.Bool().Draw(t, "hasADS") {
		ads := rapid.SampledFrom([]int64{1, 10, 100, math.MaxInt32}).Draw(t, "ads")
		p.Spec.ActiveDeadlineSeconds = &ads
	}
	for range rapid.IntRange(0, 3).Draw(t, "tolerations") {
		p.Spec.Tolerations = append(p.Spec.Tolerations, updToleration(t))
	}
	if rapid.IntRange(0, 3).Draw(t, "hasGate") == 0 {
		p.Spec.ReadinessGates = []podstatus.ReadinessGate{{ConditionType: "example.com/gate"}}
	}
	p.Spec.HostNetwork = rapid.IntRange(0, 5).Draw(t, "hostNetwork") == 0
	return p
}

func updToleration(t *rapid.T) podstatus.Toleration {
	tol := podstatus.Toleration{Key: rapid.SampledFrom([]string{"k1", "k2", "example.com/k"}).Draw(t, "tolKey")}
	if rapid.Bool().Draw(t, "tolExists") {
		tol.Operator = "Exists"
	} else {
		tol.Operator = rapid.SampledFrom([]string{"Equal", ""}).Draw(t, "tolOp")
		tol.Value = rapid.SampledFrom([]string{"v1", "v2", ""}).Draw(t, "tolValue")
	}
	tol.Effect = rapid.SampledFrom([]string{"NoSchedule", "PreferNoSchedule", "NoExecute", ""}).Draw(t, "tolEffect")
	if tol.Effect == "NoExecute" && rapid.Bool().Draw(t, "tolHasSeconds") {
		s := rapid.SampledFrom([]int64{0, 30, 300}).Draw(t, "tolSeconds")
		tol.TolerationSeconds = &s
	}
	return tol
}

func i64(v int64) *int64 { return &v }

// updMutate changes updated in the ways a client may try on a running
// pod: images (valid, empty, padded), containers added or removed, other
// container fields, the deadline in every direction, the grace period
// (negative to 1 and otherwise), tolerations added, removed or modified,
// and the immutable fields.
func updMutate(t *rapid.T, p *podstatus.Pod) {
	s := &p.Spec
	for range rapid.IntRange(0, 3).Draw(t, "mutations") {
		switch rapid.IntRange(0, 12).Draw(t, "mutation") {
		case 0, 1:
			list := &s.Containers
			if len(s.InitContainers) > 0 && rapid.Bool().Draw(t, "onInit") {
				list = &s.InitContainers
			}
			if len(*list) == 0 {
				continue
			}
			i := rapid.IntRange(0, len(*list)-1).Draw(t, "which")
			(*list)[i].Image = rapid.SampledFrom(append([]string{"", " nginx", "nginx:1.27 ", "nginx:1.27"}, images...)).Draw(t, "newImage")
		case 2:
			if rapid.Bool().Draw(t, "add") {
				s.Containers = append(s.Containers, podstatus.Container{Name: "extra", Image: "busybox"})
			} else if len(s.Containers) > 1 {
				s.Containers = s.Containers[:len(s.Containers)-1]
			}
		case 3:
			if rapid.Bool().Draw(t, "addInit") {
				s.InitContainers = append(s.InitContainers, podstatus.Container{Name: "extra-init", Image: "busybox"})
			} else if len(s.InitContainers) > 0 {
				s.InitContainers = s.InitContainers[:len(s.InitContainers)-1]
			}
		case 4:
			i := rapid.IntRange(0, len(s.Containers)-1).Draw(t, "renamed")
			if rapid.Bool().Draw(t, "rename") {
				s.Containers[i].Name = "renamed"
			} else {
				pol := rapid.SampledFrom([]podstatus.RestartPolicy{podstatus.RestartAlways, podstatus.RestartOnFailure, podstatus.RestartNever}).Draw(t, "newPolicy")
				s.Containers[i].RestartPolicy = &pol
			}
		case 5, 6:
			if rapid.IntRange(0, 4).Draw(t, "adsNil") == 0 {
				s.ActiveDeadlineSeconds = nil
			} else {
				s.ActiveDeadlineSeconds = i64(rapid.SampledFrom([]int64{-1, 0, 1, 5, 10, 99, 100, 101, math.MaxInt32 - 1, math.MaxInt32, math.MaxInt32 + 1, math.MaxInt64, math.MinInt64}).Draw(t, "newADS"))
			}
		case 7:
			s.TerminationGracePeriodSeconds = i64(rapid.SampledFrom([]int64{1, 1, 0, 2, 30, -1}).Draw(t, "newTGPS"))
		case 8:
			s.Tolerations = append(s.Tolerations, updToleration(t))
		case 9:
			if len(s.Tolerations) == 0 {
				continue
			}
			i := rapid.IntRange(0, len(s.Tolerations)-1).Draw(t, "tol")
			switch rapid.IntRange(0, 3).Draw(t, "tolChange") {
			case 0:
				s.Tolerations = append(s.Tolerations[:i:i], s.Tolerations[i+1:]...)
			case 1:
				if s.Tolerations[i].Effect == "NoExecute" {
					s.Tolerations[i].TolerationSeconds = i64(rapid.SampledFrom([]int64{0, 60, 3600}).Draw(t, "tolNewSeconds"))
				}
			case 2:
				s.Tolerations[i].TolerationSeconds = nil
			default:
				s.Tolerations[i] = updToleration(t)
			}
		case 10:
			s.NodeName = rapid.SampledFrom([]string{"", "node-1", "node-3"}).Draw(t, "newNode")
		case 11:
			s.NodeSelector = rapid.SampledFrom([]map[string]string{nil, {}, {"disk": "ssd"}, {"disk": "nvme"}}).Draw(t, "newSelector")
		default:
			switch rapid.IntRange(0, 3).Draw(t, "other") {
			case 0:
				s.RestartPolicy = rapid.SampledFrom([]podstatus.RestartPolicy{podstatus.RestartAlways, podstatus.RestartOnFailure, podstatus.RestartNever}).Draw(t, "newRestartPolicy")
			case 1:
				s.HostNetwork = !s.HostNetwork
			case 2:
				s.ReadinessGates = append(s.ReadinessGates, podstatus.ReadinessGate{ConditionType: "example.com/other"})
			default:
				s.Priority = rapid.SampledFrom([]*int32{nil, new(int32)}).Draw(t, "newPriority")
			}
		}
	}
}

func clonePod(p *podstatus.Pod) *podstatus.Pod {
	b, _ := json.Marshal(p)
	var c podstatus.Pod
	_ = json.Unmarshal(b, &c)
	return &c
}

// compareUpdate checks ValidateUpdate(old, updated) against
// ValidatePodUpdate: both accept, or both reject and kubesem's field error
// is one of upstream's. It reports false when the update is out of the
// rule's domain: the old pod or, in a field ValidateUpdate does not model,
// the new pod is invalid on its own.
func compareUpdate(t interface{ Fatalf(string, ...any) }, name string, old, updated *podstatus.Pod, kerr error) bool {
	ok, _ := compareUpdateWhy(t, name, old, updated, kerr)
	return ok
}

// compareUpdateWhy is compareUpdate, also returning the reason a draw
// is out of the domain, or the verdict ("accepted" or the error field).
func compareUpdateWhy(t interface{ Fatalf(string, ...any) }, name string, old, updated *podstatus.Pod, kerr error) (bool, string) {
	co, err := updCore(old)
	if err != nil {
		t.Fatalf("%s: converting old: %v", name, err)
	}
	cn, err := updCore(updated)
	if err != nil {
		t.Fatalf("%s: converting new: %v", name, err)
	}
	if e := append(createErrs(co), createErrs(cn)...); len(e) > 0 {
		return false, e[0]
	}
	up := upstreamUpdate(co, cn)
	switch {
	case kerr == nil && len(up) == 0:
	case kerr == nil:
		t.Fatalf("%s: ValidateUpdate accepts; upstream rejects: %v", name, up)
	case len(up) == 0:
		t.Fatalf("%s: ValidateUpdate = %v; upstream accepts", name, kerr)
	default:
		kf := kubesemField(kerr)
		found := false
		for _, f := range up {
			found = found || f == kf
		}
		if !found {
			t.Fatalf("%s: ValidateUpdate = %s (%v); upstream %v", name, kf, kerr, up)
		}
		return true, kubesemField(kerr)
	}
	return true, "accepted"
}

// TestPodStatusUpdateDifferential: ValidateUpdate agrees with the API
// server's ValidatePodUpdate on random updates of valid pods.
func TestPodStatusUpdateDifferential(t *testing.T) {
	var checked, skipped int
	verdicts, outside := map[string]int{}, map[string]int{}
	rapid.Check(t, func(rt *rapid.T) {
		old := updBase(rt)
		updated := clonePod(old)
		updMutate(rt, updated)
		ok, why := compareUpdateWhy(rt, "update", old, updated, podstatus.ValidateUpdate(old, updated))
		if ok {
			checked++
			verdicts[why]++
		} else {
			skipped++
			outside[why]++
		}
	})
	t.Logf("%d updates compared (%v), %d outside the domain (a pod invalid on its own: %v)", checked, verdicts, skipped, outside)
	if checked < 4*skipped {
		t.Fatalf("too many draws outside the domain: %d compared, %d skipped", checked, skipped)
	}
}

// TestPodStatusUpdateVectorsUpstream replays every podstatus.ValidateUpdate
// vector through ValidatePodUpdate.
func TestPodStatusUpdateVectorsUpstream(t *testing.T) {
	vs, err := conformance.Load(kubesem.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range vs {
		if v.Decision != "podstatus.ValidateUpdate" {
			continue
		}
		var in struct {
			Old podstatus.Pod `json:"old"`
			New podstatus.Pod `json:"new"`
		}
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Fatal(err)
		}
		// Stored pods are defaulted: the grace period is always set.
		for _, p := range []*podstatus.Pod{&in.Old, &in.New} {
			if p.Spec.TerminationGracePeriodSeconds == nil {
				p.Spec.TerminationGracePeriodSeconds = i64(30)
			}
		}
		kerr := podstatus.ValidateUpdate(&in.Old, &in.New)
		if (kerr != nil) != (v.WantError != nil) || kerr != nil && "new."+strings.SplitN(kubesemField(kerr), " ", 2)[0] != v.WantError.Field {
			t.Errorf("%s: ValidateUpdate = %v; vector wants %+v", v.Name, kerr, v.WantError)
		}
		if !compareUpdate(t, v.Name, &in.Old, &in.New, kerr) {
			co, _ := updCore(&in.Old)
			cn, _ := updCore(&in.New)
			t.Errorf("%s: a pod is invalid on its own: old %v, new %v", v.Name, createErrs(co), createErrs(cn))
		}
		n++
	}
	if n < 20 {
		t.Fatalf("only %d vectors", n)
	}
	t.Logf("%d ValidateUpdate vectors replayed through ValidatePodUpdate", n)
}
