package gomlx

import (
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/gomlx/ml/train"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/provider"
)

// ErrShape is wrapped by the error [New] returns for a loop whose batches would
// not all have one size (the index.Keep tail with a partial last batch), and by
// the error a [Dataset] yields for a batch whose tensors differ in number or
// shape from the first batch's: GoMLX compiles a new graph for every new shape.
var ErrShape = errors.New("batch shape changes")

// A Loop is the iterator of a batch loop that a [Dataset] reads: the Iter of an
// *eachobs.Loader or of a *provider.Provider. Its state is the dataset's: the
// position of the next batch, which the dataset reads (Pos), saves and restores
// (MarshalBinary, UnmarshalBinary); its schedule of steps (Steps) says where
// epochs begin.
type Loop[B any] interface {
	container.Iterator[eachobs.Batch[B]]
	Pos() eachobs.Position
	Steps() index.Steps
}

var (
	_ Loop[int]                                            = (*eachobs.Iter[int])(nil)
	_ Loop[provider.Arrays[float32, int32]]                = (*provider.Iter[float32, int32])(nil)
	_ train.Dataset                                        = (*Dataset[int])(nil)
	_ func(*Writer, arraycontainer.LabeledBatch[int, int]) = labeled[int, int]
)

// A Dataset is a GoMLX train.Dataset over a kit loop: each batch of its Iter is
// the loop's next batch, written into new tensors on the backend's device. B is
// the loop's batch type.
//
// A Dataset is not safe for concurrent use: one goroutine reads it, as GoMLX's
// train.Loop and Trainer.Eval do. It holds the loop's goroutines (with
// eachobs.Prefetch or Workers) between passes: [Dataset.Close] ends them.
type Dataset[B any] struct {
	name    string
	backend compute.Backend
	loop    Loop[B]
	fill    func(*Writer, B)
	cfg     config

	pos    eachobs.Position  // of the next batch
	held   *eachobs.Batch[B] // a batch pulled past an empty epoch, yielded when its epoch comes
	heldB  eachobs.Batch[B]
	closed bool // the loop was closed: the next pull restores it at pos
	w      Writer
	stats  Stats
}

// Stats counts where a [Dataset] spent its time between GoMLX's steps, so that
// a training loop can say what share of a step waited for data.
type Stats struct {
	Batches int           // batches yielded
	Wait    time.Duration // waiting for the loop's next batch (gathering, unless prefetched)
	Fill    time.Duration // writing batches into tensors: the one copy per batch
}

// New returns a Dataset called name that yields the batches of loop as tensors
// of backend (the one the trainer runs on), each written by fill, which calls
// [Writer.Input] and [Writer.Label] once per tensor, in order, and writes each
// with [Array], [Values] or [Stack]:
//
//	ds, err := gomlx.New(backend, "train", loader.Iter(), func(w *gomlx.Writer, b tuples.Pair[*arraycontainer.Array[float32], []int]) {
//		gomlx.Array(w.Input(), b.X)
//		gomlx.Values(w.Label(), b.Y)
//	})
//
// [Labeled] and [Provided] are New with the fill function of labeled data and
// of providers.
//
// The dataset starts where loop stands (epoch 0, batch 0 of a new iterator,
// or a state restored into it). Every batch must have the same size, since
// GoMLX compiles a graph per shape: New returns an error wrapping [ErrShape]
// for a loop whose last batch would be partial (the index.Keep tail, the
// default, with a batch size that does not divide the observations): build it
// with eachobs.Tail(index.Drop) for training, or index.Pad with [Mask] for
// evaluation. It panics with a *container.ArgError if backend, loop or fill is
// nil.
func New[B any](backend compute.Backend, name string, loop Loop[B], fill func(w *Writer, b B), opts ...Option) (*Dataset[B], error) {
	container.CheckArg(backend != nil, "gomlx.New", "backend", "nil", "a GoMLX backend")
	container.CheckArg(loop != nil, "gomlx.New", "loop", loop, "non-nil")
	container.CheckArg(fill != nil, "gomlx.New", "fill", "nil", "a function")
	cfg := newConfig(opts)
	steps := loop.Steps()
	if step := steps.Size() * steps.Parts(); steps.Tail() == index.Keep && steps.N()%step != 0 && steps.N() > 0 {
		return nil, fmt.Errorf("gomlx.New: %s: %d observations in steps of %d leave a last step of %d with the Keep tail: %w (build the loop with eachobs.Tail(index.Drop), or index.Pad and gomlx.Mask)",
			name, steps.N(), step, steps.N()%step, ErrShape)
	}
	d := &Dataset[B]{name: name, backend: backend, loop: loop, fill: fill, cfg: cfg, pos: loop.Pos()}
	d.w.backend, d.w.mask, d.w.parts = backend, cfg.mask, 1
	return d, nil
}

