package provider

import (
	"errors"
	"fmt"
	"iter"
	"slices"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/tuples"
)

var (
	// ErrPad is wrapped by the error [New] returns for a padding value that does
	// not fit a source's element type, or that names no source.
	ErrPad = errors.New("invalid padding")
	// ErrSource is wrapped by the error [New] returns for a source it cannot
	// serve: one whose batch shape it cannot learn (not an array, and no
	// observation to gather).
	ErrSource = errors.New("source without a batch shape")
)

// A Desc describes a data or label source: its name and the shape of its
// batches, the batch size included at the observation axis (MXNet's DataDesc,
// the (name, shape) pairs of provide_data and provide_label). A source of 4
// features per observation in batches of 4 has Shape [4 4].
type Desc struct {
	Name  string
	Shape []int
}

// Sources is a named group of a provider's sources, all of one Go type C whose
// batches are arrays of E: tuples.NewNamed(names, sources...) makes one. Sources
// of different Go types go in as arraycontainer.Batched[E], the interface they
// share: tuples.NewNamed(names, []arraycontainer.Batched[float32]{x, scaled}...).
type Sources[C arraycontainer.Batched[E], E arraycontainer.Number] = tuples.Named[C, *arraycontainer.Array[E], *arraycontainer.Array[E]]

// Arrays is the data of a provider's batch: X holds the batch of every data
// source, in the order of [Provider.ProvideData], Y the batch of every label
// source, in the order of [Provider.ProvideLabel] (empty without labels).
type Arrays[D, L arraycontainer.Number] = tuples.Pair[[]*arraycontainer.Array[D], []*arraycontainer.Array[L]]

// A Batch is one step of a provider's loop: the kit's one batch type,
// eachobs.Batch, whose Data holds the batch of every source ([Arrays]). Real
// counts the real observations (MXNet's count_samples), Pad() the padding slots,
// Next() the position after it.
type Batch[D, L arraycontainer.Number] = eachobs.Batch[Arrays[D, L]]

// A Provider hands out batches of named data and label sources linked by one
// index, MXNet.jl's AbstractDataProvider. Every source is a container whose
// batches are arrays (an *arraycontainer.Array, a subset of one, a file mapped as
// one); the data sources share the element type D and the label sources L.
//
// A Provider is immutable and safe for concurrent use: every loop of
// [Provider.Epoch] and every [Provider.Iter] has its own buffers, so several
// loops may read one provider at once (MXNet's providers forbid this).
type Provider[D, L arraycontainer.Number] struct {
	size      int
	sources   []Desc // data sources, then label sources
	nData     int
	dataFill  []D // PadWith: the padding value of every data source
	labelFill []L // and of every label source
	loader    *eachobs.Loader[Arrays[D, L]]
}

// New returns a provider of the data and label sources in batches of size. The
// groups name the sources (tuples.NewNamed); they are read, never copied. The
// options set the loop ([Loop]: order, last batch, partition, background
// gathering) and constant padding ([PadWith], [PadSource]).
//
// New returns an error wrapping tuples.ErrNobsMismatch when data and labels hold
// different numbers of observations, tuples.ErrName when a data and a label
// source share a name, [ErrPad] for a padding value that does not fit, and
// [ErrSource] for a source whose batch shape is unknown. To learn a source's batch
// shape New reads the shape of an array, and gathers observation 0 of any other
// source. New panics with a [*container.ArgError] if size < 1, if data or label
// is nil, or if constant padding is asked for with a loop tail other than
// index.Pad.
func New[CD arraycontainer.Batched[D], CL arraycontainer.Batched[L], D, L arraycontainer.Number](
	data *Sources[CD, D], label *Sources[CL, L], size int, opts ...Option) (*Provider[D, L], error) {
	container.CheckArg(label != nil, "provider.New", "label group", "nil", "a group (NewUnlabeled makes a provider without labels)")
	return build("New", data, label, size, opts)
}

