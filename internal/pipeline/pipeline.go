// Package pipeline is the one place where the kit starts goroutines. Every
// background loop of the kit (eachobs' prefetching and parallel gathering,
// stream.Prefetch, stream.ParallelMap ordered and unordered, and through eachobs
// the providers) is a [Pipe] of this package: one source that prepares steps in
// order, work that completes them in zero, one or several goroutines, and a
// consumer in the caller's goroutine that pulls them, in order or as they
// complete, with [Pipe.Next].
//
// What every pipeline promises, and this package alone implements:
//
//   - Order: in an ordered pipeline the consumer receives step k before step k+1,
//     whatever the number of workers, so the same input gives the same sequence.
//   - Panics: a panic in the source or in work, in any goroutine or in the
//     caller's own (a serial pipe), reaches the caller's goroutine as a
//     [*container.PanicError] naming the step, after every earlier step was
//     delivered; no goroutine is left behind, and no wait can hang on a step that
//     will never complete (each step carries its own panic).
//   - Stopping: [Pipe.Stop] (a break out of the caller's range loop, a Close, a
//     restore of saved state) stops the source and the workers and returns only
//     once every goroutine it started has exited; the pipe starts again at the
//     next Next, from wherever its owner has set the source.
//   - Buffers: the steps live in the caller's slots, reused step after step, so a
//     pipeline allocates nothing per step. A slot is handed back to the source
//     only when the consumer asks for the next one.
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

type meta struct {
	step  int
	panic *container.PanicError
}

// A Pipe is a pipeline pulled by its consumer: [Pipe.Next] returns the next
// completed step. The source prepares steps in order in the caller's slots:
// source(s) writes the next step into s and returns true, or returns false
// when there is none (s is then unused). work completes a prepared step (nil:
// nothing to do). With Workers >= 1 the source and the work run in background
// goroutines, started at the first Next (or by [Pipe.Start]); with 0 both run
// in Next.
//
// A Pipe belongs to one goroutine, its consumer's, and is not safe for
// concurrent use.
type Pipe[S any] struct {
	cfg    Config
	slots  []S
	source func(*S) bool
	work   func(*S)

	r     *run[S] // the goroutines, when running
	held  int     // the slot the consumer holds, or -1
	k     int     // serial: the next step
	ended bool    // the source has ended (or a step panicked)
}

// New returns a pipe of cfg over slots. len(slots) is the number of steps in
// flight: at least 1, and with Workers >= 1 at least 2 so that the background
// goroutines and the consumer overlap. It panics when cfg and slots do not fit.
func New[S any](cfg Config, slots []S, source func(s *S) bool, work func(s *S)) *Pipe[S] {
	switch {
	case len(slots) < 1, cfg.Workers < 0,
		cfg.Workers >= 1 && len(slots) < 2,
		cfg.Unordered && cfg.Workers < 2:
		panic("pipeline.New: a configuration that cannot run")
	}
	return &Pipe[S]{cfg: cfg, slots: slots, source: source, work: work, held: -1}
}

// Run runs a pipe to its end or until yield returns false, then stops it: the
// push form, for a caller that consumes every step in one loop.
func Run[S any](cfg Config, slots []S, source func(s *S) bool, work func(s *S), yield func(s *S) bool) {
	p := New(cfg, slots, source, work)
	defer p.Stop()
	for s, ok := p.Next(); ok && yield(s); s, ok = p.Next() {
	}
}

// Start launches the goroutines of a pipe with workers now, so that they
// prepare and complete the first steps before the consumer asks for them. It is
// a no-op for a serial pipe or one already running.
func (p *Pipe[S]) Start() {
	if p.cfg.Workers == 0 || p.r != nil || p.ended {
		return
	}
	p.r = newRun(p.cfg, p.slots, p.work)
	p.r.start(p.source)
}

