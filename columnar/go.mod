module github.com/obskit/obskit/columnar

go 1.24.9

require (
	github.com/google/go-cmp v0.7.0
	github.com/klauspost/compress v1.17.9
	github.com/obskit/obskit v0.0.0
	github.com/parquet-go/parquet-go v0.32.0
	github.com/pierrec/lz4/v4 v4.1.21
	golang.org/x/exp v0.0.0-20260209203927-2842357ff358
)

require (
	github.com/andybalholm/brotli v1.1.1 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/parquet-go/bitpack v1.0.0 // indirect
	github.com/parquet-go/jsonlite v1.0.0 // indirect
	github.com/twpayne/go-geom v1.6.1 // indirect
	golang.org/x/sys v0.38.0 // indirect
	google.golang.org/protobuf v1.34.2 // indirect
)

replace github.com/obskit/obskit => ../
