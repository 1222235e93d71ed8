module github.com/obskit/obskit/docs

go 1.24.3

replace github.com/obskit/obskit => ../

require (
	github.com/gomlx/gomlx v0.26.0
	github.com/obskit/obskit v0.0.0
)

require (
	github.com/dustin/go-humanize v1.0.1 // indirect
	github.com/go-logr/logr v1.4.3 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	k8s.io/klog/v2 v2.130.1 // indirect
)

require (
	github.com/obskit/obskit/gomlx v0.0.0
	golang.org/x/exp v0.0.0-20260209203927-2842357ff358 // indirect
	golang.org/x/image v0.30.0 // indirect
)

replace github.com/obskit/obskit/gomlx => ../gomlx
