// Package pipeline is the one place where the kit starts goroutines. Every
// background loop of the kit (eachobs' prefetching and parallel gathering,
// stream.Prefetch, stream.ParallelMap ordered and unordered, and through eachobs
// the providers) is a [Run] of this package: one source that produces steps in
// order, work that completes them in zero, one or several goroutines, and a
// consumer in the caller's goroutine that receives them in order or as they
// complete.
//
// What every pipeline promises, and this package alone implements:
//
//   - Order: in an ordered pipeline the consumer receives step k before step k+1,
//     whatever the number of workers, so the same input gives the same sequence.
//   - Panics: a panic in the source or in work, in any goroutine, reaches the
//     caller's goroutine as a [*container.PanicError] naming the step, after every
//     earlier step was delivered; no goroutine is left behind, and no wait can
//     hang on a step that will never complete (each step carries its own panic).
//   - Early stop: when the consumer stops (a break out of the caller's range loop,
//     or a panic in the loop body), Run stops the source and the workers and
//     returns only once every goroutine it started has exited.
//   - Buffers: the steps live in the caller's slots, reused step after step, so a
//     pipeline allocates nothing per step. A slot is handed back to the source
//     only after the consumer has finished with it.
//   - Waiting: one policy ([Poll] with one background goroutine, [Block] with
//     several workers), measured and explained at [PollBudget].
package pipeline

import (
	"errors"
	"runtime/debug"
	"sync"

	"github.com/obskit/obskit/container"
)

// Config says how a pipeline runs.
type Config struct {
	// Op names the kit function that runs the pipeline, such as "eachobs" or
	// "stream.ParallelMap": the Op of the panics it reports.
	Op string
	// Workers is the number of goroutines that complete steps. 0 runs the
	// source, the work and the consumer in the caller's goroutine, one step at a
	// time; 1 runs the source and the work in one background goroutine (a
	// prefetching pipeline); 2 or more run the source in one goroutine and the
	// work in Workers others.
	Workers int
	// Unordered delivers steps as they complete rather than in order. It needs
	// Workers >= 2 (with fewer, steps complete in order anyway).
	Unordered bool
}

// An Emit hands the next step to a pipeline: it waits for a free slot, calls
// prepare with it in the source's goroutine, and passes the slot on to be
// completed. It returns false when the pipeline has stopped; the source must
// then return.
type Emit[S any] func(prepare func(s *S)) bool

type meta struct {
	step  int
	panic *container.PanicError
}

// Run runs one pass of a pipeline over the caller's slots and returns the
// source's error.
//
// source produces the steps in order by calling its emit function once per
// step, and returns when it has no more (or when emit returns false); the error
// it returns comes after every step it emitted. work completes a prepared step
// (nil: nothing to do). yield receives completed steps in the caller's goroutine;
// when it returns false, the pass stops and Run returns nil. A slot passed to
// yield is not reused before yield returns.
//
// len(slots) is the number of steps in flight: at least 1, and with Workers >= 1
// at least 2 so that the background goroutines and the consumer overlap. A panic
// in source or work is re-raised in the caller's goroutine as a
// [*container.PanicError], with Workers = 0 too, so that the caller sees one
// type whatever the number of workers; a panic in yield passes through
// unchanged. Run panics when cfg and slots do not fit.
func Run[S any](cfg Config, slots []S, source func(emit Emit[S]) error, work func(s *S), yield func(s *S) bool) error {
	switch {
	case len(slots) < 1, cfg.Workers < 0,
		cfg.Workers >= 1 && len(slots) < 2,
		cfg.Unordered && cfg.Workers < 2:
		panic("pipeline.Run: a configuration that cannot run")
	}
	if cfg.Workers == 0 {
		return serial(cfg, slots, source, work, yield)
	}
	p := newRun(cfg, slots, work)
	p.start(source)
	return p.consume(yield)
}

// A Started is a pipeline whose goroutines run before its consumer arrives:
// [Start] launches them, and they prepare and complete the first len(slots)
// steps while the caller does something else (loads a model, say); Consume then
// receives the steps as Run's yield would, and Stop ends a pipeline that will
// not be consumed. Exactly one of Consume and Stop must be called, once.
type Started[S any] struct {
	p *run[S]
}