// Labeled returns a Dataset of labeled data: the features of each batch are
// the step's one input, with the batch's shape, and the labels its one label,
// of shape [batch, 1] (the sparse labels of GoMLX's losses and metrics). loop is
// a loop over a tuples.Zip2 of an array and labels, a split, fold or
// conversion of one (arraycontainer.Labeled). Its errors and panics are New's.
func Labeled[E, L arraycontainer.Number](backend compute.Backend, name string, loop Loop[arraycontainer.LabeledBatch[E, L]], opts ...Option) (*Dataset[arraycontainer.LabeledBatch[E, L]], error) {
	return New(backend, name, loop, labeled[E, L], opts...)
}

func labeled[E, L arraycontainer.Number](w *Writer, b arraycontainer.LabeledBatch[E, L]) {
	Array(w.Input(), b.X)
	Values(w.Label(), b.Y)
}

// Provided returns a Dataset of a provider's batches: its data sources are the
// step's inputs and its label sources the labels, in the order of
// ProvideData and ProvideLabel, each with its batch shape (a source of one
// value per observation as [batch, 1]). Constant padding (provider.PadWith)
// pads the last batch to full size; [Mask] tells the padding apart. Its errors
// and panics are New's.
func Provided[D, L arraycontainer.Number](backend compute.Backend, name string, p *provider.Provider[D, L], opts ...Option) (*Dataset[provider.Arrays[D, L]], error) {
	return New(backend, name, p.Iter(), provided[D, L], opts...)
}

func provided[D, L arraycontainer.Number](w *Writer, b provider.Arrays[D, L]) {
	for _, x := range b.X {
		Array(w.Input(), x)
	}
	for _, y := range b.Y {
		Array(w.Label(), y)
	}
}

// Name returns the dataset's name, for GoMLX's reports. It implements
// train.Dataset.
func (d *Dataset[B]) Name() string { return d.name }

