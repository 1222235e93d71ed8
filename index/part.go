package index

import (
	"errors"
	"fmt"

	"github.com/obskit/obskit/container"
)

// ErrPart is wrapped by the error of [Part.Validate] for a part that does not
// describe a share.
var ErrPart = errors.New("invalid part")

// A Part is share Index (0-based) of Parts disjoint shares of n positions, the
// num_parts/part_index of MXNet's providers and the rank/world size of PyTorch's
// DistributedSampler.
//
// Contiguous parts (the default) are consecutive blocks; Strided parts take every
// Parts-th position starting at Index, as DistributedSampler does. Tail says what
// happens to the remainder when Parts does not divide n: [Keep] spreads it (the
// first n%Parts parts have one more position), [Drop] trims every part to
// n/Parts, [Pad] gives every part ceil(n/Parts) positions by repeating positions
// from the start (DistributedSampler's default, so that every rank runs the same
// number of steps). [RollOver] is not a tail of a partition.
type Part struct {
	Index, Parts int
	Strided      bool
	Tail         Tail
}

// Validate returns an error wrapping [ErrPart] when Parts is below 1, Index is
// outside [0, Parts) or Tail is not Keep, Drop or Pad.
func (p Part) Validate() error {
	switch {
	case p.Parts < 1:
		return fmt.Errorf("index.Part: %d parts, want at least 1: %w", p.Parts, ErrPart)
	case p.Index < 0 || p.Index >= p.Parts:
		return fmt.Errorf("index.Part: part %d outside [0, %d): %w", p.Index, p.Parts, ErrPart)
	case p.Tail > Pad:
		return fmt.Errorf("index.Part: tail %v, want Keep, Drop or Pad: %w", p.Tail, ErrPart)
	}
	return nil
}

func (p Part) mustValidate(op string, n int) {
	if err := p.Validate(); err != nil {
		panic(&container.ArgError{Op: op, Arg: "part", Value: p, Want: "a valid Part (" + err.Error() + ")"})
	}
	container.CheckArg(n >= 0, op, "number of positions", n, ">= 0")
}

// Len returns the number of positions of the part among n. It panics with a
// [*container.ArgError] when p is not valid or n is negative.
func (p Part) Len(n int) int {
	p.mustValidate("index.Part.Len", n)
	switch p.Tail {
	case Pad:
		return ceilDiv(n, p.Parts)
	case Drop:
		return n / p.Parts
	}
	lo, hi := Chunk(n, p.Parts, p.Index)
	return hi - lo
}

// Pos returns position i of the part: an index into the n positions. With [Pad],
// positions past n wrap to the start. Pos panics with a [*container.IndexError]
// when i is outside [0, Len(n)).
func (p Part) Pos(n, i int) int {
	container.CheckIndex("index.Part.Pos", i, p.Len(n))
	return p.pos(n, i)
}

func (p Part) pos(n, i int) int {
	q := p.Index + i*p.Parts // strided position in the padded or trimmed sequence
	if !p.Strided {
		switch p.Tail {
		case Keep:
			lo, _ := Chunk(n, p.Parts, p.Index)
			return lo + i
		case Pad:
			q = p.Index*ceilDiv(n, p.Parts) + i
		case Drop:
			q = p.Index*(n/p.Parts) + i
		}
	}
	if p.Tail == Pad {
		return q % n
	}
	return q
}

// Positions returns every position of the part among n, in order: Pos(n, 0),
// Pos(n, 1), ...; newly allocated.
func (p Part) Positions(n int) []int {
	out := make([]int, p.Len(n))
	for i := range out {
		out[i] = p.pos(n, i)
	}
	return out
}

// Chunk returns block j of n positions cut into k contiguous blocks whose sizes
// differ by at most one, the larger ones first: [lo, hi). It panics with a
// [*container.ArgError] when n is negative or k below 1, and with a
// [*container.IndexError] when j is outside [0, k).
func Chunk(n, k, j int) (lo, hi int) {
	container.CheckArg(n >= 0, "index.Chunk", "number of positions", n, ">= 0")
	container.CheckArg(k >= 1, "index.Chunk", "number of blocks", k, ">= 1")
	container.CheckIndex("index.Chunk", j, k)
	q, r := n/k, n%k
	lo = j*q + min(j, r)
	hi = lo + q
	if j < r {
		hi++
	}
	return lo, hi
}

// ceilDiv returns ceil(n/d) for n >= 0 and d >= 1 without computing n+d-1,
// which overflows for n near math.MaxInt.
func ceilDiv(n, d int) int { return n/d + min(n%d, 1) }
