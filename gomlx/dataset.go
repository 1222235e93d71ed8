package gomlx

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/train"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/provider"
)

// ErrShape is wrapped by the error [New] returns for a loop whose batches would
// not all have one size (the index.Keep tail with a partial last batch), and by
// the error [Dataset.Yield] returns for a batch whose tensors differ in number
// or shape from the first batch's: GoMLX compiles a new graph for every new
// shape.
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
	_ train.DatasetCustomOwnership                         = (*Dataset[int])(nil)
	_ func(*Writer, arraycontainer.LabeledBatch[int, int]) = labeled[int, int]
)

// A Dataset is a GoMLX train.Dataset over a kit loop: each Yield is the loop's
// next batch, written into the step's tensors. B is the loop's batch type.
//
// A Dataset is not safe for concurrent use: one goroutine calls its methods, as
// GoMLX's train.Loop and Trainer.Eval do. It holds the loop's goroutines (with
// eachobs.Prefetch or Workers) between calls: [Dataset.Close] ends them.
type Dataset[B any] struct {
	name string
	loop Loop[B]
	fill func(*Writer, B)
	cfg  config

	epoch  int               // the epoch Yield is in
	pos    eachobs.Position  // of the next batch
	held   *eachobs.Batch[B] // a batch pulled past an empty epoch, yielded when its epoch comes
	heldB  eachobs.Batch[B]
	fresh  bool  // nothing was yielded since New, Resume or Reset
	closed bool  // the loop was closed: the next pull restores it at pos
	atEnd  bool  // the epoch is over: Yield returns io.EOF until Reset
	err    error // a failed read: Yield returns it until Reset or Resume
	w      Writer
	stats  Stats
}

// Stats counts where a [Dataset]'s Yield spent its time, so that a training
// loop can say what share of a step waited for data.
type Stats struct {
	Batches int           // batches yielded
	Wait    time.Duration // waiting for the loop's next batch (gathering, unless prefetched)
	Fill    time.Duration // writing batches into tensors: the one copy per batch
}

// New returns a Dataset called name that yields the batches of loop, each
// written into tensors by fill, which calls [Writer.Input] and [Writer.Label]
// once per tensor, in order, and writes each with [Array], [Values] or
// [Stack]:
//
//	ds, err := gomlx.New("train", loader, func(w *gomlx.Writer, b tuples.Pair[*arraycontainer.Array[float32], []int]) {
//		gomlx.Array(w.Input(), b.X)
//		gomlx.Values(w.Label(), b.Y)
//	})
//
// [Labeled] and [Provided] are New with the fill function of labeled data and
// of providers.
//
// The dataset starts at epoch 0, batch 0 of the loop (see [Dataset.Resume] to
// start elsewhere). Every batch must have the same size, since GoMLX compiles a
// graph per shape: New returns an error wrapping [ErrShape] for a loop whose
// last batch would be partial (the index.Keep tail, the default, with a batch
// size that does not divide the observations): build it with
// eachobs.Tail(index.Drop) for training, or index.Pad with [Mask] for
// evaluation. It panics with a *container.ArgError if loop or fill is nil.
func New[B any](name string, loop Loop[B], fill func(w *Writer, b B), opts ...Option) (*Dataset[B], error) {
	container.CheckArg(loop != nil, "gomlx.New", "loop", loop, "non-nil")
	container.CheckArg(fill != nil, "gomlx.New", "fill", "nil", "a function")
	cfg := newConfig(opts)
	steps := loop.Steps()
	if step := steps.Size() * steps.Parts(); steps.Tail() == index.Keep && steps.N()%step != 0 && steps.N() > 0 {
		return nil, fmt.Errorf("gomlx.New: %s: %d observations in steps of %d leave a last step of %d with the Keep tail: %w (build the loop with eachobs.Tail(index.Drop), or index.Pad and gomlx.Mask)",
			name, steps.N(), step, steps.N()%step, ErrShape)
	}
	d := &Dataset[B]{name: name, loop: loop, fill: fill, cfg: cfg}
	d.w.owned, d.w.mask, d.w.parts = cfg.owned, cfg.mask, 1
	if err := d.Resume(loop.Pos()); err != nil {
		return nil, err
	}
	return d, nil
}

