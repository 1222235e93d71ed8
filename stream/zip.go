package stream

import (
	"errors"
	"fmt"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/state"
	"github.com/obskit/obskit/tuples"
)

// ErrNotAligned is wrapped by the error [Zip] and [ZipN] yield under [Strict]
// alignment when one stream ends before another.
var ErrNotAligned = errors.New("streams have different lengths")

// Align says what [Zip] and [ZipN] do when their streams end at different
// lengths.
type Align int

const (
	// Strict ends the stream with an error wrapping [ErrNotAligned] when one
	// stream ends and another has more values: what streams of features and
	// labels of one data set must do.
	Strict Align = iota
	// Truncate ends the stream quietly with the shortest stream, as Python's zip
	// does.
	Truncate
)

func checkAlign(op string, a Align) {
	container.CheckArg(a == Strict || a == Truncate, op, "alignment", a, "Strict or Truncate")
}

// Zip returns a [Stream] of pairs of the values of a and b in step: Fuel's Merge
// of two sources, typed (tuples.Pair, as the kit's containers link features and
// labels). The first error of either stream ends it. When one stream ends
// before the other, align says what happens ([Strict] or [Truncate]). Its state
// is both streams'. Zip panics with a [*container.ArgError] if align is
// unknown.
func Zip[A, B any](a Stream[A], b Stream[B], align Align) Stream[tuples.Pair[A, B]] {
	a.check("stream.Zip")
	b.check("stream.Zip")
	checkAlign("stream.Zip", align)
	return Stream[tuples.Pair[A, B]]{zipNode[A, B]{a.n, b.n, align}}
}

type zipNode[A, B any] struct {
	a     node[A]
	b     node[B]
	align Align
}

func (n zipNode[A, B]) ordered() bool { return n.a.ordered() && n.b.ordered() }
func (n zipNode[A, B]) iter(e int) iterator[tuples.Pair[A, B]] {
	return &zipIter[A, B]{n: n, a: n.a.iter(e), b: n.b.iter(e)}
}

type zipIter[A, B any] struct {
	n     zipNode[A, B]
	a     iterator[A]
	b     iterator[B]
	count int // pairs yielded
}

func (it *zipIter[A, B]) next() (tuples.Pair[A, B], error, bool) {
	var zero tuples.Pair[A, B]
	va, err, okA := it.a.next()
	if err != nil {
		return zero, err, false
	}
	vb, err, okB := it.b.next()
	if err != nil {
		return zero, err, false
	}
	if !okA || !okB {
		if okA != okB && it.n.align == Strict {
			ended, going := 0, 1
			if okA {
				ended, going = 1, 0
			}
			return zero, fmt.Errorf("stream.Zip: stream %d ended after %d values, stream %d has more: %w", ended, it.count, going, ErrNotAligned), false
		}
		return zero, nil, false
	}
	it.count++
	return tuples.Pair[A, B]{X: va, Y: vb}, nil, true
}

func (it *zipIter[A, B]) save(w *state.Writer) {
	w.String("zip")
	w.Int(int(it.n.align))
	w.Uint(uint64(it.count))
	it.a.save(w)
	it.b.save(w)
}

func (it *zipIter[A, B]) load(r *state.Reader) {
	r.Enter("zip")
	r.Setting("alignment", int(it.n.align))
	it.count = r.Count()
	it.a.load(r)
	it.b.load(r)
}

func (it *zipIter[A, B]) pause() { it.a.pause(); it.b.pause() }
func (it *zipIter[A, B]) close() { it.a.close(); it.b.close() }

// ZipN returns a [Stream] of the values of any number of streams of one type in
// step, a newly allocated slice per step with one value per stream in the
// order of ss: Fuel's Merge. Errors and alignment are as for [Zip]; with no
// streams it yields nothing. Its state is every stream's. ZipN panics with a
// [*container.ArgError] if align is unknown.
func ZipN[T any](align Align, ss ...Stream[T]) Stream[[]T] {
	checkAlign("stream.ZipN", align)
	n := zipNNode[T]{align: align, srcs: make([]node[T], len(ss))}
	for j, s := range ss {
		s.check("stream.ZipN")
		n.srcs[j] = s.n
	}
	return Stream[[]T]{n}
}

type zipNNode[T any] struct {
	align Align
	srcs  []node[T]
}

func (n zipNNode[T]) ordered() bool { return allOrdered(n.srcs) }
func (n zipNNode[T]) iter(e int) iterator[[]T] {
	it := &zipNIter[T]{n: n, srcs: make([]iterator[T], len(n.srcs))}
	for j, s := range n.srcs {
		it.srcs[j] = s.iter(e)
	}
	return it
}

type zipNIter[T any] struct {
	n     zipNNode[T]
	srcs  []iterator[T]
	count int
}

func (it *zipNIter[T]) next() ([]T, error, bool) {
	if len(it.srcs) == 0 {
		return nil, nil, false
	}
	row := make([]T, len(it.srcs))
	ended, going := -1, -1 // a stream that has ended, one that has a value
	for j, s := range it.srcs {
		v, err, ok := s.next()
		if err != nil {
			return nil, err, false
		}
		if ok {
			row[j], going = v, j
		} else {
			ended = j
		}
	}
	if ended >= 0 {
		if going >= 0 && it.n.align == Strict {
			return nil, fmt.Errorf("stream.ZipN: stream %d ended after %d values, stream %d has more: %w", ended, it.count, going, ErrNotAligned), false
		}
		return nil, nil, false
	}
	it.count++
	return row, nil, true
}

func (it *zipNIter[T]) save(w *state.Writer) {
	w.String("zipn")
	w.Int(len(it.srcs))
	w.Int(int(it.n.align))
	w.Uint(uint64(it.count))
	for _, s := range it.srcs {
		s.save(w)
	}
}

func (it *zipNIter[T]) load(r *state.Reader) {
	r.Enter("zipn")
	r.Setting("number of streams", len(it.srcs))
	r.Setting("alignment", int(it.n.align))
	it.count = r.Count()
	for _, s := range it.srcs {
		s.load(r)
	}
}

func (it *zipNIter[T]) pause() {
	for _, s := range it.srcs {
		s.pause()
	}
}

func (it *zipNIter[T]) close() {
	for _, s := range it.srcs {
		s.close()
	}
}
