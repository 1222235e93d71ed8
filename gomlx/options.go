package gomlx

import "github.com/obskit/obskit/container"

// An Option configures a [Dataset]. Options are plain values, not generic, so
// that gomlx.Labeled("train", loader, gomlx.Endless()) needs no type arguments.
type Option func(*config)

type config struct {
	mask, endless, specSet bool
	spec                   any
}

func newConfig(opts []Option) config {
	var c config
	for _, o := range opts {
		container.CheckArg(o != nil, "gomlx.New", "option", "nil", "an Option")
		o(&c)
	}
	if c.mask && !c.specSet {
		c.spec = MaskSpec
	}
	return c
}

// MaskSpec is the spec of a dataset built with [Mask] and without [Spec].
const MaskSpec = "gomlx.Mask"

// Mask adds a label after the others: a boolean tensor of shape [batch], true
// for the batch's real observations and false for its padding (the index.Pad
// tail, provider.PadWith). GoMLX's losses and per-batch metrics read such a
// label as their mask; its mean metrics still weight a padded batch by its full
// size, so evaluate with [MaskedAccuracy] or [MaskedMean] to count every
// observation exactly once. GoMLX's trainer wants one number of labels per
// spec, so the dataset's spec is [MaskSpec] unless [Spec] sets another.
func Mask() Option { return func(c *config) { c.mask = true } }

// Endless makes the dataset's Iter run through every epoch, one after another,
// without end, for GoMLX's train.Loop.RunSteps (and checkpoints that count
// steps): the epoch of the next batch is [Dataset.Position]'s.
func Endless() Option { return func(c *config) { c.endless = true } }

// Spec sets the spec of every batch (nil by default): GoMLX
// passes it to the model function, and compiles a graph per distinct spec.
func Spec(v any) Option { return func(c *config) { c.spec, c.specSet = v, true } }
