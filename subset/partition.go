package subset

import (
	"math/rand/v2"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
)

// Partition returns part p of c for one worker of distributed training (the rule
// is [index.Part]'s). Every worker calls it with the same rng seed (so all see the
// same shuffle) and its own p.Index; with the Keep tail the parts of all workers
// together hold every observation of c exactly once, with Pad or Drop every part
// has the same length. A non-nil rng shuffles first, as everywhere in this
// package. A contiguous part without padding shares the index list of c (O(1)); a
// strided or padded part holds its own list.
//
// Partition returns an error wrapping [index.ErrPart] when p is not valid.
//
//	mine, err := subset.Partition(data, rand.New(rand.NewPCG(seed, epoch)),
//		index.Part{Index: rank, Parts: world, Strided: true, Tail: index.Pad})
func Partition[T, B any](c container.Batched[T, B], rng *rand.Rand, p index.Part) (*View[T, B], error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	v := source(c, rng)
	m := p.Len(v.n)
	if !p.Strided && p.Tail != index.Pad {
		lo := 0
		if m > 0 {
			lo = p.Pos(v.n, 0)
		}
		return v.slice(lo, lo+m), nil
	}
	return v.positions(p.Positions(v.n)), nil
}
