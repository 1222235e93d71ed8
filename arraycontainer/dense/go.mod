module github.com/obskit/obskit/arraycontainer/dense

go 1.24.0

require (
	github.com/obskit/obskit v0.0.0
	gonum.org/v1/gonum v0.17.0
)

require (
	golang.org/x/exp v0.0.0-20260209203927-2842357ff358 // indirect
	golang.org/x/sys v0.38.0 // indirect
)

replace github.com/obskit/obskit => ../../
