package index

import (
	"fmt"
	"math"

	"github.com/obskit/obskit/container"
)

// A Plan cuts the positions 0..n-1 of every epoch into batches of a size, with a
// [Tail] for the remainder. It is a small value, safe to copy and to use from
// many goroutines; every method is O(1) except [Plan.Indices], which is O(size).
type Plan struct {
	n, size int
	tail    Tail
}

// NewPlan returns the plan of n positions in batches of size with tail t. It
// panics with a [*container.ArgError] when n is negative, size is below 1 or t is
// not one of the four tails.
func NewPlan(n, size int, t Tail) Plan {
	container.CheckArg(n >= 0, "index.NewPlan", "number of positions", n, ">= 0")
	container.CheckArg(size >= 1, "index.NewPlan", "batch size", size, ">= 1")
	container.CheckArg(t.valid(), "index.NewPlan", "tail", t, "Keep, Drop, Pad or RollOver")
	return Plan{n: n, size: size, tail: t}
}

// N returns the number of positions of an epoch.
func (p Plan) N() int { return p.n }

// Size returns the batch size.
func (p Plan) Size() int { return p.size }

// Tail returns the plan's tail.
func (p Plan) Tail() Tail { return p.tail }

// MaxEpoch returns the last epoch the plan can address: every position of epochs
// 0..MaxEpoch, counted from the start of epoch 0, fits in an int. It is about
// math.MaxInt/n, beyond any real training run, and math.MaxInt when n is 0.
func (p Plan) MaxEpoch() int {
	if p.n == 0 {
		return math.MaxInt
	}
	return max((math.MaxInt-p.size)/p.n-1, 0) // epoch 0 fits whatever n and size are
}

func (p Plan) checkEpoch(op string, e int) {
	if e < 0 || e > p.MaxEpoch() {
		panic(&container.ArgError{Op: op, Arg: "epoch", Value: e, Want: fmt.Sprintf("in [0, %d]", p.MaxEpoch())})
	}
}

// Len returns the number of batches of epoch e. It is the same for every epoch
// except with [RollOver], where an epoch has floor or ceil of n/size batches
// depending on what earlier epochs left over. Len panics with a
// [*container.ArgError] when e is outside [0, MaxEpoch].
func (p Plan) Len(e int) int {
	p.checkEpoch("index.Plan.Len", e)
	return p.len(e)
}

func (p Plan) len(e int) int {
	switch p.tail {
	case Drop:
		return p.n / p.size
	case RollOver:
		return (e+1)*p.n/p.size - e*p.n/p.size
	}
	return p.n/p.size + min(p.n%p.size, 1) // ceil(n/size); n+size-1 could overflow
}

// Span returns where batch k of epoch e lies: it holds the real positions
// start, start+1, ..., start+real-1, counted from the start of epoch 0 (position
// g is position g%n of epoch g/n; only [RollOver] batches cross an epoch), and
// then pad repeated positions (the first pad positions of epoch e; [Pad] only).
// Span panics with a [*container.ArgError] when e is outside [0, MaxEpoch] and
// with a [*container.IndexError] when k is outside [0, Len(e)).
func (p Plan) Span(e, k int) (start, real, pad int) {
	p.checkEpoch("index.Plan.Span", e)
	container.CheckIndex("index.Plan.Span", k, p.len(e))
	return p.span(e, k)
}

func (p Plan) span(e, k int) (start, real, pad int) {
	switch p.tail {
	case RollOver:
		return (e*p.n/p.size + k) * p.size, p.size, 0
	case Drop:
		return e*p.n + k*p.size, p.size, 0
	}
	real = min(p.size, p.n-k*p.size)
	if p.tail == Pad {
		pad = p.size - real
	}
	return e*p.n + k*p.size, real, pad
}

// Indices writes the source indices of batch k of epoch e into dst (reusing its
// memory when it has the capacity) and returns them with the number of real ones.
// order maps a position of an epoch to a source index: order(e, pos) for pos in
// [0, n); pass a function returning pos for data order. The padded slots of a
// [Pad] batch come after the real ones and repeat the epoch's first positions.
// Indices panics as [Plan.Span] does.
func (p Plan) Indices(dst []int, e, k int, order func(epoch, pos int) int) (idx []int, real int) {
	start, real, pad := p.Span(e, k)
	dst = container.Resize(dst, real+pad)
	for j := range real {
		g := start + j
		dst[j] = order(g/p.n, g%p.n)
	}
	for j := range pad {
		dst[real+j] = order(e, j%p.n)
	}
	return dst, real
}
