package upstream_test

import (
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/robfig/cron/v3"
	_ "k8s.io/client-go/informers"
	_ "k8s.io/client-go/kubernetes/fake"
	_ "k8s.io/kubectl/pkg/polymorphichelpers"
	_ "k8s.io/kubernetes/pkg/controller"
	_ "k8s.io/kubernetes/pkg/controller/cronjob"
	_ "k8s.io/kubernetes/pkg/controller/deployment"
	_ "k8s.io/kubernetes/pkg/controller/deployment/util"
	_ "k8s.io/kubernetes/pkg/controller/job"
	_ "k8s.io/kubernetes/pkg/controller/replicaset"
	_ "k8s.io/kubernetes/pkg/controller/replication"
	_ "k8s.io/kubernetes/pkg/controller/ttlafterfinished"
	_ "pgregory.net/rapid"
)
