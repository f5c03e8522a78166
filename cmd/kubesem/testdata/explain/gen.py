# Generates the realistic cluster dumps explain's golden tests read:
#   python3 gen.py  (writes shop.json, a kubectl List, and batch.json, a stream)
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
shop += [other("StatefulSet", "apps/v1", "shop", "db"), other("DaemonSet", "apps/v1", "shop", "log-agent"),
         other("Node", "v1", None, "node-1"), other("Node", "v1", None, "node-2")]

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

json.dump({"apiVersion": "v1", "kind": "List", "items": shop, "metadata": {"resourceVersion": ""}}, open("shop.json", "w"), indent=4)
with open("batch.json", "w") as f:
    for o in batch:
        f.write(json.dumps(o, indent=4) + "\n")
