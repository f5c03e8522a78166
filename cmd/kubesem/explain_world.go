package main

import (
	"encoding/json"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/podstatus"
)

// exactNamer is the world's namer with v1.36.3's template hashes from the
// k8s adapter, so that every ReplicaSet, ControllerRevision and pod name
// the CLI prints is the one Kubernetes gives (for templates as the API
// server stores them, defaults included). Generated name suffixes and UIDs
// stay cluster.DefaultNamer's deterministic ones: the API server draws them
// at random.
type exactNamer struct{ cluster.DefaultNamer }

// PodTemplateHash is a Deployment's pod-template-hash (and a DaemonSet's
// revision hash): k8s.TemplateHash.
func (exactNamer) PodTemplateHash(t *podstatus.Template, collisionCount *int32) string {
	return k8s.TemplateHash(t, collisionCount)
}

// RevisionHash is a StatefulSet's revision hash: the hash in
// k8s.StatefulSetRevisionName of a set with template t and
// status.collisionCount; "" when the template does not convert.
func (exactNamer) RevisionHash(t *podstatus.Template, collisionCount *int32) string {
	b, err := json.Marshal(t)
	if err != nil {
		return ""
	}
	var api corev1.PodTemplateSpec
	if err := json.Unmarshal(b, &api); err != nil {
		return ""
	}
	const owner = "x"
	set := &appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Template: api}, Status: appsv1.StatefulSetStatus{CollisionCount: collisionCount}}
	set.Name = owner
	name, err := k8s.StatefulSetRevisionName(set)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(name, owner+"-")
}

// newWorld is cluster.New with the exact names every CLI world uses: the
// namer's and rollout.Options.TemplateHash default to v1.36.3's hashes
// (k8s.TemplateHash) unless opts sets its own.
func newWorld(sc cluster.Scenario, opts cluster.Options) (*cluster.World, error) {
	if opts.Namer == nil {
		opts.Namer = exactNamer{}
	}
	if opts.Rollout.TemplateHash == nil {
		opts.Rollout.TemplateHash = k8s.TemplateHash
	}
	return cluster.New(sc, opts)
}

// worldOptions are the world's options for the CLI: v1.36.3's defaults
// with the exact hashes (the namer's, and rollout.Options.TemplateHash).
func worldOptions() cluster.Options {
	opts := cluster.Options{Namer: exactNamer{}}
	opts.Rollout.TemplateHash = k8s.TemplateHash
	return opts
}