// Labeled returns a Dataset of labeled data: the features of each batch are
// the step's one input, with the batch's shape, and the labels its one label,
// of shape [batch, 1] (the sparse labels of GoMLX's losses and metrics). loop is
// a loop over a tuples.Zip2 of an array and labels, a split, fold or
// conversion of one (arraycontainer.Labeled). Its errors and panics are New's.
func Labeled[E, L arraycontainer.Number](name string, loop Loop[arraycontainer.LabeledBatch[E, L]], opts ...Option) (*Dataset[arraycontainer.LabeledBatch[E, L]], error) {
	return New(name, loop, labeled[E, L], opts...)
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
func Provided[D, L arraycontainer.Number](name string, p *provider.Provider[D, L], opts ...Option) (*Dataset[provider.Arrays[D, L]], error) {
	return New(name, p.Iter(), provided[D, L], opts...)
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

// IsOwnershipTransferred reports whether the tensors Yield returns are the
// caller's: false (the default), the dataset writes every batch into the same
// tensors, so the trainer must not finalize them, and they are valid until the
// next Yield; true with [Owned]. It implements train.DatasetCustomOwnership.
func (d *Dataset[B]) IsOwnershipTransferred() bool { return d.cfg.owned }

// Yield returns the next batch of the loop as the step's inputs and labels (and
// the spec set by [Spec], nil by default), or io.EOF after the last batch of the
// epoch. It implements train.Dataset.
//
// The batch is written from the loop's buffer into the tensors, the one copy a
// batch costs: without [Owned] into the tensors of the previous batch (shared
// with a CPU backend such as simplego, so the graph reads them in place), which
// the caller must be done with; with Owned into new tensors. A failed read of
// the container (a *container.PanicError from the loop, or any panic with an
// error value) is returned, wrapped with the batch's position, and returned
// again until Reset or Resume; so is an error wrapping [ErrShape] for a batch
// whose tensors differ from the first batch's. Without [Endless], the batch
// after the last of an epoch is io.EOF until Reset.
func (d *Dataset[B]) Yield() (spec any, inputs, labels []*tensors.Tensor, err error) {
	if d.err != nil {
		return nil, nil, nil, d.err
	}
	if d.atEnd {
		return nil, nil, nil, io.EOF
	}
	start := time.Now()
	b, ok, err := d.pull()
	if err != nil {
		d.fail(err)
		return nil, nil, nil, err
	}
	if ok && !d.cfg.endless && b.Pos.Epoch != d.epoch {
		// The current epoch holds no batch (index.RollOver with fewer
		// observations than a batch): keep b for its own epoch.
		d.heldB, d.held, d.pos = b, &d.heldB, b.Pos
		ok = false
	}
	if !ok {
		d.atEnd = true
		return nil, nil, nil, io.EOF
	}
	got := time.Now()
	d.w.begin(b.Real, len(b.Indices))
	d.fill(&d.w, b.Data)
	if err := d.w.end(); err != nil {
		err = fmt.Errorf("gomlx: %s: epoch %d batch %d: %w", d.name, b.Pos.Epoch, b.Pos.Batch, err)
		d.fail(err)
		return nil, nil, nil, err
	}
	d.pos, d.fresh = b.Next(), false
	if d.cfg.endless {
		d.epoch = b.Pos.Epoch
	} else if b.Count >= 0 && b.Pos.Batch+1 >= b.Count {
		d.atEnd = true
	}
	d.stats.Batches++
	d.stats.Wait += got.Sub(start)
	d.stats.Fill += time.Since(got)
	return d.cfg.spec, d.w.inputs, d.w.labels, nil
}

// pull returns the loop's next batch, starting the loop if it is not running.
// A panic of the loop with an error value (a *container.PanicError, a read
// error) is returned.
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
	if d.closed { // start the loop again at the position
		state, err := d.pos.MarshalBinary()
		if err == nil {
			err = d.loop.UnmarshalBinary(state)
		}
		if err != nil {
			return b, false, fmt.Errorf("gomlx: %s: %w", d.name, err)
		}
		d.closed = false
	}
	b, ok = d.loop.Next()
	return b, ok, nil
}

// fail makes err the answer of every Yield until Reset or Resume, and stops the
// loop.
func (d *Dataset[B]) fail(err error) {
	d.err = err
	d.Close()
}

// Reset starts the next epoch: GoMLX calls it after io.EOF, and before an
// evaluation. Right after the dataset was made, resumed or reset, before any
// Yield, it does nothing, so that an evaluation's Reset does not skip an epoch;
// in the middle of an epoch it skips the epoch's remaining batches. After a
// failed read it restarts the loop at the next epoch. It implements
// train.Dataset.
func (d *Dataset[B]) Reset() {
	if d.fresh && !d.atEnd && d.err == nil {
		return
	}
	next := d.pos // the first batch of the next epoch
	next.Epoch, next.Consumed, next.Batch = d.loop.Steps().First(d.epoch + 1)
	if d.cfg.endless && d.pos.Batch == 0 {
		next = d.pos // at an epoch's start already
	}
	if d.err == nil && d.pos == next {
		// The running loop's next batch is the epoch's first: keep the
		// batches it prefetched.
		d.epoch, d.fresh, d.atEnd = next.Epoch, true, false
		return
	}
	if err := d.Resume(next); err != nil {
		d.fail(err)
	}
}

// Resume makes the next Yield return the batch at pos, a position saved from
// [Dataset.Position] (with a GoMLX checkpoint, say): the training goes on
// exactly where it stopped, mid-epoch, without replaying data, with the
// shuffle and the per-observation randomness the uninterrupted run had. It
// returns the loop's error for a position that does not fit it (wrapping
// container.ErrState), and then leaves the dataset as it was.
func (d *Dataset[B]) Resume(pos eachobs.Position) error {
	state, err := pos.MarshalBinary()
	if err == nil {
		err = d.loop.UnmarshalBinary(state)
	}
	if err != nil {
		return fmt.Errorf("gomlx: %s: %w", d.name, err)
	}
	d.pos, d.epoch = pos, pos.Epoch
	d.fresh, d.atEnd, d.err, d.held, d.closed = true, false, nil, nil, false
	return nil
}

// Position returns where the dataset stands: the position of the batch the
// next Yield returns (after the last batch of an epoch, batch 0 of the next).
// Save it with the model's checkpoint and hand it to [Dataset.Resume].
func (d *Dataset[B]) Position() eachobs.Position {
	return d.pos
}

// Epoch returns the epoch the dataset yields: the one of [Dataset.Position]
// until the epoch's io.EOF and Reset.
func (d *Dataset[B]) Epoch() int { return d.epoch }

// Stats returns the batches yielded so far and the time Yield spent on them.
func (d *Dataset[B]) Stats() Stats { return d.stats }

// Close stops the loop and its goroutines (eachobs.Prefetch, Workers); the
// batches they prepared are dropped. The dataset stays usable: the next Yield
// starts the loop again at [Dataset.Position]. Close the dataset when training
// ends, as the loop would be stopped by leaving a range statement.
func (d *Dataset[B]) Close() {
	d.loop.Close()
	d.held, d.closed = nil, true
}