// Next returns the next completed step, or false when the source has ended.
// The slot it returns stays the consumer's until the next call of Next or Stop.
// A panic in the source or in work is raised here as a [*container.PanicError],
// after every earlier step was returned; the pipe has then stopped, and Next
// returns false until Stop.
func (p *Pipe[S]) Next() (*S, bool) {
	if p.ended {
		return nil, false
	}
	if p.cfg.Workers == 0 {
		return p.serial()
	}
	if p.r == nil {
		p.Start()
	}
	if p.held >= 0 {
		p.r.free <- p.held // never blocks: at most len(slots) slots are out
		p.held = -1
	}
	j, ok := p.r.next()
	if !ok {
		p.ended = true
		f := p.r.srcPanic
		p.halt()
		if f != nil {
			panic(f)
		}
		return nil, false
	}
	if f := p.r.meta[j].panic; f != nil {
		p.ended = true
		p.halt()
		panic(f)
	}
	p.held = j
	return &p.slots[j], true
}

// Stop ends the pipe's goroutines and returns once they have exited. The steps
// prepared and not yet returned by Next are dropped; the next Next starts the
// pipe again, calling the source for the step after the last one it prepared,
// so an owner that wants those steps again sets its source back first (a
// restore of saved state does). Stop may be called at any time, more than once.
func (p *Pipe[S]) Stop() {
	p.halt()
	p.ended, p.k = false, 0
}

func (p *Pipe[S]) halt() {
	if p.r != nil {
		p.r.stop()
		p.r = nil
	}
	p.held = -1
}

// serial runs one step in the caller's goroutine. A panic in the source or in
// work is re-raised as a [*container.PanicError] naming the step, as a pipeline
// with goroutines raises it, so that what a caller recovers does not depend on
// the number of workers.
func (p *Pipe[S]) serial() (s *S, ok bool) {
	s = &p.slots[0]
	defer func() {
		if v := recover(); v != nil {
			p.ended = true
			panic(wrap(p.cfg.Op, p.k, v))
		}
	}()
	if !p.source(s) {
		p.ended = true
		return nil, false
	}
	if p.work != nil {
		p.work(s)
	}
	p.k++
	return s, true
}

// wrap returns the PanicError of a panic with value v at step k of a pipeline
// of op. The PanicError of a pipeline nested in another's source or work is
// wrapped again, so the outer one names the outer step and unwraps to it.
func wrap(op string, k int, v any) *container.PanicError {
	return &container.PanicError{Op: op, Step: k, Value: v, Stack: debug.Stack()}
}

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

// A run is the goroutines of a running pipe.
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
func (p *run[S]) start(source func(*S) bool) {
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

// next waits for the next completed slot; false when the source has ended (or
// panicked: srcPanic) and every slot it prepared was delivered.
func (p *run[S]) next() (int, bool) {
	if p.cfg.Unordered {
		j, ok, _ := wait(p.poll, p.completed, nil)
		return j, ok
	}
	j, ok, _ := wait(p.poll, p.order, nil)
	if ok {
		wait(p.poll, p.ready[j], nil)
	}
	return j, ok
}

// feed runs the source in its own goroutine.
func (p *run[S]) feed(source func(*S) bool) {
	defer p.wg.Done()
	k := 0 // the step being prepared
	returned := false
	defer func() {
		if v := recover(); v != nil {
			p.srcPanic = wrap(p.cfg.Op, k, v)
		} else if !returned { // runtime.Goexit in the source
			p.srcPanic = wrap(p.cfg.Op, k, errGoexit)
		}
		// Closing the channels publishes srcPanic to the consumer.
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
	for {
		j, _, stopped := wait(p.poll, p.free, p.done)
		if stopped {
			break
		}
		p.meta[j] = meta{step: k}
		if !source(&p.slots[j]) {
			break
		}
		k++
		if !p.cfg.Unordered {
			p.order <- j // never blocks: at most len(slots) slots are out
		}
		if p.tasks == nil {
			p.complete(j)
			continue
		}
		select {
		case p.tasks <- j:
			continue
		case <-p.done:
		}
		break
	}
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
			p.meta[j].panic = wrap(p.cfg.Op, p.meta[j].step, errGoexit)
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
