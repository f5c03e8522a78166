package statefulset

import (
	"encoding/json"
	"strings"
	"testing"
)

// realStatefulSet is a StatefulSet as kubectl get -o json prints it:
// apiVersion, kind, managedFields, the whole pod template, claim templates
// as PersistentVolumeClaim objects, status, and a field kubesem does not
// know.
const realStatefulSet = `{
  "apiVersion": "apps/v1",
  "kind": "StatefulSet",
  "metadata": {
    "name": "db",
    "namespace": "data",
    "uid": "00000030-0000-4000-8000-000000000030",
    "resourceVersion": "1048",
    "creationTimestamp": "2026-11-20T00:00:00Z",
    "generation": 2,
    "managedFields": [
      {
        "manager": "kube-controller-manager",
        "operation": "Update",
        "apiVersion": "v1",
        "time": "2026-11-20T00:00:00Z",
        "fieldsType": "FieldsV1",
        "fieldsV1": {
          "f:status": {}
        }
      }
    ],
    "labels": {
      "app": "db"
    },
    "annotations": {
      "kubectl.kubernetes.io/last-applied-configuration": "{}"
    }
  },
  "spec": {
    "replicas": 3,
    "serviceName": "db",
    "podManagementPolicy": "OrderedReady",
    "revisionHistoryLimit": 10,
    "selector": {
      "matchLabels": {
        "app": "db"
      }
    },
    "template": {
      "metadata": {
        "creationTimestamp": null,
        "labels": {
          "app": "db"
        }
      },
      "spec": {
        "containers": [
          {
            "name": "app",
            "image": "postgres:16.4",
            "imagePullPolicy": "IfNotPresent",
            "resources": {
              "requests": {
                "cpu": "100m"
              }
            },
            "terminationMessagePath": "/dev/termination-log",
            "terminationMessagePolicy": "File"
          }
        ],
        "restartPolicy": "Always",
        "dnsPolicy": "ClusterFirst",
        "schedulerName": "default-scheduler",
        "securityContext": {},
        "terminationGracePeriodSeconds": 30
      }
    },
    "updateStrategy": {
      "type": "RollingUpdate",
      "rollingUpdate": {
        "partition": 1
      }
    },
    "persistentVolumeClaimRetentionPolicy": {
      "whenDeleted": "Retain",
      "whenScaled": "Retain"
    },
    "minReadySeconds": 0,
    "volumeClaimTemplates": [
      {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": {
          "name": "data",
          "creationTimestamp": null
        },
        "spec": {
          "accessModes": [
            "ReadWriteOnce"
          ],
          "resources": {
            "requests": {
              "storage": "10Gi"
            }
          },
          "volumeMode": "Filesystem"
        },
        "status": {
          "phase": "Pending"
        }
      }
    ],
    "futureField": {
      "x": 1
    }
  },
  "status": {
    "replicas": 3,
    "readyReplicas": 3,
    "availableReplicas": 3,
    "currentReplicas": 2,
    "updatedReplicas": 1,
    "currentRevision": "db-7c9f5b8d4",
    "updateRevision": "db-5d8b7f9c6",
    "collisionCount": 0,
    "observedGeneration": 2,
    "conditions": []
  }
}`

// TestDecodeRealStatefulSet: a StatefulSet exactly as the API server
// returns it decodes; the claim templates keep their names.
func TestDecodeRealStatefulSet(t *testing.T) {
	t.Parallel()
	var s StatefulSet
	if err := json.Unmarshal([]byte(realStatefulSet), &s); err != nil {
		t.Fatal(err)
	}
	if s.Name != "db" || s.Replicas() != 3 || s.Strategy() != RollingUpdate || s.Status.UpdateRevision != "db-5d8b7f9c6" {
		t.Errorf("decoded %+v", s)
	}
	if p, ok := s.Partition(); !ok || p != 1 {
		t.Errorf("partition = %d, %v; want 1", p, ok)
	}
	if got := strings.Join(templateNames(s.Spec.VolumeClaimTemplates), ","); got != "data" {
		t.Errorf("volumeClaimTemplates = %q, want data", got)
	}
	if err := Validate(&StatefulSet{ObjectMeta: s.ObjectMeta, Spec: func() Spec { sp := s.Spec; sp.TemplateRevision = "db-1"; return sp }()}); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

// TestClaimTemplatesJSON: the templates are PersistentVolumeClaim objects;
// a bare name (the former flattened form) is not one.
func TestClaimTemplatesJSON(t *testing.T) {
	t.Parallel()
	var s Spec
	in := `{"volumeClaimTemplates":[{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"www","labels":{"a":"b"}},"spec":{"accessModes":["ReadWriteOnce"]}},{"metadata":{"name":"logs"}}]}`
	if err := json.Unmarshal([]byte(in), &s); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(templateNames(s.VolumeClaimTemplates), ","); got != "www,logs" {
		t.Errorf("templates = %q, want www,logs", got)
	}
	if err := json.Unmarshal([]byte(`{"volumeClaimTemplates":["www"]}`), &s); err == nil {
		t.Error("a bare template name decoded without error")
	}
	b, err := json.Marshal(Spec{VolumeClaimTemplates: templates("www")})
	if err != nil || !strings.Contains(string(b), `"volumeClaimTemplates":[{"metadata":{"name":"www"}}]`) {
		t.Errorf("Marshal = %s, %v", b, err)
	}
}
