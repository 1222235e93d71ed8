package index

import (
	"errors"
	"fmt"
	"math"

	"github.com/obskit/obskit/container"
)

// Steps is the schedule of a synchronous data-parallel loop: Parts parts (one
// per process or device) each take a batch of Size positions per step, so a
// step takes Parts*Size positions of the epoch's global order, the next ones,
// and after any number of steps the parts together have consumed a prefix of
// it. That is what lets a job resume with another number of parts or another
// batch size with no coordinator: where it stands is one number per epoch, the
// positions consumed, and the rest of the epoch, cut into the new steps, holds
// every position not yet consumed exactly once, whatever the old and the new
// numbers (nothing needs to divide anything).
//
// The epochs are one stream of positions: position g of the stream is position
// g%n of epoch g/n. A schedule starts at a position of the stream (the start of
// epoch 0, or where a saved job stopped) and cuts steps from there. The last
// step of an epoch may run past its end; the [Tail] says what happens then:
//
//   - [Keep]: the step is cut at the end of the epoch; parts whose positions all
//     lie past it have no batch in that step, and one part's batch may be short.
//   - [Drop]: the step is not taken; the rest of the epoch is not visited.
//   - [Pad]: every part gets a full batch; its slots past the end of the epoch
//     are padding, which counts as nothing: [Steps.Batch] says how many slots are
//     real, and a padding slot reads position (g-n) mod n of the epoch, so it
//     repeats the epoch's first positions.
//   - [RollOver]: the step runs on into the next epoch; a step belongs to the
//     epoch of its last position.
//
// Within a step, part p takes the Size positions p*Size, p*Size+1, ... of the
// step (contiguous) or p, p+Parts, p+2*Parts, ... (strided, as PyTorch's
// DistributedSampler deals them out). A Steps is a small value, safe to copy and
// to use from many goroutines; every method is O(1) but [Steps.Batch], which is
// O(Size).
type Steps struct {
	n, size, parts int
	strided        bool
	tail           Tail
	// The start: position origin of the stream, which is position consumed of
	// epoch epoch0, where step0 steps of epoch0 were taken.
	origin, epoch0, consumed, step0 int
}

// ErrSteps is wrapped by the error of [Steps.Resume] for a start that is not a
// position of the stream.
var ErrSteps = errors.New("invalid start of a schedule")

// NewSteps returns the schedule of n positions per epoch for parts parts taking
// batches of size, contiguous or strided within a step, with tail t, from the
// start of epoch 0. It panics with a [*container.ArgError] when n is negative,
// size or parts is below 1, t is not a tail, or a step of parts*size positions
// does not fit an int.
func NewSteps(n, size, parts int, strided bool, t Tail) Steps {
	container.CheckArg(n >= 0, "index.NewSteps", "number of positions", n, ">= 0")
	container.CheckArg(size >= 1, "index.NewSteps", "batch size", size, ">= 1")
	container.CheckArg(parts >= 1, "index.NewSteps", "parts", parts, ">= 1")
	container.CheckArg(size <= math.MaxInt/parts, "index.NewSteps", "parts", parts, fmt.Sprintf("parts*size (size %d) within an int", size))
	container.CheckArg(t.valid(), "index.NewSteps", "tail", t, "Keep, Drop, Pad or RollOver")
	return Steps{n: n, size: size, parts: parts, strided: strided, tail: t}
}

