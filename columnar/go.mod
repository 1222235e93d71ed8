module github.com/obskit/obskit/columnar

go 1.24.9

require (
	github.com/google/go-cmp v0.7.0
	github.com/klauspost/compress v1.17.9
	github.com/obskit/obskit v0.0.0
	github.com/pierrec/lz4/v4 v4.1.21
)

require golang.org/x/exp v0.0.0-20260209203927-2842357ff358 // indirect

replace github.com/obskit/obskit => ../
