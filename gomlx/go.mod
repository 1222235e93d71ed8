module github.com/obskit/obskit/gomlx

go 1.26.5

replace github.com/obskit/obskit => ../

require (
	github.com/google/go-cmp v0.7.0
	github.com/obskit/obskit v0.0.0
	go.uber.org/goleak v1.3.0
)

require (
	golang.org/x/image v0.30.0 // indirect
	golang.org/x/sys v0.43.0 // indirect
)

require (
	github.com/go-logr/logr v1.4.3 // indirect
	github.com/gomlx/compute v0.1.3
	github.com/gomlx/gomlx v0.28.2
	github.com/google/uuid v1.6.0 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	golang.org/x/exp v0.0.0-20260410095643-746e56fc9e2f // indirect
	k8s.io/klog/v2 v2.140.0 // indirect
)
