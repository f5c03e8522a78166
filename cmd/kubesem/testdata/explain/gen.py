# Generates the realistic cluster dumps explain's golden tests read:
#   python3 gen.py  (writes shop.json and stateful.json, kubectl Lists, and
#   batch.json, daemons.json and nonodes.json, streams)
# Objects are written as the API server returns them (apiVersion, kind,
# metadata.uid/resourceVersion/managedFields, defaulted specs, status).
import json, copy

NOW = "2026-11-23T12:00:00Z"
uid_n = [0]
def uid(name):
    uid_n[0] += 1
    return "%08x-0000-4000-8000-%012x" % (uid_n[0], uid_n[0])

def meta(kind, ns, name, labels=None, owner=None, created="2026-11-23T10:00:00Z", ann=None, gen=1):
    m = {"name": name, "namespace": ns, "uid": uid(name), "resourceVersion": str(1000 + uid_n[0]),
         "creationTimestamp": created, "generation": gen,
         "managedFields": [{"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "v1", "time": created, "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {}}}]}
    if labels: m["labels"] = dict(labels)
    if ann: m["annotations"] = dict(ann)
    if owner:
        m["ownerReferences"] = [{"apiVersion": owner["apiVersion"], "kind": owner["kind"], "name": owner["metadata"]["name"],
                                 "uid": owner["metadata"]["uid"], "controller": True, "blockOwnerDeletion": True}]
    return m

def container(image, env=None):
    c = {"name": "app", "image": image, "imagePullPolicy": "IfNotPresent", "resources": {"requests": {"cpu": "100m"}},
         "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}
    if env: c["env"] = [{"name": k, "value": v} for k, v in env.items()]
    return c

def podspec(image, env=None, restart="Always"):
    return {"containers": [container(image, env)], "restartPolicy": restart, "dnsPolicy": "ClusterFirst",
            "schedulerName": "default-scheduler", "securityContext": {}, "terminationGracePeriodSeconds": 30}

def template(labels, image, env=None, restart="Always"):
    return {"metadata": {"creationTimestamp": None, "labels": dict(labels)}, "spec": podspec(image, env, restart)}

def deployment(ns, name, replicas, image, env=None, gen=1, observed=1, status=None, paused=False, strategy=None, ann=None, conds=None, deadline=600):
    labels = {"app": name}
    d = {"apiVersion": "apps/v1", "kind": "Deployment",
         "metadata": meta("Deployment", ns, name, labels, gen=gen, ann=ann or {"deployment.kubernetes.io/revision": "1"}),
         "spec": {"replicas": replicas, "revisionHistoryLimit": 10, "progressDeadlineSeconds": deadline,
                  "selector": {"matchLabels": labels}, "template": template(labels, image, env),
                  "strategy": strategy or {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}}},
         "status": dict(status or {}, observedGeneration=observed)}
    if paused: d["spec"]["paused"] = True
    if conds: d["status"]["conditions"] = conds
    return d

def replicaset(dep, hash, replicas, image, env=None, rev="1", ready=None, created="2026-11-23T10:00:00Z"):
    labels = {"app": dep["metadata"]["name"], "pod-template-hash": hash}
    ready = replicas if ready is None else ready
    rs = {"apiVersion": "apps/v1", "kind": "ReplicaSet",
          "metadata": meta("ReplicaSet", dep["metadata"]["namespace"], dep["metadata"]["name"] + "-" + hash, labels, owner=dep, created=created,
                           ann={"deployment.kubernetes.io/revision": rev, "deployment.kubernetes.io/desired-replicas": str(dep["spec"]["replicas"]),
                                "deployment.kubernetes.io/max-replicas": str(dep["spec"]["replicas"] + 1)}),
          "spec": {"replicas": replicas, "selector": {"matchLabels": labels}, "template": template(labels, image, env)},
          "status": {"replicas": replicas, "fullyLabeledReplicas": replicas, "readyReplicas": ready, "availableReplicas": ready, "observedGeneration": 1, "terminatingReplicas": 0}}
    return rs

def pod(owner, suffix, ready=True, phase="Running", created="2026-11-23T10:00:00Z", node="node-1", restarts=0, exit_code=None, labels=None, finalizers=None, index=None, finished=None, waiting=None):
    ns = owner["metadata"]["namespace"]
    labels = labels or owner["spec"]["template"]["metadata"]["labels"]
    p = {"apiVersion": "v1", "kind": "Pod", "metadata": meta("Pod", ns, owner["metadata"]["name"] + "-" + suffix, labels, owner=owner, created=created),
         "spec": dict(copy.deepcopy(owner["spec"]["template"]["spec"]), nodeName=node),
         "status": {"phase": phase, "startTime": created, "qosClass": "Burstable", "hostIP": "10.0.0.1", "podIP": "10.244.0.9"}}
    if finalizers: p["metadata"]["finalizers"] = finalizers
    if index is not None:
        p["metadata"].setdefault("annotations", {})["batch.kubernetes.io/job-completion-index"] = str(index)
    conds = [{"type": "PodScheduled", "status": "True", "lastProbeTime": None, "lastTransitionTime": created}]
    if phase in ("Running", "Pending"):
        conds.append({"type": "Ready", "status": "True" if ready else "False", "lastProbeTime": None, "lastTransitionTime": created})
    p["status"]["conditions"] = conds
    cs = {"name": "app", "image": owner["spec"]["template"]["spec"]["containers"][0]["image"], "imageID": "", "ready": ready and phase == "Running",
          "restartCount": restarts, "started": phase == "Running"}
    if phase == "Running":
        cs["state"] = {"running": {"startedAt": created}} if not waiting else {"waiting": {"reason": waiting}}
    elif phase in ("Succeeded", "Failed"):
        cs["state"] = {"terminated": {"exitCode": exit_code if exit_code is not None else (0 if phase == "Succeeded" else 1),
                                      "reason": "Completed" if phase == "Succeeded" else "Error", "startedAt": created, "finishedAt": finished or created}}
    else:
        cs["state"] = {"waiting": {"reason": waiting or "ContainerCreating"}}
    p["status"]["containerStatuses"] = [cs]
    return p

