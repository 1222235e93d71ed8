package stream

import (
	"math/rand/v2"
	"slices"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/state"
)

// Both shuffles draw epoch e's order from rand.New(rand.NewPCG(seed, e)), the
// seeding of eachobs's epochs, so that the pass of an epoch (under [Repeat]) is
// reproducible on its own and every epoch has its own order.

// pcg is a pass's generator and the *rand.Rand drawing from it.
type pcg struct {
	src *rand.PCG
	rng *rand.Rand
}

func newPCG(seed uint64, epoch int) pcg {
	src := rand.NewPCG(seed, uint64(epoch))
	return pcg{src, rand.New(src)}
}

func (g pcg) save(w *state.Writer) {
	b, _ := g.src.MarshalBinary() // a PCG always marshals
	w.Bytes(b)
}

func (g pcg) load(r *state.Reader) {
	if b := r.Bytes(); r.Err() == nil {
		if err := g.src.UnmarshalBinary(b); err != nil {
			r.Fail("random generator: %v", err)
		}
	}
}

// ShuffleBuffer returns a [Stream] that shuffles s through a sliding buffer of
// size values (tf.data's Dataset.shuffle): the first size values fill the
// buffer, then each value of s takes the place of a buffered value drawn at
// random, which is yielded; at the end of s the buffer is yielded in a random
// order. The order of epoch e is drawn from rand.New(rand.NewPCG(seed, e)). Its
// state holds the buffer (up to size values, encoded with encoding/gob) and the
// generator's 20 bytes: a checkpoint of a 10,000-value buffer of 100-byte
// values is about a megabyte. An error of s ends the stream at once; the
// buffered values are dropped. ShuffleBuffer panics with a
// [*container.ArgError] if size < 1.
func ShuffleBuffer[T any](s Stream[T], size int, seed uint64) Stream[T] {
	s.check("stream.ShuffleBuffer")
	container.CheckArg(size >= 1, "stream.ShuffleBuffer", "buffer size", size, ">= 1")
	return Stream[T]{shuffleNode[T]{src: s.n, size: size, seed: seed}}
}

// BlockShuffle returns a [Stream] that shuffles s block by block
// (PaddlePaddle's shuffle): each block of size values (the last one shorter) is
// yielded in an order drawn from rand.New(rand.NewPCG(seed, e)) in epoch e. Its
// state holds the rest of the current block (up to size values, encoded with
// encoding/gob) and the generator. An error of s ends the stream at once; the
// unfinished block is dropped. BlockShuffle panics with a [*container.ArgError]
// if size < 1.
func BlockShuffle[T any](s Stream[T], size int, seed uint64) Stream[T] {
	s.check("stream.BlockShuffle")
	container.CheckArg(size >= 1, "stream.BlockShuffle", "buffer size", size, ">= 1")
	return Stream[T]{shuffleNode[T]{src: s.n, size: size, seed: seed, block: true}}
}

// SortWindow returns a [Stream] that reads s in windows of size values and
// yields each window sorted by cmp (stably: equal values keep their order), the
// last, shorter window too. It is Fuel's recipe of batching a large window,
// sorting it (SortMapping) and unpacking it again: sorting by sequence length
// before [Batches] gives batches of similar lengths, which need little padding.
// cmp returns a negative number when a sorts before b, as for
// slices.SortStableFunc. Its state holds the rest of the current window (up to
// size values, encoded with encoding/gob). An error of s ends the stream; the
// unfinished window is dropped. SortWindow panics with a [*container.ArgError]
// if cmp is nil or size < 1.
func SortWindow[T any](s Stream[T], size int, cmp func(a, b T) int) Stream[T] {
	s.check("stream.SortWindow")
	container.CheckArg(size >= 1, "stream.SortWindow", "window size", size, ">= 1")
	container.CheckArg(cmp != nil, "stream.SortWindow", "comparison function", "nil", "a function")
	return Stream[T]{shuffleNode[T]{src: s.n, size: size, block: true, cmp: cmp}}
}

type shuffleNode[T any] struct {
	src   node[T]
	size  int
	seed  uint64
	block bool             // block by block (BlockShuffle, SortWindow), not a sliding buffer
	cmp   func(a, b T) int // SortWindow: sort each block, not shuffle it
}

func (n shuffleNode[T]) ordered() bool { return n.src.ordered() }
func (n shuffleNode[T]) iter(e int) iterator[T] {
	return &shuffleIter[T]{n: n, src: n.src.iter(e), g: newPCG(n.seed, e)}
}

// shuffleIter is both shuffles. The sliding buffer fills buf, then swaps each
// new value for a random buffered one; at the source's end it shuffles what is
// left and drains it from buf[pos:]. The block shuffle fills buf with a block,
// shuffles it and drains it, block after block.
type shuffleIter[T any] struct {
	n        shuffleNode[T]
	src      iterator[T]
	g        pcg
	buf      []T
	pos      int  // draining: the next value is buf[pos]
	draining bool // buf is being drained
	ended    bool // the source has ended
}

func (it *shuffleIter[T]) kind() string {
	if it.n.cmp != nil {
		return "sort-window"
	}
	if it.n.block {
		return "block-shuffle"
	}
	return "shuffle-buffer"
}

func (it *shuffleIter[T]) shuffle() {
	if it.n.cmp != nil {
		slices.SortStableFunc(it.buf, it.n.cmp)
	} else {
		it.g.rng.Shuffle(len(it.buf), func(i, j int) { it.buf[i], it.buf[j] = it.buf[j], it.buf[i] })
	}
	it.draining, it.pos = true, 0
}

func (it *shuffleIter[T]) next() (T, error, bool) {
	var zero T
	for {
		if it.draining {
			if it.pos < len(it.buf) {
				v := it.buf[it.pos]
				it.buf[it.pos] = zero
				it.pos++
				return v, nil, true
			}
			it.buf, it.pos, it.draining = it.buf[:0], 0, false
			if it.ended {
				return zero, nil, false
			}
		}
		if it.ended {
			if len(it.buf) == 0 {
				return zero, nil, false
			}
			it.shuffle()
			continue
		}
		v, err, ok := it.src.next()
		if err != nil {
			return zero, err, false
		}
		if !ok {
			it.ended = true
			continue
		}
		if it.buf == nil {
			it.buf = make([]T, 0, min(it.n.size, 1024))
		}
		if len(it.buf) < it.n.size {
			it.buf = append(it.buf, v)
			if it.n.block && len(it.buf) == it.n.size {
				it.shuffle()
			}
			continue
		}
		i := it.g.rng.IntN(it.n.size)
		out := it.buf[i]
		it.buf[i] = v
		return out, nil, true
	}
}

func (it *shuffleIter[T]) save(w *state.Writer) {
	w.String(it.kind())
	w.Int(it.n.size)
	it.g.save(w)
	w.Bool(it.draining)
	w.Bool(it.ended)
	if it.draining {
		state.SaveValues(w, "stream.Iter.MarshalBinary", it.buf[it.pos:])
	} else {
		state.SaveValues(w, "stream.Iter.MarshalBinary", it.buf)
	}
	it.src.save(w)
}

func (it *shuffleIter[T]) load(r *state.Reader) {
	r.Enter(it.kind())
	r.Setting("buffer size", it.n.size)
	it.g.load(r)
	it.draining, it.ended = r.Bool(), r.Bool()
	it.buf = state.LoadValues[T](r, it.n.size)
	it.pos = 0
	it.src.load(r)
}

func (it *shuffleIter[T]) pause() { it.src.pause() }
func (it *shuffleIter[T]) close() { it.src.close() }
