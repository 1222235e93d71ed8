package index

import (
	"math/rand/v2"

	"github.com/obskit/obskit/container"
)

// PermInto writes a uniform random permutation of 0..len(p)-1 into p, drawn from
// rng by Fisher-Yates with rng.IntN: the same rng state gives the same
// permutation on every platform, and it is the permutation rng.Perm(len(p)) would
// return. PermInto allocates nothing. It panics with a [*container.ArgError] when
// rng is nil.
func PermInto(p []int, rng *rand.Rand) {
	container.CheckArg(rng != nil, "index.PermInto", "rng", rng, "a *rand.Rand")
	for i := range p {
		p[i] = i
	}
	Shuffle(p, rng)
}

// Shuffle permutes p in place, uniformly at random, by the same Fisher-Yates
// steps as [PermInto].
func Shuffle(p []int, rng *rand.Rand) {
	container.CheckArg(rng != nil, "index.Shuffle", "rng", rng, "a *rand.Rand")
	for i := len(p) - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		p[i], p[j] = p[j], p[i]
	}
}
