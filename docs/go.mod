module github.com/obskit/obskit/docs

go 1.24.0

replace github.com/obskit/obskit => ../

require github.com/obskit/obskit v0.0.0

require (
	golang.org/x/exp v0.0.0-20260209203927-2842357ff358 // indirect
	golang.org/x/image v0.30.0 // indirect
)
