module github.com/obskit/obskit/docs

go 1.26.5

replace github.com/obskit/obskit => ../

require (
	github.com/gomlx/gomlx v0.28.2
	github.com/obskit/obskit v0.0.0
)

require (
	github.com/andybalholm/brotli v1.1.1 // indirect
	github.com/go-logr/logr v1.4.3 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/klauspost/compress v1.17.9 // indirect
	github.com/parquet-go/bitpack v1.0.0 // indirect
	github.com/parquet-go/jsonlite v1.0.0 // indirect
	github.com/parquet-go/parquet-go v0.32.0 // indirect
	github.com/pierrec/lz4/v4 v4.1.21 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/twpayne/go-geom v1.6.1 // indirect
	golang.org/x/sys v0.43.0 // indirect
	google.golang.org/protobuf v1.36.11 // indirect
	k8s.io/klog/v2 v2.140.0 // indirect
)

require (
	github.com/gomlx/compute v0.1.3
	github.com/obskit/obskit/columnar v0.0.0
	github.com/obskit/obskit/gomlx v0.0.0
	golang.org/x/exp v0.0.0-20260410095643-746e56fc9e2f // indirect
	golang.org/x/image v0.30.0 // indirect
)

replace github.com/obskit/obskit/gomlx => ../gomlx

replace github.com/obskit/obskit/columnar => ../columnar