// Start starts the goroutines of a pipeline of cfg (Workers >= 1) over slots,
// with source and work as Run takes them, and returns without consuming. It
// panics as Run does, and when cfg.Workers is 0 (a serial pipeline has no
// goroutine to start).
func Start[S any](cfg Config, slots []S, source func(emit Emit[S]) error, work func(s *S)) *Started[S] {
	switch {
	case cfg.Workers < 1, len(slots) < 2, cfg.Unordered && cfg.Workers < 2:
		panic("pipeline.Start: a configuration that cannot start")
	}
	p := newRun(cfg, slots, work)
	p.start(source)
	return &Started[S]{p}
}

// Consume receives the steps of a started pipeline in the caller's goroutine, as
// Run's yield does, and returns Run's error; every goroutine has stopped when it
// returns.
func (s *Started[S]) Consume(yield func(s *S) bool) error { return s.p.consume(yield) }

// Stop stops a started pipeline that will not be consumed, and returns once
// every goroutine it started has exited.
func (s *Started[S]) Stop() { s.p.stop() }

// serial runs a pipeline without goroutines. A panic in the source or in work
// is re-raised as a [*container.PanicError] naming the step, as a pipeline with
// goroutines raises it, so that what a caller recovers does not depend on the
// number of workers; a panic in yield (the caller's loop body) passes through
// unchanged.
func serial[S any](cfg Config, slots []S, source func(emit Emit[S]) error, work func(s *S), yield func(s *S) bool) (err error) {
	s := &slots[0]
	stopped, yielding := false, false
	k := 0 // the step being prepared
	defer func() {
		if v := recover(); v != nil {
			if yielding {
				panic(v)
			}
			panic(wrap(cfg.Op, k, v))
		}
	}()
	err = source(func(prepare func(*S)) bool {
		if stopped {
			return false
		}
		prepare(s)
		if work != nil {
			work(s)
		}
		yielding = true
		stopped = !yield(s)
		yielding = false
		k++
		return !stopped
	})
	if stopped {
		return nil
	}
	return err
}

// wrap returns the PanicError of a panic with value v at step k of a pipeline
// of op. The PanicError of a pipeline nested in another's source or work is
// wrapped again, so the outer one names the outer step and unwraps to it.
func wrap(op string, k int, v any) *container.PanicError {
	return &container.PanicError{Op: op, Step: k, Value: v, Stack: debug.Stack()}
}

type run[S any] struct {
	cfg   Config
	slots []S
	meta  []meta
	work  func(*S)
	poll  bool // the wait policy: poll with one background goroutine, block with workers

	free      chan int        // slots the source may fill
	order     chan int        // ordered: slots in step order
	ready     []chan struct{} // ordered: slot j is complete (capacity 1)
	tasks     chan int        // Workers >= 2: slots to complete
	completed chan int        // unordered: slots as they complete
	done      chan struct{}   // closed when the consumer stops
	wg        sync.WaitGroup  // every goroutine of the run
	workers   sync.WaitGroup  // the workers alone
	srcErr    error           // set by the source goroutine before it closes its channels
	srcPanic  *container.PanicError
}

func newRun[S any](cfg Config, slots []S, work func(*S)) *run[S] {
	d := len(slots)
	p := &run[S]{
		cfg:   cfg,
		slots: slots,
		meta:  make([]meta, d),
		work:  work,
		free:  make(chan int, d),
		done:  make(chan struct{}),
		poll:  cfg.Workers == 1,
	}
	if cfg.Workers >= 2 {
		p.tasks = make(chan int, d)
	}
	for j := range d {
		p.free <- j
	}
	if cfg.Unordered {
		p.completed = make(chan int, d)
	} else {
		p.order = make(chan int, d)
		p.ready = make([]chan struct{}, d)
		for j := range p.ready {
			p.ready[j] = make(chan struct{}, 1)
		}
	}
	return p
}

// start launches the goroutines of the run.
func (p *run[S]) start(source func(emit Emit[S]) error) {
	if p.tasks != nil {
		for range p.cfg.Workers {
			p.wg.Add(1)
			p.workers.Add(1)
			go p.worker()
		}
	}
	p.wg.Add(1)
	go p.feed(source)
}

// stop stops the run's goroutines and waits for them.
func (p *run[S]) stop() {
	close(p.done)
	p.wg.Wait()
}