def pdb(ns, name, app, min_available, status):
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": meta("PodDisruptionBudget", ns, name, gen=1),
            "spec": {"minAvailable": min_available, "selector": {"matchLabels": {"app": app}}},
            "status": dict(status, observedGeneration=1)}

def job(ns, name, spec, status, owner=None, labels=None, created="2026-11-23T11:00:00Z"):
    labels = labels or {"job-name": name}
    j = {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta("Job", ns, name, labels, owner=owner, created=created),
         "spec": dict({"backoffLimit": 6, "completionMode": "NonIndexed", "completions": 1, "parallelism": 1, "suspend": False,
                       "podReplacementPolicy": "TerminatingOrFailed", "manualSelector": False,
                       "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": "x"}},
                       "template": template(labels, "busybox:1.36", restart="Never")}, **spec),
         "status": status}
    return j

def cronjob(ns, name, schedule, spec=None, status=None, created="2026-11-20T00:00:00Z"):
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta("CronJob", ns, name, created=created),
            "spec": dict({"schedule": schedule, "concurrencyPolicy": "Allow", "suspend": False, "successfulJobsHistoryLimit": 3, "failedJobsHistoryLimit": 1,
                          "jobTemplate": {"metadata": {"creationTimestamp": None}, "spec": {"backoffLimit": 6, "template": template({"cron": name}, "busybox:1.36", restart="OnFailure")}}},
                         **(spec or {})),
            "status": status or {}}

def other(kind, api, ns, name):
    o = {"apiVersion": api, "kind": kind, "metadata": meta(kind, ns, name), "spec": {}, "status": {}}
    if ns is None: del o["metadata"]["namespace"]
    return o

