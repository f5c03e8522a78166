package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// TestIndexedJobManifest: deploy/check/indexed-job.yaml decodes strictly
// as a ConfigMap and an Indexed Job of v1.36.3's API; the Job splits the
// search in as many parts as it has completions, its pods take their part
// from $JOB_COMPLETION_INDEX, and the ConfigMap's scenario is the scale
// goal's (testdata/check/rolling-update.yaml), which kubesem check runs.
func TestIndexedJobManifest(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "..", "deploy", "check", "indexed-job.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(string(data), "\n---\n")
	if len(parts) != 2 {
		t.Fatalf("%d documents; want a ConfigMap and a Job", len(parts))
	}
	var cm corev1.ConfigMap
	if err := yaml.UnmarshalStrict([]byte(parts[0]+"\n"), &cm); err != nil {
		t.Fatalf("ConfigMap: %v", err)
	}
	var job batchv1.Job
	if err := yaml.UnmarshalStrict([]byte(parts[1]), &job); err != nil {
		t.Fatalf("Job: %v", err)
	}
	spec := job.Spec
	if spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion || spec.Completions == nil || spec.Parallelism == nil ||
		*spec.Completions != *spec.Parallelism {
		t.Fatalf("Job spec %+v; want Indexed, completions = parallelism", spec)
	}
	args := spec.Template.Spec.Containers[0].Args
	want := "/" + itoa(*spec.Completions)
	if i := indexOf(args, "--shard"); i < 0 || args[i+1] != want {
		t.Errorf("args %v; want --shard %s", args, want)
	}
	scenario, err := os.ReadFile(filepath.Join("testdata", "check", "rolling-update.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal([]byte(cm.Data["scenario.yaml"]), scenario) {
		t.Error("the ConfigMap's scenario is not testdata/check/rolling-update.yaml")
	}
	if _, err := os.Stat(filepath.Join("..", "..", "deploy", "check", "Dockerfile")); err != nil {
		t.Error(err)
	}
}

func itoa(n int32) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		if n /= 10; n == 0 {
			return string(b)
		}
	}
}

func indexOf(args []string, s string) int {
	for i, a := range args {
		if a == s && i+1 < len(args) {
			return i
		}
	}
	return -1
}
