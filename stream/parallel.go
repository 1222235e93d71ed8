package stream

import (
	"slices"
	"sync/atomic"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/pipeline"
	"github.com/obskit/obskit/internal/state"
)

// Prefetch and ParallelMap are passes of the kit's one pipeline
// (internal/pipeline): its goroutines start at a pass's first value and have
// stopped when the pass ends, fails, is closed or paused (a break out of
// Iter.All); an error travels in order with the values and ends the pass; a
// panic is raised again on the consumer's goroutine as a *container.PanicError,
// after every value before it.
//
// Their state is the consumer's, not the goroutines': the source's state as of
// the oldest value the consumer has not taken. The goroutine that reads the
// source keeps a snapshot of the source's state (its records, as Iter.MarshalBinary
// writes them) every snapEvery values, and one after each save; the consumer
// keeps the newest snapshot at or before the values it has taken (the base) and
// which values after it it has taken. Saving writes those; restoring restores
// the source to the base and reads it again from there, dropping the values
// taken and doing again the work of those that were in flight. So a save costs
// a copy of a snapshot, reading costs one snapshot per snapEvery values (the
// size of the source's state: a shuffle buffer upstream is its bulk), and a
// restore reads at most snapEvery values more than were in flight from the
// source again (without applying the map to those taken).
//
// Reading again from a base is exact when the source yields the same values in
// the same order after a restore. An Unordered ParallelMap does not: above one,
// a parallel stage takes a snapshot before every value, so that its base is
// where the consumer stands and nothing is read again; an Unordered map above
// one cannot save at all.

// snapEvery is how many values the source goroutine reads between two
// snapshots of the source's state.
const snapEvery = 256

// A ParallelOption configures [ParallelMap].
type ParallelOption func(*parallelConfig)

type parallelConfig struct{ unordered bool }

// Unordered lets [ParallelMap] yield each result as soon as it is ready instead
// of in input order. It can be faster when the cost of f varies much from value
// to value; the order then depends on scheduling and differs from run to run. A
// saved state records which results were taken, so a restored pass yields each
// of the others once, in its own order.
func Unordered() ParallelOption { return func(c *parallelConfig) { c.unordered = true } }

// Prefetch returns a [Stream] that reads s on a goroutine of its own, up to n
// values ahead of the consumer: PaddlePaddle's buffered reader. Values, and the
// error that ends s, arrive in order. s runs on the other goroutine, so its
// functions must not share unsynchronized state with the consumer, and the
// values it yields must stay valid after the next step. Its state is s's as of
// the consumer (see [ParallelMap]): the values prefetched and not taken are read
// again after a restore.
//
// The goroutine starts at the pass's first value and has stopped when the pass
// ends, fails or is closed, and when the consumer breaks out of a range over
// Iter.All (a break waits until s returns from its current step). A panic in s
// is raised again in the consumer as a [*container.PanicError]. Prefetch panics
// with a [*container.ArgError] if n < 1.
func Prefetch[T any](s Stream[T], n int) Stream[T] {
	const op = "stream.Prefetch"
	s.check(op)
	container.CheckArg(n >= 1, op, "buffer size", n, ">= 1")
	return Stream[T]{&parallelNode[T, T]{
		src: s.n, op: op, kind: "prefetch", workers: 1, slots: n + 1,
		f: func(v T) (T, error) { return v, nil },
	}}
}