shop = []
# web: mid-rollout v1 → v2 (env change), new pods partly ready.
web = deployment("shop", "web", 4, "shop/web:2.1", {"MODE": "v2"}, gen=2, observed=2, ann={"deployment.kubernetes.io/revision": "2"},
                 status={"replicas": 5, "updatedReplicas": 2, "readyReplicas": 4, "availableReplicas": 4, "unavailableReplicas": 1},
                 conds=[{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable", "message": "Deployment has minimum availability.", "lastUpdateTime": "2026-11-23T10:00:30Z", "lastTransitionTime": "2026-11-23T10:00:30Z"},
                        {"type": "Progressing", "status": "True", "reason": "ReplicaSetUpdated", "message": "ReplicaSet \"web-v2\" is progressing.", "lastUpdateTime": "2026-11-23T11:59:00Z", "lastTransitionTime": "2026-11-23T10:00:00Z"}])
w1 = replicaset(web, "7d4b9c8f5", 3, "shop/web:2.1", {"MODE": "v1"}, rev="1", created="2026-11-23T09:00:00Z")
w2 = replicaset(web, "5f6c7b8d9", 2, "shop/web:2.1", {"MODE": "v2"}, rev="2", ready=1, created="2026-11-23T11:58:00Z")
shop += [web, w1, w2]
shop += [pod(w1, s, created="2026-11-23T09:00:10Z", node="node-%d" % i) for i, s in enumerate(["aaaaa", "bbbbb", "ccccc"])]
shop += [pod(w2, "ddddd", created="2026-11-23T11:58:10Z", node="node-2"), pod(w2, "eeeee", ready=False, created="2026-11-23T11:59:50Z", node="node-1")]
shop.append(pdb("shop", "web-pdb", "web", 3, {"currentHealthy": 4, "desiredHealthy": 3, "disruptionsAllowed": 1, "expectedPods": 4}))
# api: complete and steady.
api = deployment("shop", "api", 2, "shop/api:1.4", gen=1, observed=1,
                 status={"replicas": 2, "updatedReplicas": 2, "readyReplicas": 2, "availableReplicas": 2},
                 conds=[{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable", "message": "Deployment has minimum availability.", "lastUpdateTime": "2026-11-23T08:00:00Z", "lastTransitionTime": "2026-11-23T08:00:00Z"},
                        {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable", "message": "ReplicaSet \"api-1\" has successfully progressed.", "lastUpdateTime": "2026-11-23T08:00:00Z", "lastTransitionTime": "2026-11-23T08:00:00Z"}])
a1 = replicaset(api, "6b5d7c9f4", 2, "shop/api:1.4", created="2026-11-23T08:00:00Z")
shop += [api, a1, pod(a1, "fffff", created="2026-11-23T08:00:05Z"), pod(a1, "ggggg", created="2026-11-23T08:00:05Z", node="node-2")]
# cart: stuck — new image cannot be pulled, progress deadline passed.
cart = deployment("shop", "cart", 2, "shop/cart:9.9-typo", gen=2, observed=2, ann={"deployment.kubernetes.io/revision": "2"},
                  status={"replicas": 3, "updatedReplicas": 1, "readyReplicas": 2, "availableReplicas": 2, "unavailableReplicas": 1},
                  conds=[{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable", "message": "Deployment has minimum availability.", "lastUpdateTime": "2026-11-23T09:00:00Z", "lastTransitionTime": "2026-11-23T09:00:00Z"},
                         {"type": "Progressing", "status": "True", "reason": "ReplicaSetUpdated", "message": "ReplicaSet \"cart-2\" is progressing.", "lastUpdateTime": "2026-11-23T11:40:00Z", "lastTransitionTime": "2026-11-23T11:40:00Z"}])
c1 = replicaset(cart, "68c9d7f5b", 2, "shop/cart:9.8", rev="1", created="2026-11-23T09:00:00Z")
c2 = replicaset(cart, "59f8c6d7b", 1, "shop/cart:9.9-typo", rev="2", ready=0, created="2026-11-23T11:40:00Z")
shop += [cart, c1, c2, pod(c1, "hhhhh", created="2026-11-23T09:00:05Z"), pod(c1, "iiiii", created="2026-11-23T09:00:05Z", node="node-2"),
         pod(c2, "jjjjj", ready=False, phase="Pending", created="2026-11-23T11:40:05Z", waiting="ImagePullBackOff")]
# admin: paused mid-change.
admin = deployment("shop", "admin", 1, "shop/admin:3", gen=3, observed=2, paused=True,
                   status={"replicas": 1, "updatedReplicas": 1, "readyReplicas": 1, "availableReplicas": 1})
ad1 = replicaset(admin, "7c8d9f6b5", 1, "shop/admin:3", created="2026-11-22T08:00:00Z")
shop += [admin, ad1, pod(ad1, "kkkkk", created="2026-11-22T08:00:05Z")]
# search: Recreate, old pods still terminating.
search = deployment("shop", "search", 2, "shop/search:5", gen=2, observed=2, strategy={"type": "Recreate"}, ann={"deployment.kubernetes.io/revision": "1"},
                    status={"replicas": 1, "updatedReplicas": 0, "readyReplicas": 0, "availableReplicas": 0, "unavailableReplicas": 2})
s1 = replicaset(search, "5d6f7c8b9", 0, "shop/search:4", created="2026-11-22T08:00:00Z")
s1["status"]["replicas"] = 1
term = pod(s1, "lllll", created="2026-11-22T08:00:05Z", ready=False)
term["metadata"]["deletionTimestamp"] = "2026-11-23T11:59:40Z"
term["metadata"]["deletionGracePeriodSeconds"] = 30
shop += [search, s1, term]
# legacy: a bare ReplicaSet short of pods, and a ReplicationController with one too many.
legacy = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": meta("ReplicaSet", "shop", "legacy", {"app": "legacy"}),
          "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "legacy"}}, "template": template({"app": "legacy"}, "shop/legacy:1")},
          "status": {"replicas": 2, "readyReplicas": 2, "availableReplicas": 2, "fullyLabeledReplicas": 2, "observedGeneration": 1}}
shop += [legacy, pod(legacy, "mmmmm"), pod(legacy, "nnnnn", node="node-2")]
rc = {"apiVersion": "v1", "kind": "ReplicationController", "metadata": meta("ReplicationController", "shop", "old-frontend", {"app": "old-frontend"}),
      "spec": {"replicas": 1, "selector": {"app": "old-frontend"}, "template": template({"app": "old-frontend"}, "shop/frontend:0.9")},
      "status": {"replicas": 2, "readyReplicas": 2, "availableReplicas": 2, "fullyLabeledReplicas": 2, "observedGeneration": 1}}
shop += [rc, pod(rc, "ooooo", created="2026-11-23T07:00:00Z"), pod(rc, "ppppp", created="2026-11-23T11:00:00Z", node="node-2")]
uid("db"), uid("log-agent")  # placeholders once here; keeps the later uids stable
shop += [other("Node", "v1", None, "node-1"), other("Node", "v1", None, "node-2")]

batch = []
# reports: a CronJob every 5 minutes whose last Job is running.
rep = cronjob("batch", "reports", "*/5 * * * *", status={"lastScheduleTime": "2026-11-23T11:55:00Z", "lastSuccessfulTime": "2026-11-23T11:51:10Z"})
rj = job("batch", "reports-29395435", {}, {"active": 1, "ready": 1, "startTime": "2026-11-23T11:55:01Z", "terminating": 0, "uncountedTerminatedPods": {}}, owner=rep, created="2026-11-23T11:55:00Z")
rep["status"]["active"] = [{"apiVersion": "batch/v1", "kind": "Job", "name": rj["metadata"]["name"], "namespace": "batch", "uid": rj["metadata"]["uid"]}]
batch += [rep, rj, pod(rj, "qqqqq", created="2026-11-23T11:55:01Z", finalizers=["batch.kubernetes.io/job-tracking"])]
# nightly: suspended.
batch.append(cronjob("batch", "nightly", "0 2 * * *", spec={"suspend": True}, status={"lastScheduleTime": "2026-11-22T02:00:00Z"}))
# sync-prices: Forbid, a Job still running past the next start time.
sp = cronjob("batch", "sync-prices", "*/10 * * * *", spec={"concurrencyPolicy": "Forbid"}, status={"lastScheduleTime": "2026-11-23T11:40:00Z"})
spj = job("batch", "sync-prices-29395420", {}, {"active": 1, "ready": 1, "startTime": "2026-11-23T11:40:01Z", "terminating": 0, "uncountedTerminatedPods": {}}, owner=sp, created="2026-11-23T11:40:00Z")
sp["status"]["active"] = [{"apiVersion": "batch/v1", "kind": "Job", "name": spj["metadata"]["name"], "namespace": "batch", "uid": spj["metadata"]["uid"]}]
batch += [sp, spj, pod(spj, "rrrrr", created="2026-11-23T11:40:01Z", finalizers=["batch.kubernetes.io/job-tracking"])]
# import: failing, third failure, in backoff.
imp = job("batch", "import", {"backoffLimit": 4}, {"active": 0, "failed": 2, "startTime": "2026-11-23T11:50:00Z", "terminating": 0, "ready": 0, "uncountedTerminatedPods": {}})
batch += [imp, pod(imp, "sssss", ready=False, phase="Failed", created="2026-11-23T11:58:00Z", finished="2026-11-23T11:59:50Z", finalizers=["batch.kubernetes.io/job-tracking"])]
# render: indexed, 2 of 4 done.
ren = job("batch", "render", {"completionMode": "Indexed", "completions": 4, "parallelism": 2},
          {"active": 1, "succeeded": 2, "completedIndexes": "0-1", "startTime": "2026-11-23T11:30:00Z", "terminating": 0, "ready": 1, "uncountedTerminatedPods": {}})
batch += [ren, pod(ren, "ttttt", created="2026-11-23T11:45:00Z", index=2, finalizers=["batch.kubernetes.io/job-tracking"])]
# cleanup: finished an hour ago, TTL 600s (the TTL controller, not the Job controller, deletes it).
done = job("batch", "cleanup", {"ttlSecondsAfterFinished": 600}, {"succeeded": 1, "startTime": "2026-11-23T10:50:00Z", "completionTime": "2026-11-23T11:00:00Z",
           "conditions": [{"type": "SuccessCriteriaMet", "status": "True", "lastProbeTime": "2026-11-23T11:00:00Z", "lastTransitionTime": "2026-11-23T11:00:00Z", "reason": "CompletionsReached", "message": "Reached expected number of succeeded pods"},
                          {"type": "Complete", "status": "True", "lastProbeTime": "2026-11-23T11:00:00Z", "lastTransitionTime": "2026-11-23T11:00:00Z", "reason": "CompletionsReached", "message": "Reached expected number of succeeded pods"}],
           "ready": 0, "terminating": 0, "uncountedTerminatedPods": {}})
batch.append(done)


# ---- StatefulSets (stateful.json, a List with ControllerRevisions and PVCs) ----
def sts_template(name, image, env=None):
    return template({"app": name}, image, env)

def statefulset(ns, name, replicas, image, rev_current, rev_update, gen=1, observed=1, policy="OrderedReady", strategy=None,
                claims=("data",), status=None, env=None, created="2026-11-20T00:00:00Z"):
    s = {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": meta("StatefulSet", ns, name, {"app": name}, gen=gen, created=created),
         "spec": {"replicas": replicas, "serviceName": name, "podManagementPolicy": policy, "revisionHistoryLimit": 10,
                  "selector": {"matchLabels": {"app": name}}, "template": sts_template(name, image, env),
                  "updateStrategy": strategy or {"type": "RollingUpdate", "rollingUpdate": {"partition": 0}},
                  "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Retain", "whenScaled": "Retain"},
                  "minReadySeconds": 0},
         "status": dict({"replicas": replicas, "readyReplicas": replicas, "availableReplicas": replicas, "currentReplicas": replicas, "updatedReplicas": replicas,
                         "currentRevision": rev_current, "updateRevision": rev_update, "collisionCount": 0}, **(status or {}), observedGeneration=observed)}
    if claims:
        s["spec"]["volumeClaimTemplates"] = [{"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": c, "creationTimestamp": None},
                                              "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "10Gi"}}, "volumeMode": "Filesystem"},
                                              "status": {"phase": "Pending"}} for c in claims]
    return s

