package stream

import "math/rand/v2"

// BlockShuffle returns a [Reader] that shuffles r block by block, with
// PaddlePaddle's semantics: it reads size values, yields them in an order drawn
// from rng, reads the next size values, and so on; the last block (fewer than
// size values) is shuffled too. Each block keeps its members: a value never moves
// out of the block it was read in. Memory holds one block.
//
// Every pass draws from rng, so passes differ and equal seeds give equal
// sequences of passes; two passes at once race on rng. BlockShuffle panics if r
// or rng is nil or size < 1.
func BlockShuffle[T any](r Reader[T], size int, rng *rand.Rand) Reader[T] {
	mustReader("stream.BlockShuffle", r)
	mustAtLeast("stream.BlockShuffle", "buffer size", size, 1)
	mustRand("stream.BlockShuffle", rng)
	return func(yield func(T, error) bool) {
		blocks(r, size, func(b []T) { rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] }) }, yield)
	}
}

// ShuffleBuffer returns a [Reader] that shuffles r through a sliding buffer, with
// tf.data's Dataset.shuffle semantics: it fills a buffer with the first size
// values; then, for each further value, yields a buffered value chosen by rng and
// puts the new one in its place; when r ends it yields what is left in an order
// drawn from rng. With size >= the length of r the result is a uniformly random
// permutation; a smaller size moves each value at most size-1 places earlier and
// mixes less. Memory holds size values.
//
// Every pass draws from rng, so passes differ and equal seeds give equal
// sequences of passes; two passes at once race on rng. ShuffleBuffer panics with a [*container.ArgError] if r or rng
// is nil or size < 1.
func ShuffleBuffer[T any](r Reader[T], size int, rng *rand.Rand) Reader[T] {
	mustReader("stream.ShuffleBuffer", r)
	mustAtLeast("stream.ShuffleBuffer", "buffer size", size, 1)
	mustRand("stream.ShuffleBuffer", rng)
	return func(yield func(T, error) bool) {
		buf := make([]T, 0, min(size, 1024))
		for v, err := range r {
			if err != nil {
				yield(v, err)
				return
			}
			if len(buf) < size {
				buf = append(buf, v)
				continue
			}
			i := rng.IntN(size)
			out := buf[i]
			buf[i] = v
			if !yield(out, nil) {
				return
			}
		}
		rng.Shuffle(len(buf), func(i, j int) { buf[i], buf[j] = buf[j], buf[i] })
		for _, v := range buf {
			if !yield(v, nil) {
				return
			}
		}
	}
}

// blocks reads r in blocks of size values, reorders each block (the last one may
// be shorter) with arrange and yields its values: the loop behind BlockShuffle
// and SortWindow. An error of r is yielded at once; the unfinished block is
// dropped.
func blocks[T any](r Reader[T], size int, arrange func([]T), yield func(T, error) bool) {
	block := make([]T, 0, min(size, 1024))
	flush := func() bool {
		arrange(block)
		for _, v := range block {
			if !yield(v, nil) {
				return false
			}
		}
		clear(block) // let the values be collected while the next block fills
		block = block[:0]
		return true
	}
	for v, err := range r {
		if err != nil {
			yield(v, err)
			return
		}
		if block = append(block, v); len(block) == size && !flush() {
			return
		}
	}
	flush()
}