// ParallelMap returns a [Stream] of f applied to each value of s by workers
// goroutines: PaddlePaddle's xmap_readers, tf.data's map with
// num_parallel_calls. Results come in input order, whatever the scheduling,
// unless the [Unordered] option is given. About 2*workers values are read ahead
// of the consumer: enough to keep every worker busy while the consumer waits for
// the oldest result, and a bound on memory.
//
// s runs on a goroutine of its own and f on the workers (with one worker, on
// s's goroutine), so neither may share unsynchronized state with the consumer,
// and f must be safe for concurrent use. The first error, from s or from f,
// ends the pass; in order, it comes after every result before it, and an error
// of s always comes after every result. A panic in s or f is raised again in the
// consumer as a [*container.PanicError]. The goroutines start at the pass's
// first value and have stopped when the pass ends, fails or is closed, and when
// the consumer breaks out of a range over Iter.All (a break waits for the calls
// of f in progress to return).
//
// Its state is s's as of the oldest value whose result the consumer has not
// taken: a few bytes beside a copy of a snapshot of s's state, whatever the
// number of workers, so a pass restores into a stream of another number of
// workers too; restoring computes again the results that were in flight, in
// order. ParallelMap panics with a [*container.ArgError] if f is nil or
// workers < 1.
func ParallelMap[T, U any](s Stream[T], workers int, f func(T) (U, error), opts ...ParallelOption) Stream[U] {
	const op = "stream.ParallelMap"
	s.check(op)
	container.CheckArg(f != nil, op, "function", "nil", "a function")
	container.CheckArg(workers >= 1, op, "number of workers", workers, ">= 1")
	var cfg parallelConfig
	for _, o := range opts {
		container.CheckArg(o != nil, op, "option", "nil", "a ParallelOption")
		o(&cfg)
	}
	return Stream[U]{&parallelNode[T, U]{
		src: s.n, op: op, kind: "parallel-map", workers: workers, slots: 2*workers + 1,
		f: f, unordered: cfg.unordered && workers >= 2,
	}}
}

type parallelNode[T, U any] struct {
	src       node[T]
	op, kind  string
	workers   int
	slots     int
	f         func(T) (U, error)
	unordered bool
}

func (n *parallelNode[T, U]) ordered() bool { return !n.unordered && n.src.ordered() }
func (n *parallelNode[T, U]) iter(e int) iterator[U] {
	return &parallelIter[T, U]{n: n, epoch: e, src: n.src.iter(e)}
}

// A pslot is one value in flight: read from the source, then mapped.
type pslot[T, U any] struct {
	in     T
	out    U
	err    error // f's
	srcErr error // the source's: this slot ends the source
	k      int   // the number of the value in the pass, from the base of the last start
	snap   []byte
	snapOK bool // snap holds the source's records after value k (before k+1)
}

// A snapAt is a snapshot of the source's records before value k.
type snapAt struct {
	k    int
	snap []byte
}

type parallelIter[T, U any] struct {
	n     *parallelNode[T, U]
	epoch int
	src   iterator[T]
	pipe  *pipeline.Pipe[pslot[T, U]]
	slots []pslot[T, U]

	// The source's goroutine, while the pipe runs.
	k        int           // the number of the next value the source yields
	lastSnap int           // the value before which the last snapshot was taken
	skipTo   int           // values below it were taken: read, not mapped or yielded
	skip     []int         // values at or after skipTo that were taken (unordered)
	srcEnded bool          // the source has ended or failed
	snapReq  atomic.Bool   // the consumer saved: snapshot at the next value
	noSave   *state.Writer // the source cannot save: why (its writer's error)
	w        state.Writer  // writes the snapshots

	// Unordered: the source's goroutine reads at most window values past the
	// frontier, which the consumer publishes, so that the values taken ahead of
	// it (and the state that lists them) stay few while one value is slow.
	window int
	front  atomic.Int64
	moved  chan struct{} // the frontier moved (capacity 1)
	halt   chan struct{} // closed before the pipe stops

	// The consumer.
	base     []byte   // the source's records before value b
	b        int      // the value of the base
	frontier int      // the first value not taken
	taken    []int    // values after frontier taken (unordered), sorted
	pending  []snapAt // snapshots of values taken ahead of the frontier (unordered)
	spares   [][]byte // snapshot buffers to reuse (unordered)
	srcErr   error    // unordered: the source's error, after every result
	started  bool     // the base was taken
}