def revision(owner, hash, number, tmpl, name=None, created="2026-11-20T00:00:00Z"):
    labels = dict(owner["spec"]["selector"]["matchLabels"], **{"controller-revision-hash": hash})
    data = {"spec": {"template": dict(copy.deepcopy(tmpl), **{"$patch": "replace"})}}
    return {"apiVersion": "apps/v1", "kind": "ControllerRevision",
            "metadata": meta("ControllerRevision", owner["metadata"]["namespace"], name or owner["metadata"]["name"] + "-" + hash, labels, owner=owner, created=created),
            "data": data, "revision": number}

def sts_pod(sts, ordinal, rev, image, ready=True, phase="Running", created="2026-11-23T10:00:00Z", node="node-a", restarts=0, waiting=None, claims=("data",)):
    name = sts["metadata"]["name"]
    pod_name = "%s-%d" % (name, ordinal)
    labels = {"app": name, "controller-revision-hash": rev, "statefulset.kubernetes.io/pod-name": pod_name, "apps.kubernetes.io/pod-index": str(ordinal)}
    owner = copy.deepcopy(sts)
    owner["spec"]["template"]["spec"]["containers"][0]["image"] = image
    p = pod(owner, str(ordinal), ready=ready, phase=phase, created=created, node=node, restarts=restarts, labels=labels, waiting=waiting)
    p["spec"]["hostname"] = pod_name
    p["spec"]["subdomain"] = sts["spec"]["serviceName"]
    p["spec"]["volumes"] = [{"name": c, "persistentVolumeClaim": {"claimName": "%s-%s" % (c, pod_name)}} for c in claims] + \
        [{"name": "kube-api-access-x7k2p", "projected": {"defaultMode": 420, "sources": [{"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}}]}}]
    return p

def pvc(sts, claim, ordinal):
    name = "%s-%s-%d" % (claim, sts["metadata"]["name"], ordinal)
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": meta("PersistentVolumeClaim", sts["metadata"]["namespace"], name, {"app": sts["metadata"]["name"]}),
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "10Gi"}}, "storageClassName": "standard",
                     "volumeMode": "Filesystem", "volumeName": "pvc-" + name},
            "status": {"phase": "Bound", "accessModes": ["ReadWriteOnce"], "capacity": {"storage": "10Gi"}}}

stateful = []
# db: a rolling update with partition 1; db-2 is updated, db-1 is next, db-0 stays.
db = statefulset("data", "db", 3, "postgres:16.4", "db-7c9f5b8d4", "db-5d8b7f9c6", gen=2, observed=2,
                 strategy={"type": "RollingUpdate", "rollingUpdate": {"partition": 1}},
                 status={"currentReplicas": 2, "updatedReplicas": 1})
stateful += [db, revision(db, "7c9f5b8d4", 1, sts_template("db", "postgres:16.3")), revision(db, "5d8b7f9c6", 2, db["spec"]["template"], created="2026-11-23T11:50:00Z")]
stateful += [sts_pod(db, 0, "db-7c9f5b8d4", "postgres:16.3", node="node-a"), sts_pod(db, 1, "db-7c9f5b8d4", "postgres:16.3", node="node-b"),
             sts_pod(db, 2, "db-5d8b7f9c6", "postgres:16.4", created="2026-11-23T11:51:00Z", node="node-c")]
stateful += [pvc(db, "data", i) for i in range(3)]
stateful.append(pdb("data", "db-pdb", "db", None, {"currentHealthy": 3, "desiredHealthy": 2, "disruptionsAllowed": 1, "expectedPods": 3}))
del stateful[-1]["spec"]["minAvailable"]
stateful[-1]["spec"]["maxUnavailable"] = 1
# queue: OrderedReady, queue-1 crash-loops, so queue-2 is never created.
queue = statefulset("data", "queue", 3, "rabbitmq:3.13", "queue-6f4d9c7b5", "queue-6f4d9c7b5",
                    status={"replicas": 2, "readyReplicas": 1, "availableReplicas": 1, "currentReplicas": 2, "updatedReplicas": 2})
stateful += [queue, revision(queue, "6f4d9c7b5", 1, queue["spec"]["template"]),
             sts_pod(queue, 0, "queue-6f4d9c7b5", "rabbitmq:3.13", created="2026-11-23T09:00:00Z"),
             sts_pod(queue, 1, "queue-6f4d9c7b5", "rabbitmq:3.13", ready=False, created="2026-11-23T09:01:00Z", node="node-b", restarts=7, waiting="CrashLoopBackOff"),
             pvc(queue, "data", 0), pvc(queue, "data", 1)]
# cache: OnDelete, the template changed, pods stay at the old revision;
# cache-1 was deleted by hand, so it comes back at the new one.
cache = statefulset("data", "cache", 2, "redis:7.4", "cache-8d7c6b5f4", "cache-4b6f8d9c7", gen=2, observed=2, policy="Parallel",
                    strategy={"type": "OnDelete"}, claims=(),
                    status={"replicas": 1, "readyReplicas": 1, "availableReplicas": 1, "currentReplicas": 1, "updatedReplicas": 0})
stateful += [cache, revision(cache, "8d7c6b5f4", 1, sts_template("cache", "redis:7.2")), revision(cache, "4b6f8d9c7", 2, cache["spec"]["template"], created="2026-11-23T11:00:00Z"),
             sts_pod(cache, 0, "cache-8d7c6b5f4", "redis:7.2", claims=())]
# ledger: the template changed a moment ago; the controller has not seen it
# and no ControllerRevision holds it, so its revision is unknown.
ledger = statefulset("data", "ledger", 2, "ledger:2.0", "ledger-9c8b7d6f5", "ledger-9c8b7d6f5", gen=3, observed=2, env={"LOG": "debug"})
stateful += [ledger, revision(ledger, "9c8b7d6f5", 1, sts_template("ledger", "ledger:2.0")),
             sts_pod(ledger, 0, "ledger-9c8b7d6f5", "ledger:2.0"), sts_pod(ledger, 1, "ledger-9c8b7d6f5", "ledger:2.0", node="node-b"),
             pvc(ledger, "data", 0), pvc(ledger, "data", 1)]
# search: the controller has seen generation 1, but its ControllerRevision
# holds the template as an older release wrote it (without a field the API
# server now defaults): the controller makes a new revision, so the
# revision of the current template is unknown, not status.updateRevision.
search_sts = statefulset("data", "search", 1, "opensearch:2.18", "search-6b9d8f7c5", "search-6b9d8f7c5", claims=())
search_sts["spec"]["template"]["spec"]["enableServiceLinks"] = True
search_old = copy.deepcopy(search_sts["spec"]["template"]); del search_old["spec"]["enableServiceLinks"]
stateful += [search_sts, revision(search_sts, "6b9d8f7c5", 1, search_old), sts_pod(search_sts, 0, "search-6b9d8f7c5", "opensearch:2.18", claims=())]

# ---- DaemonSets (daemons.json, a stream with Nodes and ControllerRevisions) ----
def node(name, ready="True", taints=None, heartbeat="2026-11-23T11:59:50Z", reason="KubeletReady"):
    n = {"apiVersion": "v1", "kind": "Node", "metadata": meta("Node", None, name, {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux"}, created="2026-11-01T00:00:00Z"),
         "spec": {"podCIDR": "10.244.0.0/24", "providerID": "kind://docker/kind/" + name},
         "status": {"conditions": [
             {"type": "MemoryPressure", "status": "False", "lastHeartbeatTime": heartbeat, "lastTransitionTime": "2026-11-01T00:00:00Z", "reason": "KubeletHasSufficientMemory", "message": "kubelet has sufficient memory available"},
             {"type": "DiskPressure", "status": "False", "lastHeartbeatTime": heartbeat, "lastTransitionTime": "2026-11-01T00:00:00Z", "reason": "KubeletHasNoDiskPressure", "message": "kubelet has no disk pressure"},
             {"type": "PIDPressure", "status": "False", "lastHeartbeatTime": heartbeat, "lastTransitionTime": "2026-11-01T00:00:00Z", "reason": "KubeletHasSufficientPID", "message": "kubelet has sufficient PID available"},
             {"type": "Ready", "status": ready, "lastHeartbeatTime": heartbeat, "lastTransitionTime": "2026-11-01T00:00:00Z" if ready == "True" else "2026-11-23T11:50:00Z", "reason": reason, "message": "kubelet is posting ready status" if ready == "True" else "container runtime network not ready"}],
             "capacity": {"cpu": "4", "memory": "16Gi", "pods": "110"}, "allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"},
             "nodeInfo": {"kubeletVersion": "v1.36.3", "osImage": "Debian GNU/Linux 12", "architecture": "amd64", "operatingSystem": "linux"}}}
    del n["metadata"]["namespace"]
    if taints: n["spec"]["taints"] = taints
    return n

DAEMON_TOLERATIONS = [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"},
                      {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute"},
                      {"key": "node.kubernetes.io/disk-pressure", "operator": "Exists", "effect": "NoSchedule"},
                      {"key": "node.kubernetes.io/memory-pressure", "operator": "Exists", "effect": "NoSchedule"},
                      {"key": "node.kubernetes.io/pid-pressure", "operator": "Exists", "effect": "NoSchedule"},
                      {"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"}]

def daemonset_obj(ns, name, image, tgen, gen=None, observed=None, strategy=None, tolerations=None, status=None, created="2026-11-01T00:00:00Z"):
    labels = {"app": name}
    t = template(labels, image)
    if tolerations: t["spec"]["tolerations"] = tolerations
    gen = gen or tgen
    d = {"apiVersion": "apps/v1", "kind": "DaemonSet",
         "metadata": meta("DaemonSet", ns, name, labels, gen=gen, created=created, ann={"deprecated.daemonset.template.generation": str(tgen)}),
         "spec": {"selector": {"matchLabels": labels}, "template": t, "revisionHistoryLimit": 10,
                  "updateStrategy": strategy or {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1}}},
         "status": dict(status or {}, observedGeneration=observed if observed is not None else gen)}
    return d

def daemon_pod(ds, node_name, hash, tgen, image, suffix, ready=True, phase="Running", created="2026-11-23T10:00:00Z", waiting=None):
    labels = {"app": ds["metadata"]["name"], "controller-revision-hash": hash, "pod-template-generation": str(tgen)}
    owner = copy.deepcopy(ds)
    owner["spec"]["template"]["spec"]["containers"][0]["image"] = image
    p = pod(owner, suffix, ready=ready, phase=phase, created=created, node=node_name, labels=labels, waiting=waiting)
    p["spec"]["tolerations"] = copy.deepcopy(ds["spec"]["template"]["spec"].get("tolerations", [])) + DAEMON_TOLERATIONS
    p["spec"]["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": [node_name]}]}]}}}
    return p

