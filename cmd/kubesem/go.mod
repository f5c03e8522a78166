module github.com/kubesem/kubesem/cmd/kubesem

go 1.26.0

require github.com/kubesem/kubesem v0.0.0

require github.com/robfig/cron/v3 v3.0.1 // indirect

replace (
	github.com/kubesem/kubesem => ../..
	github.com/kubesem/kubesem/k8s => ../../k8s
)
