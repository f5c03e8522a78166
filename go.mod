module github.com/kubesem/kubesem

go 1.24

require (
	github.com/google/go-cmp v0.7.0
	github.com/robfig/cron/v3 v3.0.1
	github.com/stretchr/testify v1.12.1
	pgregory.net/rapid v1.2.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