// Resume returns the schedule s started at a position: the next step starts
// consumed positions into epoch epoch, and is step number step of it (0 at the
// start of an epoch). A start at the end of an epoch is the start of the next
// one. With [RollOver] consumed may be negative: the step begins in an earlier
// epoch and belongs to epoch because it ends in it ([Steps.After] gives such
// positions); when a step of this schedule, shorter than the one that gave the
// position, would end before epoch, the schedule starts in the epoch where its
// first step ends, and numbers its steps there from step. Resume returns an
// error wrapping [ErrSteps] when epoch is outside [0, MaxEpoch], consumed above
// n or below 0 (below -epoch*n with RollOver), or step negative.
func (s Steps) Resume(epoch, consumed, step int) (Steps, error) {
	lo := 0
	if s.tail == RollOver {
		lo = -epoch * s.n
	}
	switch {
	case epoch < 0 || epoch > s.MaxEpoch():
		return s, fmt.Errorf("index.Steps.Resume: epoch %d outside [0, %d]: %w", epoch, s.MaxEpoch(), ErrSteps)
	case consumed < lo || consumed > s.n:
		return s, fmt.Errorf("index.Steps.Resume: %d positions consumed of epoch %d of %d (%v): %w", consumed, epoch, s.n, s.tail, ErrSteps)
	case step < 0:
		return s, fmt.Errorf("index.Steps.Resume: step %d: %w", step, ErrSteps)
	}
	origin := epoch*s.n + consumed
	switch {
	case consumed == s.n && s.n > 0:
		epoch, step = epoch+1, 0
	case s.tail == RollOver && s.n > 0 && origin+s.global()-1 < epoch*s.n:
		epoch = (origin + s.global() - 1) / s.n // the first step ends in an earlier epoch
	}
	s.origin, s.epoch0, s.consumed, s.step0 = origin, epoch, origin-epoch*s.n, step
	return s, nil
}

// N returns the number of positions of an epoch; Size the batch size of a
// part; Parts the number of parts; Tail the tail.
func (s Steps) N() int { return s.n }

// Size returns the batch size of a part.
func (s Steps) Size() int { return s.size }

// Parts returns the number of parts.
func (s Steps) Parts() int { return s.parts }

// Tail returns the tail.
func (s Steps) Tail() Tail { return s.tail }

// Start returns the epoch, the positions consumed and the steps taken where the
// schedule starts.
func (s Steps) Start() (epoch, consumed, step int) { return s.epoch0, s.consumed, s.step0 }

// MaxEpoch returns the last epoch the schedule can address: every position of
// the stream up to the end of it, and a step past it, fit in an int. It is
// about math.MaxInt/n, and math.MaxInt when n is 0.
func (s Steps) MaxEpoch() int {
	if s.n == 0 {
		return math.MaxInt
	}
	return max((math.MaxInt-s.size*s.parts)/s.n-1, 0)
}

// global returns the positions a step takes.
func (s Steps) global() int { return s.size * s.parts }

// first returns the number of the first step, counted from the start, of epoch
// e (e >= epoch0), and the stream position where the steps of e start.
func (s Steps) first(e int) (j, at int) {
	g := s.global()
	if s.tail == RollOver {
		// The first step whose last position is in epoch e or later: the
		// first j with origin+(j+1)*g-1 >= e*n, ceil((e*n-origin+1)/g)-1,
		// which is floor((e*n-origin)/g) (e*n-origin+1 overflows for n =
		// math.MaxInt).
		if e == s.epoch0 {
			return 0, s.origin
		}
		j = (e*s.n - s.origin) / g
		return j, s.origin + j*g
	}
	if e == s.epoch0 {
		return 0, s.origin
	}
	return 0, e * s.n
}

// Len returns the number of steps of epoch e from the start of the schedule:
// the steps of the rest of the epoch when e is the epoch of the start, none
// before it. It panics with a [*container.ArgError] when e is outside [0,
// MaxEpoch].
func (s Steps) Len(e int) int {
	s.checkEpoch("index.Steps.Len", e)
	if e < s.epoch0 || s.n == 0 {
		return 0
	}
	g := s.global()
	if s.tail == RollOver {
		j0, _ := s.first(e)
		j1, _ := s.first(e + 1)
		return j1 - j0
	}
	_, at := s.first(e)
	left := (e+1)*s.n - at
	if s.tail == Drop {
		return left / g
	}
	return ceilDiv(left, g)
}

// First returns the position of the first step of epoch e, for [Steps.Resume]:
// a schedule resumed there runs epoch e as this one does. It panics with a
// [*container.ArgError] when e is outside [0, MaxEpoch] or before the start.
func (s Steps) First(e int) (epoch, consumed, step int) {
	s.checkEpoch("index.Steps.First", e)
	container.CheckArg(e >= s.epoch0, "index.Steps.First", "epoch", e, fmt.Sprintf(">= %d, the epoch of the start", s.epoch0))
	_, at := s.first(e)
	return e, at - e*s.n, s.Step(e, 0)
}