node_c = node("node-c")  # memory pressure a moment ago: the condition taint is not there yet
node_c["status"]["conditions"][0].update(status="True", reason="KubeletHasInsufficientMemory", message="kubelet has insufficient memory available", lastTransitionTime="2026-11-23T11:59:50Z")
daemons = [node("node-a"), node("node-b"), node_c,
           node("node-d", ready="False", reason="KubeletNotReady", heartbeat="2026-11-23T11:59:55Z",
                taints=[{"key": "node.kubernetes.io/not-ready", "effect": "NoSchedule"},
                        {"key": "node.kubernetes.io/not-ready", "effect": "NoExecute", "timeAdded": "2026-11-23T11:50:00Z"}]),
           node("node-e", taints=[{"key": "dedicated", "value": "gpu", "effect": "NoExecute", "timeAdded": "2026-11-23T11:30:00Z"}])]
# log-agent: tolerates every taint; rolling update with maxSurge 1 and
# maxUnavailable 0. node-a is done, node-b's new pod is available (its old
# pod goes next), node-d is NotReady.
la = daemonset_obj("infra", "log-agent", "fluent-bit:3.1", 2, tolerations=[{"operator": "Exists"}],
                   strategy={"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
                   status={"currentNumberScheduled": 5, "desiredNumberScheduled": 5, "numberMisscheduled": 0, "numberReady": 5, "numberAvailable": 5,
                           "numberUnavailable": 0, "updatedNumberScheduled": 2})
la_old_t = copy.deepcopy(la["spec"]["template"]); la_old_t["spec"]["containers"][0]["image"] = "fluent-bit:3.0"
daemons += [la, revision(la, "5b7d9f6c8", 1, la_old_t, created="2026-11-01T00:00:00Z"),
            revision(la, "7f6c9d8b5", 2, la["spec"]["template"], created="2026-11-23T11:40:00Z"),
            daemon_pod(la, "node-a", "7f6c9d8b5", 2, "fluent-bit:3.1", "kx2m9", created="2026-11-23T11:41:00Z"),
            daemon_pod(la, "node-b", "5b7d9f6c8", 1, "fluent-bit:3.0", "p4q8w"),
            daemon_pod(la, "node-b", "7f6c9d8b5", 2, "fluent-bit:3.1", "t7v2n", created="2026-11-23T11:58:00Z"),
            daemon_pod(la, "node-c", "5b7d9f6c8", 1, "fluent-bit:3.0", "b9c5d"),
            daemon_pod(la, "node-d", "5b7d9f6c8", 1, "fluent-bit:3.0", "h3j6k", ready=False),
            daemon_pod(la, "node-e", "5b7d9f6c8", 1, "fluent-bit:3.0", "z8r4s")]
# node-exporter: up to date; does not tolerate node-e's dedicated=gpu:NoExecute
# taint, so its pod there goes; node-d's pod is unavailable.
ne = daemonset_obj("monitoring", "node-exporter", "prom/node-exporter:1.8", 1,
                   status={"currentNumberScheduled": 5, "desiredNumberScheduled": 5, "numberMisscheduled": 0, "numberReady": 5, "numberAvailable": 5,
                           "numberUnavailable": 0, "updatedNumberScheduled": 5})
daemons += [ne, revision(ne, "6c8d7b9f4", 1, ne["spec"]["template"])]
daemons += [daemon_pod(ne, n, "6c8d7b9f4", 1, "prom/node-exporter:1.8", s, ready=(n != "node-d"))
            for n, s in (("node-a", "d2f5g"), ("node-b", "l8m3n"), ("node-c", "q6r9s"), ("node-d", "w4x7z"), ("node-e", "c5v8b"))]
# net-proxy: rolling update, maxUnavailable 1; node-a is updated, node-d's old
# pod is unavailable (NotReady node), so it is replaced first.
np = daemonset_obj("kube-system", "net-proxy", "kube-proxy:v1.36.3", 2, tolerations=[{"operator": "Exists"}],
                   status={"currentNumberScheduled": 5, "desiredNumberScheduled": 5, "numberMisscheduled": 0, "numberReady": 4, "numberAvailable": 4,
                           "numberUnavailable": 1, "updatedNumberScheduled": 1})
np_old_t = copy.deepcopy(np["spec"]["template"]); np_old_t["spec"]["containers"][0]["image"] = "kube-proxy:v1.36.2"
daemons += [np, revision(np, "8b5f4c7d9", 1, np_old_t), revision(np, "4d9c6f8b7", 2, np["spec"]["template"], created="2026-11-23T11:55:00Z")]
daemons += [daemon_pod(np, "node-a", "4d9c6f8b7", 2, "kube-proxy:v1.36.3", "f5g8h", created="2026-11-23T11:55:30Z")]
daemons += [daemon_pod(np, n, "8b5f4c7d9", 1, "kube-proxy:v1.36.2", s, ready=(n != "node-d"))
            for n, s in (("node-b", "j2k5l"), ("node-c", "m7n4p"), ("node-d", "r9s2t"), ("node-e", "v6w3x"))]
# gpu-plugin: only on dedicated nodes; its template changed to generation 3 a
# moment ago, no pod and no ControllerRevision holds it: the hash is unknown.
gp = daemonset_obj("kube-system", "gpu-plugin", "nvidia/k8s-device-plugin:0.17", 3, observed=2,
                   tolerations=[{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoExecute"}],
                   status={"currentNumberScheduled": 1, "desiredNumberScheduled": 1, "numberMisscheduled": 0, "numberReady": 1, "numberAvailable": 1,
                           "numberUnavailable": 0, "updatedNumberScheduled": 1})
gp["spec"]["template"]["spec"]["nodeSelector"] = {"kubernetes.io/hostname": "node-e"}
gp_old_t = copy.deepcopy(gp["spec"]["template"]); gp_old_t["spec"]["containers"][0]["image"] = "nvidia/k8s-device-plugin:0.16"
daemons += [gp, revision(gp, "9f7b6d5c8", 2, gp_old_t), daemon_pod(gp, "node-e", "9f7b6d5c8", 2, "nvidia/k8s-device-plugin:0.16", "n3p6q")]

# metrics-relay: OnDelete, the template changed; its pods stay at the old
# revision, but the one on node-c failed: it is deleted (the failed-pod
# backoff is the controller's memory, not in the dump).
mr = daemonset_obj("infra", "metrics-relay", "relay:2.0", 2, tolerations=[{"operator": "Exists"}], strategy={"type": "OnDelete"},
                   status={"currentNumberScheduled": 5, "desiredNumberScheduled": 5, "numberMisscheduled": 0, "numberReady": 3, "numberAvailable": 3,
                           "numberUnavailable": 2, "updatedNumberScheduled": 0})
mr_old_t = copy.deepcopy(mr["spec"]["template"]); mr_old_t["spec"]["containers"][0]["image"] = "relay:1.9"
daemons += [mr, revision(mr, "5f9d7c6b8", 1, mr_old_t), revision(mr, "8c4b7d5f9", 2, mr["spec"]["template"], created="2026-11-23T11:00:00Z")]
daemons += [daemon_pod(mr, n, "5f9d7c6b8", 1, "relay:1.9", sfx, ready=(n not in ("node-c", "node-d")), phase="Failed" if n == "node-c" else "Running")
            for n, sfx in (("node-a", "a1b2c"), ("node-b", "d3f4g"), ("node-c", "h5j6k"), ("node-d", "l7m8n"), ("node-e", "p9q2r"))]

# ---- nonodes.json: a stream without Nodes and without ControllerRevisions ----
nonodes = []
# A DaemonSet: its hash is known from its pods, but not where it should run.
ag = daemonset_obj("infra", "agent", "agent:1.0", 1, status={"currentNumberScheduled": 1, "desiredNumberScheduled": 1, "numberReady": 1, "numberAvailable": 1,
                                                            "numberMisscheduled": 0, "numberUnavailable": 0, "updatedNumberScheduled": 1})
nonodes += [ag, daemon_pod(ag, "node-a", "6b8d5f7c9", 1, "agent:1.0", "g4h7j")]
# A DaemonSet whose template changed (generation 2) before any pod was made
# from it, with no ControllerRevision in the dump: its hash is unknown.
ag2 = daemonset_obj("infra", "agent-next", "agent:2.0", 2, observed=1, status={"currentNumberScheduled": 1, "desiredNumberScheduled": 1, "numberReady": 1,
                    "numberAvailable": 1, "numberMisscheduled": 0, "numberUnavailable": 0, "updatedNumberScheduled": 1})
nonodes += [ag2, daemon_pod(ag2, "node-a", "7c9b6d8f5", 1, "agent:1.0", "s2t5v")]
# A StatefulSet whose revisions are known only from its status (observed
# generation); its claims are not in the dump, so it is Unknown.
web = statefulset("infra", "web", 2, "nginx:1.27", "web-5c7d9b8f6", "web-7d5f8c6b9", gen=2, observed=2,
                  status={"currentReplicas": 1, "updatedReplicas": 1})
nonodes += [web, sts_pod(web, 0, "web-5c7d9b8f6", "nginx:1.26"), sts_pod(web, 1, "web-7d5f8c6b9", "nginx:1.27", node="node-b")]
# The same without claim templates: the plan is shown, history cleanup is not.
web2 = statefulset("infra", "web-noclaims", 2, "nginx:1.27", "web-noclaims-5c7d9b8f6", "web-noclaims-7d5f8c6b9", gen=2, observed=2, claims=(),
                   status={"currentReplicas": 1, "updatedReplicas": 1})
nonodes += [web2, sts_pod(web2, 0, "web-noclaims-5c7d9b8f6", "nginx:1.26", claims=()), sts_pod(web2, 1, "web-noclaims-7d5f8c6b9", "nginx:1.27", node="node-b", claims=())]

json.dump({"apiVersion": "v1", "kind": "List", "items": shop, "metadata": {"resourceVersion": ""}}, open("shop.json", "w"), indent=4)
with open("batch.json", "w") as f:
    for o in batch:
        f.write(json.dumps(o, indent=4) + "\n")
json.dump({"apiVersion": "v1", "kind": "List", "items": stateful, "metadata": {"resourceVersion": ""}}, open("stateful.json", "w"), indent=4)
for name, objs in (("daemons.json", daemons), ("nonodes.json", nonodes)):
    with open(name, "w") as f:
        for o in objs:
            f.write(json.dumps(o, indent=4) + "\n")
