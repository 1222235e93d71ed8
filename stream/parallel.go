package stream

import (
	"iter"

	"github.com/obskit/obskit/internal/pipeline"
)

// Prefetch and ParallelMap are passes of the kit's one pipeline
// (internal/pipeline): its goroutines start when a pass starts and have stopped
// when the pass returns, whether the reader ended, failed, or the consumer broke
// out of its loop; an error travels in order with the values and ends the pass; a
// panic is raised again on the consumer's goroutine as a *container.PanicError,
// after every value before it.

// item is one slot of a pass: a value read from the source, and the result and
// error of the function applied to it.
type item[T, U any] struct {
	in     T
	out    U
	err    error
	srcErr error
}

// Prefetch returns a [Reader] that reads r on a goroutine of its own, up to n
// values ahead of the consumer: PaddlePaddle's buffered reader. Values, and the
// error that ends r, arrive in order. r runs on the other goroutine, so it must
// not share unsynchronized state with the consumer, and the values it yields must
// stay valid after the next step.
//
// The goroutine starts with each pass and has stopped when the pass returns, also
// when the consumer breaks early (a break waits until r returns from its current
// step). A panic in r is raised again in the consumer as a [*container.PanicError].
// Prefetch panics with a [*container.ArgError] if r is nil or n < 1.
func Prefetch[T any](r Reader[T], n int) Reader[T] {
	const op = "stream.Prefetch"
	mustReader(op, r)
	mustAtLeast(op, "buffer size", n, 1)
	return func(yield func(T, error) bool) {
		slots := make([]item[T, struct{}], n+1) // n ahead, one with the consumer
		source, stop := read[T, struct{}](r)
		defer stop()
		pipeline.Run(pipeline.Config{Op: op, Workers: 1}, slots, source, nil, func(s *item[T, struct{}]) bool {
			v, err := s.in, s.srcErr
			*s = item[T, struct{}]{} // the slot no longer keeps the value alive
			if err != nil {
				yield(v, err)
				return false
			}
			return yield(v, nil)
		})
	}
}

// read returns the source of a pass over r, each value into a slot, r's error
// into the slot after its last value, and the function that releases r.
func read[T, U any](r Reader[T]) (source func(s *item[T, U]) bool, stop func()) {
	next, stop := iter.Pull2(iter.Seq2[T, error](r))
	ended := false
	return func(s *item[T, U]) bool {
		if ended {
			return false
		}
		v, err, ok := next()
		if !ok {
			ended = true
			return false
		}
		if err != nil {
			ended = true
		}
		s.in, s.srcErr = v, err
		return true
	}, stop
}

// A ParallelOption configures [ParallelMap].
type ParallelOption func(*parallelConfig)

type parallelConfig struct{ unordered bool }

// Unordered lets [ParallelMap] yield each result as soon as it is ready instead
// of in input order. It can be faster when the cost of f varies much from value
// to value; the order then depends on scheduling and differs from run to run.
func Unordered() ParallelOption { return func(c *parallelConfig) { c.unordered = true } }

// ParallelMap returns a [Reader] of f applied to each value of r by workers
// goroutines: PaddlePaddle's xmap_readers, tf.data's map with
// num_parallel_calls. Results come in input order, whatever the scheduling, unless
// the [Unordered] option is given. About 2*workers values are read ahead of the
// consumer: enough to keep every worker busy while the consumer waits for the
// oldest result, and a bound on memory.
//
// r runs on a goroutine of its own and f on the workers (with one worker, on r's
// goroutine), so neither may share unsynchronized state with the consumer, and f
// must be safe for concurrent use. The first error, from r or from f, ends the
// pass; in order, it comes after every result before it, and an error of r always
// comes after every result. A panic in r or f is raised again in the consumer as a
// [*container.PanicError]. The goroutines start with each pass and have stopped
// when the pass returns, also when the consumer breaks early (a break waits for
// the calls of f in progress to return).
//
// ParallelMap panics with a [*container.ArgError] if r or f is nil or workers < 1.
func ParallelMap[T, U any](r Reader[T], workers int, f func(T) (U, error), opts ...ParallelOption) Reader[U] {
	const op = "stream.ParallelMap"
	mustReader(op, r)
	mustFunc(op, "function", f == nil)
	mustAtLeast(op, "number of workers", workers, 1)
	var cfg parallelConfig
	for _, o := range opts {
		mustFunc(op, "option", o == nil)
		o(&cfg)
	}
	pc := pipeline.Config{Op: op, Workers: workers, Unordered: cfg.unordered && workers >= 2}
	return func(yield func(U, error) bool) {
		slots := make([]item[T, U], 2*workers+1)
		source, stop := read[T, U](r)
		defer stop()
		var srcErr error // r's error comes after every result, in both orders
		done := true
		pipeline.Run(pc, slots, source, func(s *item[T, U]) {
			if s.srcErr == nil {
				s.out, s.err = f(s.in)
			}
		}, func(s *item[T, U]) bool {
			out, err := s.out, s.err
			if s.srcErr != nil {
				srcErr = s.srcErr
			}
			isSrc := s.srcErr != nil
			*s = item[T, U]{} // the slot no longer keeps the values alive
			switch {
			case isSrc:
				return true
			case err != nil:
				yield(out, err)
				done = false
				return false
			}
			done = yield(out, nil)
			return done
		})
		if srcErr != nil && done {
			var zero U
			yield(zero, srcErr)
		}
	}
}
