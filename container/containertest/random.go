package containertest

import (
	"sync/atomic"

	"github.com/obskit/obskit/container"
)

var _ container.Random[int, []int] = (*Draws)(nil)

// Draws is a random container of ints for the tests of wrappers and loops:
// observation i is 1000*i plus a number in [0, 1000) drawn from the generator of
// i, so a test reads both which observation it got and what it drew. It counts
// the calls that received randomness, to show that a wrapper reaches it.
type Draws struct {
	N     int
	calls atomic.Int64
}

// NewDraws returns a Draws container of n observations.
func NewDraws(n int) *Draws { return &Draws{N: n} }

// Nobs returns N.
func (d *Draws) Nobs() int { return d.N }

// GetObs returns observation i drawn with the zero ObsRand.
func (d *Draws) GetObs(i int) int { return d.draw(i, container.ObsRand{}) }

// GetObsInto gathers the observations at idx drawn with the zero ObsRand.
func (d *Draws) GetObsInto(dst []int, idx []int) []int {
	return d.gather(dst, idx, container.ObsRand{})
}

// GetObsRand returns observation i drawn with r, and counts the call.
func (d *Draws) GetObsRand(i int, r container.ObsRand) int {
	d.calls.Add(1)
	return d.draw(i, r)
}

// GetObsRandInto gathers the observations at idx drawn with r, and counts the
// call.
func (d *Draws) GetObsRandInto(dst []int, idx []int, r container.ObsRand) []int {
	d.calls.Add(1)
	return d.gather(dst, idx, r)
}

// Calls returns the number of calls of GetObsRand and GetObsRandInto so far.
func (d *Draws) Calls() int { return int(d.calls.Load()) }

// Want returns what observation i is when drawn with r: the reference a test
// compares a wrapper's result with.
func (d *Draws) Want(i int, r container.ObsRand) int { return d.draw(i, r) }

func (d *Draws) draw(i int, r container.ObsRand) int {
	container.CheckIndex("containertest.Draws.GetObs", i, d.N)
	return 1000*i + r.For(i).IntN(1000)
}

func (d *Draws) gather(dst []int, idx []int, r container.ObsRand) []int {
	container.CheckIndices("containertest.Draws.GetObsInto", idx, d.N)
	dst = container.Resize(dst, len(idx))
	for j, i := range idx {
		dst[j] = 1000*i + r.For(i).IntN(1000)
	}
	return dst
}
