package docs_test

// The packages the pages import that no test of this module does: imported
// here so that go mod tidy keeps them, and their dependencies, in go.mod and
// go.sum, which TestPages gives the pages' module.
import (
	_ "github.com/gomlx/gomlx/backends/simplego"
	_ "github.com/gomlx/gomlx/pkg/core/dtypes"
	_ "github.com/gomlx/gomlx/pkg/core/graph"
	_ "github.com/gomlx/gomlx/pkg/core/tensors"
	_ "github.com/gomlx/gomlx/pkg/ml/context"
	_ "github.com/gomlx/gomlx/pkg/ml/layers"
	_ "github.com/gomlx/gomlx/pkg/ml/layers/activations"
	_ "github.com/gomlx/gomlx/pkg/ml/train"
	_ "github.com/gomlx/gomlx/pkg/ml/train/losses"
	_ "github.com/gomlx/gomlx/pkg/ml/train/metrics"
	_ "github.com/gomlx/gomlx/pkg/ml/train/optimizers"
	_ "github.com/obskit/obskit/augment"
	_ "github.com/obskit/obskit/gomlx"
	_ "github.com/obskit/obskit/imagecodec/turbo"
)