// Step returns the number of step k of epoch e within the epoch: k, plus the
// steps taken before the start when e is the epoch of the start.
func (s Steps) Step(e, k int) int {
	if e == s.epoch0 {
		return s.step0 + k
	}
	return k
}

// Span returns where step k of epoch e lies: the stream positions [start,
// start+Parts*Size), of which those at or past end (the end of the epoch,
// (e+1)*n, but with [RollOver], where nothing ends) are cut ([Keep]) or padding
// ([Pad]). It panics with a [*container.ArgError] when e is outside [0,
// MaxEpoch] and with a [*container.IndexError] when k is outside [0, Len(e)).
func (s Steps) Span(e, k int) (start, end int) {
	container.CheckIndex("index.Steps.Span", k, s.Len(e))
	_, at := s.first(e)
	start = at + k*s.global()
	end = (e + 1) * s.n
	if s.tail == RollOver {
		end = start + s.global()
	}
	return start, end
}

// After returns the position of the step that follows step k of epoch e, for
// [Steps.Resume] to start there: its epoch, the positions of that epoch
// consumed before it (negative with [RollOver] when it begins in epoch e and
// ends in the next) and its number in its epoch. After the last step of an
// epoch it is the start of the next. It panics as Span does.
func (s Steps) After(e, k int) (epoch, consumed, step int) {
	start, _ := s.Span(e, k)
	g := start + s.global() // where the next step starts
	if s.tail != RollOver {
		if k == s.Len(e)-1 {
			return e + 1, 0, 0
		}
		return e, g - e*s.n, s.Step(e, k) + 1
	}
	next := (g + s.global() - 1) / s.n // the epoch of the next step: of its last position
	if next == e {
		return e, g - e*s.n, s.Step(e, k) + 1
	}
	return next, g - next*s.n, 0
}

// Batch writes the positions of part p's batch of step k of epoch e into dst,
// as (epoch, position) pairs flattened into one index of the stream (g, for
// position g%n of epoch g/n), reusing dst's memory when it can, and returns
// them with the number of real positions, which come first. With [Keep] the
// batch holds its real positions only (none when all of them lie past the end
// of the epoch); with [Pad] it is full, and its padding slots hold e*n + the
// position they repeat. It panics as Span does, and with a
// [*container.IndexError] when p is outside [0, Parts).
func (s Steps) Batch(dst []int, e, k, p int) (pos []int, real int) {
	first, stride, real, total, end := s.Slots(e, k, p)
	dst = container.Resize(dst, total)
	for j := range total {
		g := first + j*stride
		if j >= real { // padding: position (g-end) mod n of epoch e
			g = e*s.n + (g-end)%s.n
		}
		dst[j] = g
	}
	return dst, real
}

// Slots returns the layout of part p's batch of step k of epoch e without
// listing it: slot j holds stream position first + j*stride; the first real
// slots are real (with [RollOver] they may run on into the next epoch); with
// [Pad] the batch has total slots, the others holding position
// (first+j*stride-end) mod n of epoch e; otherwise total is real. It panics as
// [Steps.Batch] does.
func (s Steps) Slots(e, k, p int) (first, stride, real, total, end int) {
	container.CheckIndex("index.Steps.Batch", p, s.parts)
	start, end := s.Span(e, k)
	if s.strided {
		first, stride = start+p, s.parts
	} else {
		first, stride = start+p*s.size, 1
	}
	// The real slots are those before end: j < ceil((end-first)/stride).
	real = min(s.size, ceilDiv(max(end-first, 0), stride))
	total = real
	if s.tail == Pad {
		total = s.size
	}
	return first, stride, real, total, end
}

func (s Steps) checkEpoch(op string, e int) {
	if e < 0 || e > s.MaxEpoch() {
		panic(&container.ArgError{Op: op, Arg: "epoch", Value: e, Want: fmt.Sprintf("in [0, %d]", s.MaxEpoch())})
	}
}