// start takes the base (before the first start) and starts the pipe.
func (it *parallelIter[T, U]) start() {
	if !it.started {
		it.started = true
		var w state.Writer
		it.src.save(&w)
		if w.Err() != nil {
			it.noSave = &w
		} else {
			it.base = w.B
		}
		it.lastSnap = it.b
	}
	it.k = it.b
	if it.slots == nil {
		it.slots = make([]pslot[T, U], it.n.slots)
	}
	if it.n.unordered {
		it.window = max(64, 4*it.n.slots)
		it.front.Store(int64(it.frontier))
		it.moved, it.halt = make(chan struct{}, 1), make(chan struct{})
	}
	cfg := pipeline.Config{Op: it.n.op, Workers: it.n.workers, Unordered: it.n.unordered}
	it.pipe = pipeline.New(cfg, it.slots, it.read, it.work)
}

// read is the pipe's source, in the source's goroutine: it reads the next
// value not yet taken into s, with a snapshot of the source after it when one
// is due (before every value when the source is not ordered).
func (it *parallelIter[T, U]) read(s *pslot[T, U]) bool {
	for !it.srcEnded {
		for it.n.unordered && int64(it.k)-it.front.Load() >= int64(it.window) {
			select {
			case <-it.moved:
			case <-it.halt:
				return false
			}
		}
		v, err, ok := it.src.next()
		k := it.k
		if err != nil {
			it.srcEnded = true
			s.srcErr, s.k, s.snapOK = err, k, false
			return true
		}
		if !ok {
			it.srcEnded = true
			return false
		}
		it.k++
		if k < it.skipTo || len(it.skip) > 0 && slices.Contains(it.skip, k) {
			continue // taken before the restore (or the pause)
		}
		s.in, s.k, s.err, s.srcErr, s.snapOK = v, k, nil, nil, false
		if it.noSave == nil && (it.k-it.lastSnap >= snapEvery || it.snapReq.Swap(false) || !it.n.src.ordered()) {
			it.w = state.Writer{B: s.snap[:0]} // a field: a local would escape, an allocation per snapshot
			it.src.save(&it.w)
			s.snap, s.snapOK, it.lastSnap = it.w.B, it.w.Err() == nil, it.k
		}
		return true
	}
	return false
}

// work maps a slot, in a worker.
func (it *parallelIter[T, U]) work(s *pslot[T, U]) {
	if s.srcErr == nil {
		s.out, s.err = it.n.f(s.in)
	}
}

func (it *parallelIter[T, U]) next() (U, error, bool) {
	var zero U
	if it.pipe == nil {
		it.start()
	}
	for {
		s, ok := it.pipe.Next()
		if !ok {
			err := it.srcErr
			it.srcErr = nil
			return zero, err, false
		}
		if s.srcErr != nil {
			if !it.n.unordered { // the last value in order: every result came before it
				return zero, s.srcErr, false
			}
			it.srcErr = s.srcErr // after every result
			continue
		}
		it.took(s)
		out, err := s.out, s.err
		var in T
		s.in, s.out = in, zero // the slot no longer keeps the values alive
		if err != nil {
			return zero, err, false
		}
		return out, nil, true
	}
}

// took records that the consumer took the value of s, and makes the snapshot
// after it (of the source before value s.k+1) the base when the frontier has
// reached it.
func (it *parallelIter[T, U]) took(s *pslot[T, U]) {
	if s.k != it.frontier {
		i, _ := slices.BinarySearch(it.taken, s.k)
		it.taken = slices.Insert(it.taken, i, s.k)
	} else {
		it.frontier++
		n := 0
		for n < len(it.taken) && it.taken[n] == it.frontier {
			n, it.frontier = n+1, it.frontier+1
		}
		it.taken = slices.Delete(it.taken, 0, n) // in place: Insert reuses the room
		if it.moved != nil {
			it.front.Store(int64(it.frontier))
			select {
			case it.moved <- struct{}{}:
			default:
			}
		}
	}
	if s.snapOK {
		if j := s.k + 1; j <= it.frontier {
			it.base, it.b = append(it.base[:0], s.snap...), j
		} else {
			it.pending = append(it.pending, snapAt{j, append(it.spare(), s.snap...)})
		}
	}
	// The newest pending snapshot at or before the frontier becomes the base;
	// the snapshots it replaces are kept for reuse, so that a running pass
	// allocates nothing.
	best := -1
	for i, p := range it.pending {
		if p.k <= it.frontier && p.k > it.b && (best < 0 || p.k > it.pending[best].k) {
			best = i
		}
	}
	if best >= 0 {
		it.spares = append(it.spares, it.base[:0])
		it.base, it.b = it.pending[best].snap, it.pending[best].k
		it.pending[best].snap = nil
	}
	it.pending = slices.DeleteFunc(it.pending, func(p snapAt) bool {
		if p.k > it.b {
			return false
		}
		if p.snap != nil {
			it.spares = append(it.spares, p.snap[:0])
		}
		return true
	})
}

