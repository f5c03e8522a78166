package deployment_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
)

// The template-equality differential: random pairs of hand-trimmed pod
// templates (one base template, each side spelt with its own choice of
// equivalent spellings — a field absent, null, empty or zero; a quantity
// in another unit; a default spelt out or left to the server — and
// sometimes a real change) are decoded by the API machinery (the legacy
// scheme's deserializer, then its defaulting, as the API server stores a
// Deployment) and compared by upstream's EqualIgnoreHash; kubesem answers
// rollout.FindNewReplicaSet for a Deployment with one template and a
// ReplicaSet with the other. They must agree on every pair.

const templatePairs = 12000

// teSide is one side of a pair: its spelling choices.
type templateChoice struct {
	name  string
	apply func(r *rand.Rand, tpl map[string]any)
}

func templateContainer(tpl map[string]any) map[string]any {
	return tpl["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
}

func templateSpec(tpl map[string]any) map[string]any { return tpl["spec"].(map[string]any) }

// templateBase is the base template: what both sides mean before any spelling.
type templateBase struct {
	image  string
	cpu    int // millicores, 0: none
	memMi  int // MiB, 0: none
	env    []string
	labels map[string]string
	port   int
	probe  bool
	volume string // "", "emptyDir", "secret", "configMap", "hostPath", "projected"
	// fieldRef: an env var from the pod's name; init: an init container;
	// preStop: an HTTP preStop hook.
	fieldRef, init, preStop bool
	// tinyCPU: a CPU limit under 1m, which defaulting rounds up to 1m.
	tinyCPU bool
}

// templateImages are images whose default pull policy differs: tagged, untagged,
// latest, with a registry port, digested, and not a valid reference.
var templateImages = []string{"nginx:1.25", "nginx", "nginx:latest", "registry.example/app:v2", "localhost:5000/app",
	"localhost:5000/app:1.0", "app@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "Nginx:1"}

func templateRandomBase(r *rand.Rand) templateBase {
	b := templateBase{
		image:  templateImages[r.IntN(len(templateImages))],
		labels: map[string]string{"app": "web"},
	}
	if r.IntN(2) == 0 {
		b.cpu = []int{100, 250, 500, 1000, 1500}[r.IntN(5)]
	}
	if r.IntN(2) == 0 {
		b.memMi = []int{64, 512, 1024, 2048}[r.IntN(4)]
	}
	for i := range r.IntN(3) {
		b.env = append(b.env, fmt.Sprintf("V%d", i))
	}
	if r.IntN(2) == 0 {
		b.port = 8080
	}
	b.probe = r.IntN(3) == 0
	b.volume = []string{"", "emptyDir", "secret", "configMap", "hostPath", "projected"}[r.IntN(6)]
	b.fieldRef = r.IntN(4) == 0
	b.init = r.IntN(4) == 0
	b.preStop = r.IntN(4) == 0
	b.tinyCPU = r.IntN(6) == 0
	return b
}

// templateCPU spells millicores m as a quantity, in one of its spellings.
func templateCPU(r *rand.Rand, m int) any {
	switch r.IntN(4) {
	case 0:
		return fmt.Sprintf("%dm", m)
	case 1:
		if m%1000 == 0 {
			return fmt.Sprint(m / 1000)
		}
		return fmt.Sprintf("%g", float64(m)/1000)
	case 2:
		return json.Number(fmt.Sprintf("%g", float64(m)/1000))
	}
	return fmt.Sprintf("%de-3", m)
}

// templateMem spells MiB n as a quantity, in one of its spellings.
func templateMem(r *rand.Rand, n int) any {
	switch r.IntN(4) {
	case 0:
		return fmt.Sprintf("%dMi", n)
	case 1:
		return fmt.Sprint(n * 1024 * 1024)
	case 2:
		if n%1024 == 0 {
			return fmt.Sprintf("%dGi", n/1024)
		}
		return fmt.Sprintf("%dKi", n*1024)
	}
	return json.Number(fmt.Sprint(n * 1024 * 1024))
}

// templateRender writes the base template with spelling choices drawn from r;
// change, when not "", is a real change applied to this side.
func templateRender(r *rand.Rand, b templateBase, change string, classes map[string]bool) map[string]any {
	c := map[string]any{"name": "web", "image": b.image}
	spec := map[string]any{"containers": []any{c}}
	meta := map[string]any{}
	labels := map[string]any{}
	for k, v := range b.labels {
		labels[k] = v
	}
	meta["labels"] = labels
	tpl := map[string]any{"metadata": meta, "spec": spec}
	pick := func(class string, n int) int {
		k := r.IntN(n)
		if k != 0 {
			classes[class] = true
		}
		return k
	}
	// resources: the base's values, spelt in any unit; an empty
	// requirement absent, {}, null or with empty lists.
	res := map[string]any{}
	requests := map[string]any{}
	if b.cpu > 0 {
		requests["cpu"] = templateCPU(r, b.cpu)
		classes["quantity"] = true
	}
	if b.memMi > 0 {
		requests["memory"] = templateMem(r, b.memMi)
		classes["quantity"] = true
	}
	if len(requests) > 0 {
		res["requests"] = requests
	} else {
		switch pick("empty-requests", 3) {
		case 1:
			res["requests"] = map[string]any{}
		case 2:
			res["requests"] = nil
		}
	}
	switch pick("empty-limits", 3) {
	case 1:
		res["limits"] = map[string]any{}
	case 2:
		res["limits"] = nil
	}
	if len(res) > 0 || pick("resources-{}", 2) == 1 {
		c["resources"] = res
	} else if pick("resources-null", 2) == 1 {
		c["resources"] = nil
	}
	// env: the base's variables, or an empty list absent, [] or null.
	if len(b.env) > 0 {
		var env []any
		for _, n := range b.env {
			e := map[string]any{"name": n, "value": "x"}
			if pick("env-valueFrom-null", 3) == 1 {
				e["valueFrom"] = nil
			}
			env = append(env, e)
		}
		c["env"] = env
	} else {
		switch pick("env-empty", 3) {
		case 1:
			c["env"] = []any{}
		case 2:
			c["env"] = nil
		}
	}
	// ports: hostPort 0 and hostIP "" are absent.
	if b.port > 0 {
		p := map[string]any{"containerPort": json.Number(fmt.Sprint(b.port))}
		if pick("hostPort-0", 2) == 1 {
			p["hostPort"] = json.Number("0")
		}
		if pick("hostIP-empty", 2) == 1 {
			p["hostIP"] = ""
		}
		c["ports"] = []any{p}
	} else if pick("ports-empty", 2) == 1 {
		c["ports"] = []any{}
	}
	// Zero scalars and empty collections of the container and the pod.
	if pick("workingDir-empty", 2) == 1 {
		c["workingDir"] = ""
	}
	if pick("stdin-false", 2) == 1 {
		c["stdin"] = false
	}
	if pick("args-empty", 2) == 1 {
		c["args"] = []any{}
	}
	if pick("lifecycle-null", 2) == 1 {
		c["lifecycle"] = nil
	}
	if pick("volumeMounts-empty", 2) == 1 {
		c["volumeMounts"] = []any{}
	}
	if pick("imagePullSecrets-empty", 2) == 1 {
		spec["imagePullSecrets"] = []any{}
	}
	if pick("hostPID-false", 2) == 1 {
		spec["hostPID"] = false
	}
	if pick("serviceAccountName-empty", 2) == 1 {
		spec["serviceAccountName"] = ""
	}
	if pick("hostAliases-null", 2) == 1 {
		spec["hostAliases"] = nil
	}
	if pick("annotations-empty", 2) == 1 {
		meta["annotations"] = map[string]any{}
	}
	if pick("creationTimestamp-null", 2) == 1 {
		meta["creationTimestamp"] = nil
	}
	// Spellings that API defaulting makes equal: a default spelt out, or
	// left to the server.
	if pick("default-terminationMessagePath", 4) == 1 {
		c["terminationMessagePath"] = "/dev/termination-log"
	}
	if pick("default-terminationMessagePolicy", 4) == 1 {
		c["terminationMessagePolicy"] = "File"
	}
	if pick("default-imagePullPolicy", 3) == 1 {
		c["imagePullPolicy"] = []string{"Always", "IfNotPresent"}[r.IntN(2)]
	}
	if pick("default-dnsPolicy", 4) == 1 {
		spec["dnsPolicy"] = "ClusterFirst"
	}
	if pick("default-schedulerName", 4) == 1 {
		spec["schedulerName"] = "default-scheduler"
	}
	if pick("default-pod-securityContext", 4) == 1 {
		spec["securityContext"] = map[string]any{}
	}
	if pick("default-restartPolicy", 4) == 1 {
		spec["restartPolicy"] = "Always"
	}
	if pick("default-terminationGracePeriodSeconds", 4) == 1 {
		spec["terminationGracePeriodSeconds"] = json.Number("30")
	}
	if p := anyList(c["ports"]); len(p) > 0 && pick("default-protocol", 2) == 1 {
		p[0].(map[string]any)["protocol"] = "TCP"
	}
	if b.probe {
		probe := map[string]any{"httpGet": map[string]any{"port": json.Number("8080")}}
		if pick("default-probe-path", 2) == 1 {
			probe["httpGet"].(map[string]any)["path"] = "/"
		}
		if pick("default-probe-scheme", 2) == 1 {
			probe["httpGet"].(map[string]any)["scheme"] = "HTTP"
		}
		if pick("default-probe-period", 2) == 1 {
			probe["periodSeconds"] = json.Number("10")
		}
		if pick("default-probe-thresholds", 2) == 1 {
			probe["timeoutSeconds"] = json.Number("1")
			probe["successThreshold"] = json.Number("1")
			probe["failureThreshold"] = json.Number("3")
		}
		c["readinessProbe"] = probe
	}
	if b.volume != "" {
		v := map[string]any{"name": "data"}
		switch b.volume {
		case "emptyDir":
			if pick("default-emptyDir", 2) == 1 {
				v["emptyDir"] = map[string]any{}
			}
		case "secret":
			s := map[string]any{"secretName": "s"}
			if pick("default-defaultMode", 2) == 1 {
				s["defaultMode"] = json.Number("420")
			}
			v["secret"] = s
		case "configMap":
			s := map[string]any{"name": "cm"}
			if pick("default-configMap-defaultMode", 2) == 1 {
				s["defaultMode"] = json.Number("420")
			}
			v["configMap"] = s
		case "hostPath":
			s := map[string]any{"path": "/var/log"}
			if pick("default-hostPath-type", 2) == 1 {
				s["type"] = ""
			}
			v["hostPath"] = s
		case "projected":
			tok := map[string]any{"path": "token"}
			if pick("default-expirationSeconds", 2) == 1 {
				tok["expirationSeconds"] = json.Number("3600")
			}
			s := map[string]any{"sources": []any{map[string]any{"serviceAccountToken": tok}}}
			if pick("default-projected-defaultMode", 2) == 1 {
				s["defaultMode"] = json.Number("420")
			}
			v["projected"] = s
		}
		spec["volumes"] = []any{v}
	}
	if b.fieldRef {
		ref := map[string]any{"fieldPath": "metadata.name"}
		if pick("default-fieldRef-apiVersion", 2) == 1 {
			ref["apiVersion"] = "v1"
		}
		c["env"] = append(anyList(c["env"]), map[string]any{"name": "POD", "valueFrom": map[string]any{"fieldRef": ref}})
	}
	if b.init {
		ic := map[string]any{"name": "init", "image": "busybox:1.36"}
		if pick("default-init-pullPolicy", 2) == 1 {
			ic["imagePullPolicy"] = "IfNotPresent"
		}
		if pick("default-init-terminationMessagePolicy", 2) == 1 {
			ic["terminationMessagePolicy"] = "File"
		}
		if pick("init-resources-{}", 2) == 1 {
			ic["resources"] = map[string]any{}
		}
		spec["initContainers"] = []any{ic}
	}
	if b.preStop {
		get := map[string]any{"port": json.Number("8080")}
		if pick("default-preStop-path", 2) == 1 {
			get["path"] = "/"
		}
		c["lifecycle"] = map[string]any{"preStop": map[string]any{"httpGet": get}}
	}
	if b.tinyCPU && pick("default-milli-rounding", 1) == 0 {
		lim := map[string]any{"cpu": []any{"0.0001", "1m", "0.001", "100u"}[r.IntN(4)]}
		res["limits"] = lim
		c["resources"] = res
		classes["default-milli-rounding"] = true
	}
	// A pointer present but empty is a real difference in decoding.
	if pick("container-securityContext-{}", 12) == 1 {
		c["securityContext"] = map[string]any{}
	}
	switch change {
	case "image":
		c["image"] = b.image + "-other"
	case "cpu":
		if b.cpu > 0 {
			requests["cpu"] = fmt.Sprintf("%dm", b.cpu+1)
		} else {
			res["limits"] = map[string]any{"cpu": "1m"}
			c["resources"] = res
		}
	case "env":
		c["env"] = append([]any{map[string]any{"name": "EXTRA", "value": ""}}, anyList(c["env"])...)
	case "label":
		labels["tier"] = "front"
	case "annotation":
		meta["annotations"] = map[string]any{"a": ""}
	case "workingDir":
		c["workingDir"] = "/srv"
	}
	return tpl
}

func anyList(v any) []any {
	l, _ := v.([]any)
	return l
}

// templateUpstream decodes a Deployment with template tpl as the API server
// does, defaulted or not.
func templateUpstream(t *testing.T, tpl map[string]any, defaulted bool) *appsv1.Deployment {
	t.Helper()
	raw, err := json.Marshal(map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "d", "namespace": "default"},
		"spec": map[string]any{
			"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
			"template": tpl,
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	obj, _, err := legacyscheme.Codecs.UniversalDeserializer().Decode(raw, nil, &appsv1.Deployment{})
	if err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	d := obj.(*appsv1.Deployment)
	if defaulted {
		legacyscheme.Scheme.Default(d)
	}
	return d
}

// templateRequest is the rollout.FindNewReplicaSet input for a Deployment with
// template a and one ReplicaSet with template b.
func templateRequest(a, b map[string]any) map[string]any {
	return map[string]any{
		"deployment": map[string]any{
			"metadata": map[string]any{"name": "d", "namespace": "default", "uid": "d-uid"},
			"spec": map[string]any{
				"replicas": 1,
				"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
				"template": a,
			},
		},
		"replicaSets": []any{map[string]any{
			"metadata": map[string]any{"name": "d-rs", "namespace": "default", "uid": "rs-uid", "creationTimestamp": "2026-01-01T00:00:00Z"},
			"spec":     map[string]any{"replicas": 1, "selector": map[string]any{"matchLabels": map[string]any{"app": "web"}}, "template": b},
		}},
	}
}

// templateKubesem is kubesem's answer: whether the ReplicaSet's template is the
// Deployment's.
func templateKubesem(t *testing.T, in map[string]any) bool {
	t.Helper()
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := conformance.Kubesem().Decide("rollout.FindNewReplicaSet", nil, raw)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Name  *string         `json:"name"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(out, &got); err != nil || got.Error != nil {
		t.Fatalf("kubesem answered %s for %s", out, raw)
	}
	return got.Name != nil
}

// templateUpstreamEqual is EqualIgnoreHash on the two templates as the API
// machinery decodes them (defaulted or not).
func templateUpstreamEqual(t *testing.T, a, b map[string]any, defaulted bool) bool {
	da, db := templateUpstream(t, a, defaulted), templateUpstream(t, b, defaulted)
	return deploymentutil.EqualIgnoreHash(&da.Spec.Template, &db.Spec.Template)
}

// templateVectorFile holds the vectors this differential writes.
const templateVectorFile = "rollout/template_equality.json"

func TestTemplateEqualityDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(36, 3))
	changes := []string{"image", "cpu", "env", "label", "annotation", "workingDir"}
	var agreeEqual, agreeDiffer, byDefaulting int
	classSeen := map[string]int{}
	var picked []conformance.Vector
	perKind := map[string]int{}
	for i := range templatePairs {
		base := templateRandomBase(r)
		change := ""
		if r.IntN(3) == 0 {
			change = changes[r.IntN(len(changes))]
		}
		ca, cb := map[string]bool{}, map[string]bool{}
		a := templateRender(r, base, "", ca)
		b := templateRender(r, base, change, cb)
		for k := range ca {
			classSeen[k]++
		}
		for k := range cb {
			classSeen[k]++
		}
		in := templateRequest(a, b)
		got := templateKubesem(t, in)
		decoded := templateUpstreamEqual(t, a, b, false)
		defaulted := templateUpstreamEqual(t, a, b, true)
		if got != defaulted {
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			t.Fatalf("pair %d: kubesem same=%v, EqualIgnoreHash after decoding and defaulting=%v (without defaulting: %v)\n a: %s\n b: %s", i, got, defaulted, decoded, ja, jb)
		}
		if decoded != defaulted {
			byDefaulting++
		}
		if got {
			agreeEqual++
		} else {
			agreeDiffer++
		}
		kind := fmt.Sprintf("same=%v change=%q", got, change)
		if perKind[kind] < 4 {
			perKind[kind]++
			var want any = map[string]any{"name": nil}
			if got {
				want = map[string]any{"name": "d-rs"}
			}
			input, _ := json.Marshal(in)
			wantRaw, _ := json.Marshal(want)
			picked = append(picked, conformance.Vector{
				Decision: "rollout.FindNewReplicaSet",
				Name:     fmt.Sprintf("template equality pair %d: %s", i, kind),
				Source:   "upstream:pkg/controller/deployment/util/deployment_util.go EqualIgnoreHash on templates decoded and defaulted by the legacy scheme (v1.36.3); conformance/upstream TestTemplateEqualityDifferential",
				Input:    input,
				Want:     wantRaw,
			})
		}
	}
	t.Logf("%d pairs: %d equal and %d different, kubesem and upstream alike; %d of them equal only once defaulted", templatePairs, agreeEqual, agreeDiffer, byDefaulting)
	if byDefaulting < templatePairs/10 {
		t.Errorf("only %d pairs exercise defaulting", byDefaulting)
	}
	if agreeEqual < templatePairs/10 || agreeDiffer < templatePairs/10 {
		t.Errorf("too few pairs of one kind: %d equal, %d different", agreeEqual, agreeDiffer)
	}
	for _, class := range []string{"quantity", "resources-{}", "env-empty", "hostPort-0", "empty-limits", "annotations-empty",
		"default-imagePullPolicy", "default-protocol", "default-probe-thresholds", "default-emptyDir", "default-defaultMode", "default-milli-rounding",
		"default-configMap-defaultMode", "default-hostPath-type", "default-expirationSeconds", "default-fieldRef-apiVersion",
		"default-init-pullPolicy", "default-preStop-path"} {
		if classSeen[class] < 100 {
			t.Errorf("spelling %q drawn %d times", class, classSeen[class])
		}
	}
	path := difftest.Repo("testdata", templateVectorFile)
	if os.Getenv(difftest.WriteVectorsEnv) == "1" && !t.Failed() {
		sort.SliceStable(picked, func(i, j int) bool { return picked[i].Name < picked[j].Name })
		out, err := json.MarshalIndent(picked, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(out, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTemplateEqualityVectorsUpstream replays every vector of
// testdata/rollout/template_equality.json: its want is upstream's
// EqualIgnoreHash on the decoded, defaulted templates.
func TestTemplateEqualityVectorsUpstream(t *testing.T) {
	raw, err := os.ReadFile(difftest.Repo("testdata", templateVectorFile))
	if err != nil {
		t.Fatal(err)
	}
	var vs []conformance.Vector
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		var in struct {
			Deployment struct {
				Spec struct {
					Template map[string]any `json:"template"`
				} `json:"spec"`
			} `json:"deployment"`
			ReplicaSets []struct {
				Spec struct {
					Template map[string]any `json:"template"`
				} `json:"spec"`
			} `json:"replicaSets"`
		}
		dec := json.NewDecoder(bytes.NewReader(v.Input))
		dec.UseNumber()
		if err := dec.Decode(&in); err != nil || len(in.ReplicaSets) != 1 {
			t.Fatalf("%s: %v", v.Name, err)
		}
		same := templateUpstreamEqual(t, in.Deployment.Spec.Template, in.ReplicaSets[0].Spec.Template, true)
		var want struct {
			Name *string `json:"name"`
		}
		if err := json.Unmarshal(v.Want, &want); err != nil {
			t.Fatal(err)
		}
		if (want.Name != nil) != same {
			t.Errorf("%s: want says same=%v; upstream's EqualIgnoreHash says %v", v.Name, want.Name != nil, same)
		}
	}
	if len(vs) < 20 {
		t.Errorf("%d vectors; want at least 20", len(vs))
	}
	t.Logf("%d template-equality vectors replayed against upstream", len(vs))
}
