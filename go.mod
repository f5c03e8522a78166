module github.com/kubesem/kubesem

go 1.26.8

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/robfig/cron/v3 v3.0.1 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	pgregory.net/rapid v1.2.0 // indirect
)