// consume receives the steps in the caller's goroutine, then stops the run.
func (p *run[S]) consume(yield func(s *S) bool) error {
	defer p.stop()
	next := p.order
	if p.cfg.Unordered {
		next = p.completed
	}
	for {
		j, ok, _ := wait(p.poll, next, nil)
		if !ok {
			break
		}
		if !p.cfg.Unordered {
			wait(p.poll, p.ready[j], nil)
		}
		if f := p.meta[j].panic; f != nil {
			panic(f)
		}
		if !yield(&p.slots[j]) {
			return nil
		}
		p.free <- j // never blocks: at most len(slots) slots are out
	}
	if p.srcPanic != nil {
		panic(p.srcPanic)
	}
	return p.srcErr
}

// feed runs the source in its own goroutine.
func (p *run[S]) feed(source func(emit Emit[S]) error) {
	defer p.wg.Done()
	k := 0 // the step being prepared
	returned := false
	defer func() {
		if v := recover(); v != nil {
			p.srcPanic = wrap(p.cfg.Op, k, v)
		} else if !returned { // runtime.Goexit in the source
			p.srcPanic = &container.PanicError{Op: p.cfg.Op, Step: k, Value: errGoexit, Stack: debug.Stack()}
		}
		// Closing the channels publishes srcErr and srcPanic to the consumer.
		if p.tasks != nil {
			close(p.tasks)
			p.workers.Wait()
		}
		if p.cfg.Unordered {
			close(p.completed)
		} else {
			close(p.order)
		}
	}()
	p.srcErr = source(func(prepare func(*S)) bool {
		j, _, stopped := wait(p.poll, p.free, p.done)
		if stopped {
			return false
		}
		p.meta[j] = meta{step: k}
		prepare(&p.slots[j])
		k++
		if !p.cfg.Unordered {
			p.order <- j // never blocks: at most len(slots) slots are out
		}
		if p.tasks == nil {
			p.complete(j)
			return true
		}
		select {
		case p.tasks <- j:
			return true
		case <-p.done:
			return false
		}
	})
	returned = true
}

func (p *run[S]) worker() {
	defer p.wg.Done()
	defer p.workers.Done()
	for j := range p.tasks {
		if !p.complete(j) {
			return
		}
	}
}

// complete runs the work of slot j, records a panic in it, and signals the
// consumer. It returns false when the pipeline has stopped.
//
// A runtime.Goexit in the work (t.FailNow in a test's GetObsInto, say) cannot be
// recovered: it ends this goroutine after running its deferred calls. One of them
// records it as the step's panic and signals the consumer, which would otherwise
// wait forever for the step.
func (p *run[S]) complete(j int) bool {
	exited := true
	defer func() {
		if exited {
			p.meta[j].panic = &container.PanicError{Op: p.cfg.Op, Step: p.meta[j].step, Value: errGoexit, Stack: debug.Stack()}
			p.signal(j)
		}
	}()
	if p.work != nil {
		p.meta[j].panic = p.do(j)
	}
	exited = false
	return p.signal(j)
}

// signal tells the consumer that slot j is complete. It returns false when the
// pipeline has stopped.
func (p *run[S]) signal(j int) bool {
	if !p.cfg.Unordered {
		p.ready[j] <- struct{}{} // never blocks: capacity 1, one signal per use
		return true
	}
	select {
	case p.completed <- j:
		return true
	case <-p.done:
		return false
	}
}

func (p *run[S]) do(j int) (f *container.PanicError) {
	defer func() {
		if v := recover(); v != nil {
			f = wrap(p.cfg.Op, p.meta[j].step, v)
		}
	}()
	p.work(&p.slots[j])
	return nil
}

// wait receives from c with the pipeline's policy.
func wait[T any](poll bool, c <-chan T, stop <-chan struct{}) (v T, ok, stopped bool) {
	if poll {
		return Poll(c, stop)
	}
	return Block(c, stop)
}

// errGoexit is the Value of the PanicError that reports a runtime.Goexit in a
// background goroutine.
var errGoexit = errors.New("runtime.Goexit called in a background goroutine (t.FailNow or t.SkipNow outside the test's goroutine?)")

// Call returns f(), re-raising a panic in f as the [*container.PanicError] of
// step k of op, as a pipeline does: the loops that call a container in the
// caller's goroutine without a pipeline (a draw with replacement) use it, so
// that every loop reports a panic in its work with one type.
func Call[T any](op string, k int, f func() T) T {
	defer func() {
		if v := recover(); v != nil {
			panic(wrap(op, k, v))
		}
	}()
	return f()
}
