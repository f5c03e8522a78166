package difftest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"pgregory.net/rapid"
)

// DrawHashTemplate draws a pod template for the revision hashes: the fields
// of DrawPodTemplate plus what stresses the JSON round trip of the revision
// patch: int64 values above 2^53, HTML characters and non-ASCII text,
// empty and absent labels.
func DrawHashTemplate(t *rapid.T) corev1.PodTemplateSpec {
	tm := DrawPodTemplate(t)
	if rapid.IntRange(0, 9).Draw(t, "noLabels") == 0 {
		tm.Labels = nil
	}
	if rapid.Bool().Draw(t, "bigInts") {
		g := rapid.SampledFrom([]int64{0, 1 << 53, 1<<53 + 1, math.MaxInt64, 123456789012345678}).Draw(t, "bigGrace")
		tm.Spec.TerminationGracePeriodSeconds = &g
		if rapid.Bool().Draw(t, "deadline") {
			d := rapid.Int64Range(1, math.MaxInt64).Draw(t, "activeDeadline")
			tm.Spec.ActiveDeadlineSeconds = &d
		}
	}
	if rapid.Bool().Draw(t, "odd") {
		if tm.Annotations == nil {
			tm.Annotations = map[string]string{}
		}
		tm.Annotations["note"] = rapid.SampledFrom([]string{"<b>&amp;</b>", "héllo ✓", "a\u2028b", "tab\tquote\"", ""}).Draw(t, "oddV")
	}
	if rapid.Bool().Draw(t, "nodeSelector") {
		tm.Spec.NodeSelector = map[string]string{"zone": rapid.SampledFrom([]string{"a", "b"}).Draw(t, "zone")}
	}
	return tm
}

// DrawOwnerName draws an owner name, sometimes longer than the 223 bytes a
// revision name keeps.
func DrawOwnerName(t *rapid.T) string {
	if rapid.IntRange(0, 9).Draw(t, "longName") == 0 {
		return strings.Repeat("s", rapid.IntRange(220, 253).Draw(t, "nameLen"))
	}
	return rapid.StringMatching(`[a-z][a-z0-9-]{0,12}`).Draw(t, "name")
}

// RevisionDiff names the first difference between two revisions in what
// upstream's newRevision / snapshot set (the namespace, which upstream's
// history client sets on create, is not compared).
func RevisionDiff(got, want *appsv1.ControllerRevision) string {
	switch {
	case got.Name != want.Name:
		return "name " + got.Name + " != " + want.Name
	case !bytes.Equal(got.Data.Raw, want.Data.Raw):
		return "data\n" + string(got.Data.Raw) + "\n" + string(want.Data.Raw)
	case got.Revision != want.Revision:
		return "revision"
	case !mapsEqual(got.Labels, want.Labels):
		return fmt.Sprintf("labels %v != %v", got.Labels, want.Labels)
	case !mapsEqual(got.Annotations, want.Annotations):
		return fmt.Sprintf("annotations %v != %v", got.Annotations, want.Annotations)
	}
	g, _ := json.Marshal(got.OwnerReferences)
	w, _ := json.Marshal(want.OwnerReferences)
	if !bytes.Equal(g, w) {
		return "owners " + string(g) + " != " + string(w)
	}
	return ""
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// PodJSON is a pod's JSON with its volumes sorted by name (upstream
// orders claim volumes by Go map iteration).
func PodJSON(p *corev1.Pod) string {
	c := p.DeepCopy()
	c.APIVersion, c.Kind = "", ""
	slices.SortStableFunc(c.Spec.Volumes, func(a, b corev1.Volume) int { return strings.Compare(a.Name, b.Name) })
	b, _ := json.Marshal(c)
	return string(b)
}

// DrawPodTemplate draws a pod template with modelled and unmodelled fields.
func DrawPodTemplate(t *rapid.T) corev1.PodTemplateSpec {
	var tm corev1.PodTemplateSpec
	tm.Labels = map[string]string{"app": rapid.SampledFrom([]string{"web", "api"}).Draw(t, "app")}
	if rapid.Bool().Draw(t, "ann") {
		tm.Annotations = map[string]string{"a": rapid.StringMatching(`[a-z0-9]{0,6}`).Draw(t, "annV")}
	}
	for i := range rapid.IntRange(1, 3).Draw(t, "containers") {
		c := corev1.Container{Name: "c" + string(rune('a'+i)), Image: rapid.StringMatching(`[a-z]{1,6}:[0-9]{1,2}`).Draw(t, "image")}
		if rapid.Bool().Draw(t, "env") {
			c.Env = []corev1.EnvVar{{Name: "K", Value: rapid.StringMatching(`[a-z]{0,4}`).Draw(t, "envV")}}
		}
		if rapid.Bool().Draw(t, "limits") {
			c.Resources.Limits = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(rapid.SampledFrom([]string{"64Mi", "1Gi", "1024Mi"}).Draw(t, "mem"))}
		}
		tm.Spec.Containers = append(tm.Spec.Containers, c)
	}
	if rapid.Bool().Draw(t, "grace") {
		g := rapid.Int64Range(0, 60).Draw(t, "graceS")
		tm.Spec.TerminationGracePeriodSeconds = &g
	}
	tm.Spec.RestartPolicy = rapid.SampledFrom([]corev1.RestartPolicy{"", corev1.RestartPolicyAlways}).Draw(t, "restart")
	return tm
}

// ReadRealList reads the items of a kubectl List in k8s/testdata/real.
func ReadRealList[T any](t *testing.T, name string) []*T {
	t.Helper()
	b, err := os.ReadFile(Repo("k8s", "testdata", "real", name))
	if err != nil {
		t.Fatal(err)
	}
	var l struct {
		Items []T `json:"items"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	out := make([]*T, len(l.Items))
	for i := range l.Items {
		out[i] = &l.Items[i]
	}
	return out
}
