package parquet

import (
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
)

// An Option changes how a column is read. A function ignores the options that
// are not its own.
type Option func(*options)

type options struct {
	cache     int
	fill      any
	nullEmpty bool
}

func optionsOf(opts []Option) options {
	o := options{cache: 2}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// Cache sets how many decoded row groups a container keeps, 2 by default: a
// row group is decoded (its selected columns only) when a gather first needs
// one of its rows, and the least recently used is dropped when the cache is
// full. Random access to rows spread over many row groups decodes a row group
// per row; read in the order of eachobs.ShuffleBlocks with a cache of at least
// its window (a few more with workers), and each row group is decoded once per
// epoch. It panics with a *container.ArgError when n < 1.
func Cache(n int) Option {
	container.CheckArg(n >= 1, "parquet.Cache", "n", n, ">= 1")
	return func(o *options) { o.cache = n }
}

// Fill makes a null number read as v, in [Numbers], [Scalars] and the values
// of [Lists]. v must have the element type of the accessor it is given to; a
// different one is a *container.ArgError panic there. Without Fill, a null met
// while decoding is an error wrapping [ErrNull] (a panic in a gather).
func Fill[E arraycontainer.Number](v E) Option {
	return func(o *options) { o.fill = v }
}

// NullEmpty makes a null list or string read as an empty one, in [Lists] and
// [Strings]; [Valid] tells them apart. Without it, such a column that may hold
// nulls is an error wrapping [ErrNull].
func NullEmpty() Option {
	return func(o *options) { o.nullEmpty = true }
}
