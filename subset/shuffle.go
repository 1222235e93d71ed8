package subset

import (
	"math/rand/v2"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
)

// Shuffle returns a view of all observations of c in a random order drawn from rng:
// observation i of the view is observation p[i] of c, where p is the permutation
// [index.PermInto] writes, which is rng.Perm(c.Nobs()). The same rng state gives the
// same view on every platform. Shuffle allocates one index per observation and
// copies no data. A shuffled tuple moves all its members together, because the
// tuple is one container. Shuffle panics with a [*container.ArgError] if rng is nil.
func Shuffle[T, B any](c container.Batched[T, B], rng *rand.Rand) *View[T, B] {
	checkRand("subset.Shuffle", rng)
	v := viewOf(c)
	p := make([]int, v.n)
	index.PermInto(p, rng)
	return v.positions(p)
}

// Iota returns the container of the indices 0, 1, ..., n-1 (observation i is i).
// Applied to Iota(n), the functions of this package that need no labels are index
// forms: the views they return hold indices, and [View.Indices] or
// [container.Collect] lists them. Iota panics if n < 0.
func Iota(n int) *container.Func[int] {
	return container.FromFunc(n, func(i int) int { return i })
}

// source returns the view of c shuffled by rng, or of c in data order when rng is
// nil: the input of every function of the package that shuffles optionally.
func source[T, B any](c container.Batched[T, B], rng *rand.Rand) *View[T, B] {
	if rng != nil {
		return Shuffle(c, rng)
	}
	return viewOf(c)
}

func checkRand(op string, rng *rand.Rand) {
	container.CheckArg(rng != nil, op, "rng", rng, "a *rand.Rand")
}
