module github.com/obskit/obskit

go 1.24.0

require (
	github.com/google/go-cmp v0.7.0
	go.uber.org/goleak v1.3.0
	golang.org/x/exp v0.0.0-20260209203927-2842357ff358
	golang.org/x/image v0.30.0
	golang.org/x/sys v0.38.0
)