// NewUnlabeled returns a provider of data sources without labels, for
// prediction: [Provider.ProvideLabel] is empty and so is every batch's Data.Y.
// Its errors and panics are those of [New], named provider.NewUnlabeled.
func NewUnlabeled[CD arraycontainer.Batched[D], D arraycontainer.Number](
	data *Sources[CD, D], size int, opts ...Option) (*Provider[D, D], error) {
	return build[CD, *arraycontainer.Array[D], D, D]("NewUnlabeled", data, nil, size, opts)
}

// build is New and NewUnlabeled (label nil); fn names the one called.
func build[CD arraycontainer.Batched[D], CL arraycontainer.Batched[L], D, L arraycontainer.Number](
	fn string, data *Sources[CD, D], label *Sources[CL, L], size int, opts []Option) (*Provider[D, L], error) {
	op := "provider." + fn
	cfg := newConfig(fn, opts)
	container.CheckArg(size >= 1, op, "batch size", size, ">= 1")
	container.CheckArg(data != nil, op, "data group", "nil", "a group")
	p := &Provider[D, L]{size: size}
	if err := addSources(&p.sources, data, size); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	p.nData = len(p.sources)
	var labels container.Batched[[]*arraycontainer.Array[L], []*arraycontainer.Array[L]] = noLabels[L](data.Nobs())
	if label != nil {
		if label.Nobs() != data.Nobs() {
			return nil, fmt.Errorf("%s: %w: data sources hold %d, label sources %d", op, tuples.ErrNobsMismatch, data.Nobs(), label.Nobs())
		}
		for _, name := range label.Names() {
			if data.Index(name) >= 0 {
				return nil, fmt.Errorf("%s: %w: %q names a data and a label source", op, tuples.ErrName, name)
			}
		}
		if err := addSources(&p.sources, label, size); err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		labels = label
	}
	zipped, err := tuples.Zip2(data, labels)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	if cfg.padding {
		if err := p.padValues(&cfg); err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
	}
	p.loader = eachobs.NewLoader(zipped, size, cfg.loop...)
	if cfg.padding {
		switch t := p.loader.Steps().Tail(); t {
		case index.Keep: // the default: constant padding is the pad tail
			p.loader = eachobs.NewLoader(zipped, size, append(slices.Clip(cfg.loop), eachobs.Tail(index.Pad))...)
		case index.Pad:
		default:
			panic(&container.ArgError{Op: op, Arg: "loop tail", Value: t, Want: "index.Pad (or none) with PadWith or PadSource"})
		}
	}
	return p, nil
}

// addSources appends the name and batch shape of every member of g to dst.
func addSources[C arraycontainer.Batched[E], E arraycontainer.Number](dst *[]Desc, g *Sources[C, E], size int) error {
	for k, name := range g.Names() {
		var m arraycontainer.Batched[E] = g.Member(k)
		var shape []int
		var dim int
		switch a, ok := m.(*arraycontainer.Array[E]); {
		case ok:
			shape, dim = a.Shape(), a.Dim()
		case m.Nobs() > 0:
			b := m.GetObsInto(nil, []int{0})
			shape, dim = b.Shape(), b.Dim()
		default:
			return fmt.Errorf("source %q: %w: it is not an array and holds no observation to gather", name, ErrSource)
		}
		shape[dim] = size
		*dst = append(*dst, Desc{Name: name, Shape: shape})
	}
	return nil
}

// padValues sets the padding value of every source from cfg.
func (p *Provider[D, L]) padValues(cfg *config) error {
	for _, name := range cfg.padNames {
		if !slices.ContainsFunc(p.sources, func(s Desc) bool { return s.Name == name }) {
			return fmt.Errorf("%w: PadSource(%q) names no source", ErrPad, name)
		}
	}
	var err error
	if p.dataFill, err = fills[D](p.sources[:p.nData], cfg); err != nil {
		return err
	}
	p.labelFill, err = fills[L](p.sources[p.nData:], cfg)
	return err
}

