package provider

import (
	"math"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
)

// An Option configures a [Provider]. Options are plain values, not generic, so
// that provider.New(data, label, 128, provider.PadWith(0)) needs no type
// arguments. Options that take an argument check it when called and panic there.
type Option func(*config)

type config struct {
	padding  bool               // PadWith or PadSource given
	padAll   float64            // PadWith
	padBy    map[string]float64 // PadSource
	padNames []string           // PadSource names in the order given
	loop     []eachobs.Option
}

// Loop passes options to the provider's loop, an eachobs.Loader: eachobs.Shuffle
// (MXNet.jl's shuffle=true),
// eachobs.Tail (the last batch), eachobs.Partition (MXNet's part_index and
// num_parts), eachobs.Prefetch (MXNet's PrefetchingIter) and eachobs.Workers. They
// mean what they mean in package eachobs. Loop panics with a
// [*container.ArgError] if an option is nil.
func Loop(opts ...eachobs.Option) Option {
	for _, o := range opts {
		container.CheckArg(o != nil, "provider.Loop", "option", "nil", "an eachobs.Option")
	}
	return func(c *config) { c.loop = append(c.loop, opts...) }
}

// PadWith makes the last batch of an epoch full size, its padding slots holding
// v in every source (MXNet.jl's data_padding and label_padding) rather than the
// repeated observations of the index.Pad tail; their Indices are -1, and
// Batch.Real counts the real observations. v is converted to each source's
// element type; [New] returns an error wrapping [ErrPad] when it does not fit (a
// fraction or a negative value for an unsigned type, a value out of range).
// [PadSource] overrides v for one source. The loop then runs with the index.Pad
// tail: a Loop tail of index.Drop or index.RollOver with PadWith panics in New
// (index.Keep, the default, cannot be told from no tail and gives way).
func PadWith(v float64) Option {
	return func(c *config) { c.padding = true; c.padAll = v }
}

// PadSource is [PadWith] for one source: the padding slots of the data or label
// source called name hold v; sources no PadSource names hold the PadWith value, 0
// by default. [New] returns an error wrapping [ErrPad] when no source is called
// name or v does not fit its element type.
func PadSource(name string, v float64) Option {
	return func(c *config) {
		c.padding = true
		if c.padBy == nil {
			c.padBy = map[string]float64{}
		}
		if _, ok := c.padBy[name]; !ok {
			c.padNames = append(c.padNames, name)
		}
		c.padBy[name] = v
	}
}

func newConfig(op string, opts []Option) config {
	var c config
	for _, o := range opts {
		container.CheckArg(o != nil, "provider."+op, "option", "nil", "an Option")
		o(&c)
	}
	return c
}

// fitPad converts v to E, reporting whether E holds it: exactly for integer
// types, rounded to the nearest value (but not to an infinity) for floats.
func fitPad[E arraycontainer.Number](v float64) (E, bool) {
	e := E(v)
	if float64(e) == v {
		return e, true
	}
	half := 0.5
	if E(half) == 0 { // an integer type: a fraction, NaN or out of range
		return e, false
	}
	return e, !math.IsInf(float64(e), 0)
}
