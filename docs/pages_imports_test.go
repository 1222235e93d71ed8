package docs_test

// The packages the pages import that no test of this module does: imported
// here so that go mod tidy keeps them, and their dependencies, in go.mod and
// go.sum, which TestPages gives the pages' module.
import (
	_ "github.com/obskit/obskit/augment"
	_ "github.com/obskit/obskit/imagecodec/turbo"
)
