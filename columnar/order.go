package columnar

import (
	"math/rand/v2"

	"github.com/obskit/obskit/container"
)

// LocalOrder returns a two-level shuffled order of the rows of a chunked
// column: the chunks (Parquet row groups, Arrow record batches) in a random
// order, and the rows of each run of window consecutive chunks of that order
// shuffled together. starts holds the first row of each chunk and, last, the
// number of rows ([parquet.File.RowGroupStarts]). The result is a permutation
// of [0, n) in a new slice, for subset.Of:
//
//	order := columnar.LocalOrder(t.RowGroupStarts(), 4, rand.New(rand.NewPCG(seed, epoch)))
//	for b := range eachobs.Batches(subset.Of(data, order), 128) { ... }
//
// A container that caches at least window decoded chunks then decodes each
// chunk once per epoch, where a full shuffle decodes one chunk for nearly every
// row. The price is locality: a batch draws its rows from window chunks rather
// than from the whole table, so a larger window mixes better and holds more
// decoded chunks in memory.
//
// LocalOrder panics with a *container.ArgError when window < 1 or rng is nil.
// The same rng state gives the same order.
func LocalOrder(starts []int, window int, rng *rand.Rand) []int {
	const op = "columnar.LocalOrder"
	container.CheckArg(window >= 1, op, "window", window, ">= 1")
	container.CheckArg(rng != nil, op, "rng", rng, "not nil")
	nc := len(starts) - 1
	if nc < 1 {
		return []int{}
	}
	chunks := rng.Perm(nc)
	out := make([]int, 0, starts[nc])
	for lo := 0; lo < nc; lo += window {
		first := len(out)
		for _, c := range chunks[lo:min(nc, lo+window)] {
			for i := starts[c]; i < starts[c+1]; i++ {
				out = append(out, i)
			}
		}
		run := out[first:]
		rng.Shuffle(len(run), func(i, j int) { run[i], run[j] = run[j], run[i] })
	}
	return out
}