// fills returns the padding value of every source, converted to E.
func fills[E arraycontainer.Number](sources []Desc, cfg *config) ([]E, error) {
	out := make([]E, len(sources))
	for k, s := range sources {
		v, ok := cfg.padBy[s.Name]
		if !ok {
			v = cfg.padAll
		}
		e, ok := fitPad[E](v)
		if !ok {
			return nil, fmt.Errorf("%w: %v does not fit source %q of element type %T", ErrPad, v, s.Name, e)
		}
		out[k] = e
	}
	return out, nil
}

// BatchSize returns the batch size, MXNet's get_batch_size.
func (p *Provider[D, L]) BatchSize() int { return p.size }

// Seed returns the seed of the provider's loop: the one given to
// eachobs.Shuffle through [Loop], or 0. A batch's Pos carries it, and
// [Iter.UnmarshalBinary] accepts only positions with it.
func (p *Provider[D, L]) Seed() uint64 { return p.loader.Seed() }

// Steps returns the schedule of the provider's loop from the start of epoch 0:
// the observations of an epoch, the batch size, the parts (eachobs.Partition)
// and the tail (index.Pad under [PadWith]). See eachobs.Loader.Steps.
func (p *Provider[D, L]) Steps() index.Steps { return p.loader.Steps() }

// ProvideData returns the name and batch shape of every data source, in the
// order of a batch's Data.X, newly allocated: MXNet's provide_data.
func (p *Provider[D, L]) ProvideData() []Desc { return cloneSources(p.sources[:p.nData]) }

// ProvideLabel returns the name and batch shape of every label source, in the
// order of a batch's Data.Y, newly allocated: MXNet's provide_label. It is empty
// for a provider without labels.
func (p *Provider[D, L]) ProvideLabel() []Desc { return cloneSources(p.sources[p.nData:]) }

func cloneSources(s []Desc) []Desc {
	out := make([]Desc, len(s))
	for k, src := range s {
		out[k] = Desc{Name: src.Name, Shape: slices.Clone(src.Shape)}
	}
	return out
}

// Data returns the batch of the data source called name in b, MXNet's
// get(provider, batch, name). It panics with a [*container.ArgError] naming the
// sources if there is none.
func (p *Provider[D, L]) Data(b Batch[D, L], name string) *arraycontainer.Array[D] {
	k := p.find("provider.Provider.Data", name, p.sources[:p.nData])
	container.CheckIndex("provider.Provider.Data (a batch of this provider)", k, len(b.Data.X))
	return b.Data.X[k]
}

// Label returns the batch of the label source called name in b. It panics with
// a [*container.ArgError] naming the sources if there is none.
func (p *Provider[D, L]) Label(b Batch[D, L], name string) *arraycontainer.Array[L] {
	k := p.find("provider.Provider.Label", name, p.sources[p.nData:])
	container.CheckIndex("provider.Provider.Label (a batch of this provider)", k, len(b.Data.Y))
	return b.Data.Y[k]
}

func (p *Provider[D, L]) find(op, name string, sources []Desc) int {
	k := slices.IndexFunc(sources, func(s Desc) bool { return s.Name == name })
	if k < 0 {
		names := make([]string, len(sources))
		for j, s := range sources {
			names[j] = s.Name
		}
		panic(&container.ArgError{Op: op, Arg: "source", Value: name, Want: fmt.Sprintf("one of %q", names)})
	}
	return k
}

// Epoch returns a loop over the batches of epoch e, MXNet's eachbatch after
// reset!: range Epoch(0), Epoch(1), ... for successive epochs, each in
// eachobs.Shuffle's order of that epoch (in data order without Shuffle). Batches
// carry their position. The
// yielded batches live in buffers the loop reuses: they are valid until the loop
// body returns. The loop may be ranged several times and from several goroutines
// at once. Epoch panics with a [*container.ArgError] if e is outside the
// loader's epochs.
func (p *Provider[D, L]) Epoch(e int) iter.Seq[Batch[D, L]] {
	return p.batches(p.loader.Epoch(e))
}

// Iter returns an iterator over the batches of every epoch from the first batch
// of epoch 0: the provider's container.Iterator, an eachobs.Iter whose padding
// holds the provider's constants. Its state is the position of the next batch;
// restore one saved by another provider over the same data (also of another
// batch size or number of parts) with [Iter.UnmarshalBinary], as
// eachobs.Iter.UnmarshalBinary says.
func (p *Provider[D, L]) Iter() *Iter[D, L] { return &Iter[D, L]{it: p.loader.Iter(), p: p} }

