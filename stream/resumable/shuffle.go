package resumable

import (
	"math/rand/v2"

	"github.com/obskit/obskit/container"
)

// Both shuffles draw epoch e's order from rand.New(rand.NewPCG(seed, e)), the
// seeding of eachobs's epochs, so that the pass of an epoch is reproducible on
// its own and stream.ShuffleBuffer or stream.BlockShuffle given the same
// *rand.Rand yield the same values.

// pcg is a pass's generator and the *rand.Rand drawing from it.
type pcg struct {
	src *rand.PCG
	rng *rand.Rand
}

func newPCG(seed uint64, epoch int) pcg {
	src := rand.NewPCG(seed, uint64(epoch))
	return pcg{src, rand.New(src)}
}

func (g pcg) save(w *writer) {
	b, _ := g.src.MarshalBinary() // a PCG always marshals
	w.bytes(b)
}

func (g pcg) load(r *reader) {
	if b := r.bytes(); r.err == nil {
		if err := g.src.UnmarshalBinary(b); err != nil {
			r.fail("random generator: %v", err)
		}
	}
}

// ShuffleBuffer returns a [Stream] that shuffles s through a sliding buffer of
// size values, as stream.ShuffleBuffer (tf.data's Dataset.shuffle). Its state
// holds the buffer (up to size values, encoded with encoding/gob) and the
// generator's 20 bytes: a checkpoint of a 10,000-value buffer of 100-byte
// values is about a megabyte. ShuffleBuffer panics if size < 1.
func ShuffleBuffer[T any](s Stream[T], size int, seed uint64) Stream[T] {
	s.check("resumable.ShuffleBuffer")
	container.CheckArg(size >= 1, "resumable.ShuffleBuffer", "buffer size", size, ">= 1")
	return Stream[T]{shuffleNode[T]{s.n, size, seed, false}}
}

// BlockShuffle returns a [Stream] that shuffles s block by block, as
// stream.BlockShuffle (PaddlePaddle's shuffle): each block of size values is
// yielded in an order drawn from the generator. Its state holds the rest of the
// current block (up to size values, encoded with encoding/gob) and the
// generator. BlockShuffle panics if size < 1.
func BlockShuffle[T any](s Stream[T], size int, seed uint64) Stream[T] {
	s.check("resumable.BlockShuffle")
	container.CheckArg(size >= 1, "resumable.BlockShuffle", "buffer size", size, ">= 1")
	return Stream[T]{shuffleNode[T]{s.n, size, seed, true}}
}

type shuffleNode[T any] struct {
	src   node[T]
	size  int
	seed  uint64
	block bool
}

func (n shuffleNode[T]) pass(e int) iterator[T] {
	return &shuffleIter[T]{n: n, src: n.src.pass(e), g: newPCG(n.seed, e)}
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
	if it.n.block {
		return "block-shuffle"
	}
	return "shuffle-buffer"
}

func (it *shuffleIter[T]) shuffle() {
	it.g.rng.Shuffle(len(it.buf), func(i, j int) { it.buf[i], it.buf[j] = it.buf[j], it.buf[i] })
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

func (it *shuffleIter[T]) save(w *writer) {
	w.str(it.kind())
	w.int(it.n.size)
	it.g.save(w)
	w.bool(it.draining)
	w.bool(it.ended)
	if it.draining {
		saveValues(w, it.buf[it.pos:])
	} else {
		saveValues(w, it.buf)
	}
	it.src.save(w)
}

func (it *shuffleIter[T]) load(r *reader) {
	r.enter(it.kind())
	r.setting("buffer size", it.n.size)
	it.g.load(r)
	it.draining, it.ended = r.bool(), r.bool()
	it.buf = loadValues[T](r, it.n.size)
	it.pos = 0
	it.src.load(r)
}

func (it *shuffleIter[T]) close() { it.src.close() }