// Iter returns the batches from the dataset's position on, each as a
// train.Batch of new tensors whose ownership passes to the caller (GoMLX's
// trainer hands them to the step and frees them after it), with the spec set
// by [Spec] or [Mask] (nil by default). It implements train.Dataset. Each
// batch is written from the loop's buffer into tensors on the backend's
// device, the one copy a batch costs.
//
// Without [Endless] Iter ends at the end of the epoch its first batch is in:
// GoMLX's train.Loop.RunEpochs calls Iter once per epoch, and each call gives
// the next epoch that has a batch (with the index.RollOver tail and fewer
// observations than a batch, some have none), reshuffled by the loop's seed and epoch (eachobs.Shuffle),
// with the per-observation randomness of that epoch for random containers
// (container.Random, transform.MapRand). Iter never goes back: after a restore
// ([Dataset.Resume], [Dataset.RestoreState]) or a break in the middle of an
// epoch (RunSteps stops after its steps), the next Iter continues with the
// next batch, not from the epoch's start, so that a run stopped and restarted
// sees exactly the batches of the uninterrupted run. With Endless, Iter runs
// through the epochs without end, for train.Loop.RunSteps.
//
// A failed read of the container (a *container.PanicError from the loop, or
// any panic with an error value) is yielded as the error, wrapped with the
// batch's position, and ends Iter; the next Iter reads that batch again. So is
// an error wrapping [ErrShape] for a batch whose tensors differ from the first
// batch's.
func (d *Dataset[B]) Iter() iter.Seq2[train.Batch, error] {
	return func(yield func(train.Batch, error) bool) {
		epoch := -1 // of the first batch
		for {
			start := time.Now()
			b, ok, err := d.pull()
			if err != nil {
				d.Close() // restarted at d.pos, the failed batch, by the next pull
				yield(train.Batch{}, err)
				return
			}
			if ok && epoch < 0 {
				epoch = b.Pos.Epoch
			}
			if ok && !d.cfg.endless && b.Pos.Epoch != epoch {
				// The epoch's last step had no batch for this part
				// (eachobs.Partition with the index.Keep tail): keep b for
				// the next pass.
				d.heldB, d.held, d.pos = b, &d.heldB, b.Pos
				ok = false
			}
			if !ok {
				return
			}
			got := time.Now()
			d.w.begin(b.Real, len(b.Indices))
			d.fill(&d.w, b.Data)
			if err := d.w.end(); err != nil {
				d.w.discard()
				d.Close()
				yield(train.Batch{}, fmt.Errorf("gomlx: %s: epoch %d batch %d: %w", d.name, b.Pos.Epoch, b.Pos.Batch, err))
				return
			}
			d.pos = b.Next()
			d.stats.Batches++
			d.stats.Wait += got.Sub(start)
			d.stats.Fill += time.Since(got)
			last := !d.cfg.endless && b.Count >= 0 && b.Pos.Batch+1 >= b.Count
			if !yield(train.Batch{Inputs: d.w.inputs, Labels: d.w.labels, Spec: d.cfg.spec}, nil) || last {
				return
			}
		}
	}
}

// pull returns the loop's next batch, starting the loop again at the dataset's
// position if it was closed. A panic of the loop with an error value (a
// *container.PanicError, a read error) is returned.
func (d *Dataset[B]) pull() (b eachobs.Batch[B], ok bool, err error) {
	if d.held != nil {
		b, d.held = *d.held, nil
		return b, true, nil
	}
	defer func() {
		if r := recover(); r != nil {
			e, isErr := r.(error)
			if !isErr {
				panic(r)
			}
			err = fmt.Errorf("gomlx: %s: epoch %d batch %d: %w", d.name, d.pos.Epoch, d.pos.Batch, e)
		}
	}()
	if d.closed {
		if err := d.seek(d.pos); err != nil {
			return b, false, err
		}
	}
	b, ok = d.loop.Next()
	return b, ok, nil
}

// seek sets the loop to pos.
func (d *Dataset[B]) seek(pos eachobs.Position) error {
	state, err := pos.MarshalBinary()
	if err == nil {
		err = d.loop.UnmarshalBinary(state)
	}
	if err != nil {
		return fmt.Errorf("gomlx: %s: %w", d.name, err)
	}
	d.pos, d.held, d.closed = pos, nil, false
	return nil
}

// Resume makes the next batch of the dataset the one at pos, a position saved
// from [Dataset.Position]: the training goes on exactly where it stopped,
// mid-epoch, without replaying data, with the shuffle and the
// per-observation randomness the uninterrupted run had. [Dataset.RestoreState]
// does the same from a GoMLX checkpoint. Resume returns the loop's error for a
// position that does not fit it (wrapping container.ErrState), and then
// leaves the dataset as it was.
func (d *Dataset[B]) Resume(pos eachobs.Position) error {
	return d.seek(pos)
}

// Position returns where the dataset stands: the position of the next batch
// (after the last batch of an epoch, batch 0 of the next).
func (d *Dataset[B]) Position() eachobs.Position { return d.pos }

// Stats returns the batches yielded so far and the time spent on them.
func (d *Dataset[B]) Stats() Stats { return d.stats }

// Close stops the loop and its goroutines (eachobs.Prefetch, Workers); the
// batches they prepared are dropped. The dataset stays usable: the next Iter
// starts the loop again at [Dataset.Position]. Close the dataset when training
// ends, as the loop would be stopped by leaving a range statement.
func (d *Dataset[B]) Close() {
	d.loop.Close()
	d.held, d.closed = nil, true
}
