package docs_test

// The packages the pages import that no test of this module does: imported
// here so that go mod tidy keeps them, and their dependencies, in go.mod and
// go.sum, which TestPages gives the pages' module.
import (
	_ "github.com/gomlx/compute/dtypes"
	_ "github.com/gomlx/compute/gobackend"
	_ "github.com/gomlx/gomlx/core/graph"
	_ "github.com/gomlx/gomlx/core/tensors"
	_ "github.com/gomlx/gomlx/ml/layers"
	_ "github.com/gomlx/gomlx/ml/layers/activation"
	_ "github.com/gomlx/gomlx/ml/model"
	_ "github.com/gomlx/gomlx/ml/train"
	_ "github.com/gomlx/gomlx/ml/train/loss"
	_ "github.com/gomlx/gomlx/ml/train/metric"
	_ "github.com/gomlx/gomlx/ml/train/optimizer"
	_ "github.com/obskit/obskit/augment"
	_ "github.com/obskit/obskit/columnar/parquet"
	_ "github.com/obskit/obskit/gomlx"
	_ "github.com/obskit/obskit/imagecodec/turbo"
)