// spare returns an empty buffer for a snapshot, reused if one is kept.
func (it *parallelIter[T, U]) spare() []byte {
	if k := len(it.spares); k > 0 {
		b := it.spares[k-1]
		it.spares = it.spares[:k-1]
		return b
	}
	return nil
}

func (it *parallelIter[T, U]) save(w *state.Writer) {
	w.String(it.n.kind)
	if !it.started { // nothing read: the source's state is its own
		w.Uint(0)
		w.Uint(0)
		it.src.save(w)
		return
	}
	if it.noSave != nil {
		w.Fail(it.noSave.Err())
		return
	}
	if it.n.unordered && !it.n.src.ordered() {
		cannotSave(w, it.n.op, "an Unordered map over an Unordered map: the order of its source is not reproducible, and the results taken ahead of the oldest one not taken cannot be told apart after a restore")
		return
	}
	it.snapReq.Store(true) // a newer base for the next save
	w.Uint(uint64(it.frontier - it.b))
	w.Uint(uint64(len(it.taken)))
	for _, k := range it.taken {
		w.Uint(uint64(k - it.b))
	}
	w.Raw(it.base)
}

func (it *parallelIter[T, U]) load(r *state.Reader) {
	r.Enter(it.n.kind)
	skip := r.Count()
	n := r.Count()
	if r.Err() == nil && n > len(r.Left()) {
		r.Fail("%d values taken ahead where %d bytes are left", n, len(r.Left()))
		return
	}
	taken := make([]int, n)
	for i := range taken {
		taken[i] = r.Count()
		if r.Err() == nil && (taken[i] <= skip || i > 0 && taken[i] <= taken[i-1]) {
			r.Fail("value %d taken ahead of %d, out of order", taken[i], skip)
		}
	}
	if r.Err() != nil {
		return
	}
	left := r.Left()
	it.src.load(r)
	if r.Err() != nil {
		return
	}
	it.base = slices.Clone(left[:len(left)-len(r.Left())])
	it.started = true
	it.b, it.frontier, it.taken = 0, skip, taken
	it.skipTo, it.skip, it.lastSnap = skip, slices.Clone(taken), 0
}

// pause stops the pipe and sets the source back to the base, to be read again
// from there when the pipe starts again, the values taken skipped. A pass
// whose source cannot save cannot go back: its pipe runs on until close.
func (it *parallelIter[T, U]) pause() {
	if it.pipe == nil || it.noSave != nil {
		return
	}
	it.stop()
	it.src.close()
	it.src = it.n.src.iter(it.epoch)
	r := state.Records(it.n.op, it.base)
	it.src.load(r)
	if err := r.End(); err != nil { // cannot happen: the base is a snapshot of this source
		panic(it.n.op + ": the source does not restore its own state: " + err.Error())
	}
	it.srcEnded, it.srcErr, it.pending = false, nil, nil
	it.skipTo, it.skip, it.lastSnap = it.frontier, slices.Clone(it.taken), it.b
}

// stop stops the pipe, releasing a source goroutine that waits for the
// frontier.
func (it *parallelIter[T, U]) stop() {
	if it.pipe != nil {
		if it.halt != nil {
			close(it.halt)
		}
		it.pipe.Stop()
		it.pipe = nil
	}
}

func (it *parallelIter[T, U]) close() {
	it.stop()
	it.src.close()
}
