package arrowipc

import (
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
)

// An Option changes how a file is opened ([Cache]) or how a column is read
// ([Fill], [NullEmpty]). A function ignores the options that are not its own.
type Option func(*options)

type options struct {
	cache     int
	fill      any
	nullEmpty bool
}

// Cache sets how many decompressed record batches a file with compressed
// buffers (LZ4 frame, ZSTD) keeps in memory, 4 by default: each batch is
// decompressed once when a container first reads it, and the least recently
// used is dropped when the cache is full. A loop in the order of
// eachobs.ShuffleBlocks (the record batches are the containers' blocks) with a
// cache of at least its window decompresses each batch once per epoch. It
// panics with a *container.ArgError when n < 1.
func Cache(n int) Option {
	container.CheckArg(n >= 1, "arrowipc.Cache", "n", n, ">= 1")
	return func(o *options) { o.cache = n }
}

// Fill makes a null number read as v, in [Numbers], [Scalars] and the values
// of [Lists]: a column with nulls is then copied into memory with v at every
// null. v must have the element type of the accessor it is given to; a
// different one is a *container.ArgError panic there. Without Fill, a column
// holding nulls is an error wrapping [ErrNull].
func Fill[E arraycontainer.Number](v E) Option {
	return func(o *options) { o.fill = v }
}

// NullEmpty makes a null list or string read as an empty one, in [Lists] and
// [Strings]; [Valid] tells them apart. Without it, such a column holding nulls
// is an error wrapping [ErrNull].
func NullEmpty() Option {
	return func(o *options) { o.nullEmpty = true }
}
