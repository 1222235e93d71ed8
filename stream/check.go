package stream

import (
	"math/rand/v2"
	"strconv"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
)

// Argument checks, run when a decorator is built so that a bad argument panics at
// the call site with a *container.ArgError, as slices.Chunk does.

func mustReader[T any](op string, r Reader[T]) {
	container.CheckArg(r != nil, op, "reader", "nil", "a Reader")
}

func mustFunc(op, what string, isNil bool) {
	container.CheckArg(!isNil, op, what, "nil", "a function")
}

func mustAtLeast(op, what string, v, least int) {
	if v < least {
		panic(&container.ArgError{Op: op, Arg: what, Value: v, Want: ">= " + strconv.Itoa(least)})
	}
}

func mustRand(op string, rng *rand.Rand) {
	container.CheckArg(rng != nil, op, "rng", rng, "a *rand.Rand")
}

// mustTail accepts the tails a stream can honour: a stream of unknown length can
// keep or drop its remainder, but cannot pad it from the start of an epoch it
// does not hold, nor roll it over into a next pass.
func mustTail(op string, t index.Tail) {
	container.CheckArg(t == index.Keep || t == index.Drop, op, "tail", t, "index.Keep or index.Drop")
}