// An Iter is a pull iterator over a [Provider]'s batches: see eachobs.Iter,
// whose methods it has. Its batches are valid until the next call of Next.
type Iter[D, L arraycontainer.Number] struct {
	it *eachobs.Iter[Arrays[D, L]]
	p  *Provider[D, L]
}

var _ container.Iterator[Batch[float32, int32]] = (*Iter[float32, int32])(nil)

// Next returns the next batch, with its padding slots filled under [PadWith],
// or false after the last epoch or Close.
func (it *Iter[D, L]) Next() (Batch[D, L], bool) {
	b, ok := it.it.Next()
	if ok {
		it.p.pad(b)
	}
	return b, ok
}

// All returns the batches from where the iterator stands as a range-over-func
// iterator; a break stops its goroutines and leaves it after the last batch
// taken (eachobs.Iter.All).
func (it *Iter[D, L]) All() iter.Seq[Batch[D, L]] { return it.p.batches(it.it.All()) }

// Warm starts gathering now: see eachobs.Iter.Warm.
func (it *Iter[D, L]) Warm() { it.it.Warm() }

// Pos returns the position of the next batch: the iterator's state.
func (it *Iter[D, L]) Pos() eachobs.Position { return it.it.Pos() }

// Steps returns the schedule of the provider's loop: [Provider.Steps].
func (it *Iter[D, L]) Steps() index.Steps { return it.it.Steps() }

// Err returns nil: a provider's iterator does not fail (a failure in gathering
// panics).
func (it *Iter[D, L]) Err() error { return nil }

// Close stops the iterator's goroutines; see eachobs.Iter.Close.
func (it *Iter[D, L]) Close() { it.it.Close() }

// MarshalBinary returns the iterator's state: see eachobs.Iter.MarshalBinary.
func (it *Iter[D, L]) MarshalBinary() ([]byte, error) { return it.it.MarshalBinary() }

// UnmarshalBinary restores a saved state: see eachobs.Iter.UnmarshalBinary. It
// returns an error wrapping container.ErrState for a state the provider cannot
// continue from.
func (it *Iter[D, L]) UnmarshalBinary(data []byte) error { return it.it.UnmarshalBinary(data) }

// batches fills the padding of the loop's batches with constants, under
// PadWith; otherwise it is seq itself.
func (p *Provider[D, L]) batches(seq iter.Seq[Batch[D, L]]) iter.Seq[Batch[D, L]] {
	if p.dataFill == nil {
		return seq
	}
	return func(yield func(Batch[D, L]) bool) {
		for b := range seq {
			p.pad(b)
			if !yield(b) {
				return
			}
		}
	}
}

// pad fills the padding slots of b with the provider's constants, under
// PadWith, and marks their indices -1.
func (p *Provider[D, L]) pad(b Batch[D, L]) {
	if p.dataFill == nil || b.Real == len(b.Indices) {
		return
	}
	for k, a := range b.Data.X {
		a.FillObs(b.Real, len(b.Indices), p.dataFill[k])
	}
	for k, a := range b.Data.Y {
		a.FillObs(b.Real, len(b.Indices), p.labelFill[k])
	}
	for j := b.Real; j < len(b.Indices); j++ {
		b.Indices[j] = -1
	}
}

// noLabels is the label side of a provider without labels: n observations of no
// sources.
type noLabels[L arraycontainer.Number] int

func (n noLabels[L]) Nobs() int { return int(n) }

func (n noLabels[L]) GetObs(i int) []*arraycontainer.Array[L] {
	container.CheckIndex("provider.noLabels.GetObs", i, int(n))
	return nil
}

func (n noLabels[L]) GetObsInto(dst []*arraycontainer.Array[L], idx []int) []*arraycontainer.Array[L] {
	container.CheckIndices("provider.noLabels.GetObsInto", idx, int(n))
	return dst[:0]
}
