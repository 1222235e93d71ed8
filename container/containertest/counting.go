package containertest

import (
	"sync"
	"sync/atomic"

	"github.com/obskit/obskit/container"
)

var _ container.Batched[int, []int] = (*Counting)(nil)

// Counting is a container of ints that counts how it is read, from any number of
// goroutines: the tests of every wrapper use it to show that the wrapper gathers
// through its source's GetObsInto (one call per batch, no GetObs calls) rather
// than observation by observation.
type Counting struct {
	container.Slice[int]
	batches, singles atomic.Int64
	mu               sync.Mutex
	last             []int
}

// NewCounting returns a Counting container of the given observations.
func NewCounting(obs []int) *Counting { return &Counting{Slice: obs} }

// GetObs counts the call and returns observation i.
func (c *Counting) GetObs(i int) int {
	c.singles.Add(1)
	return c.Slice.GetObs(i)
}

// GetObsInto counts the call, records a copy of idx and gathers.
func (c *Counting) GetObsInto(dst []int, idx []int) []int {
	c.batches.Add(1)
	c.mu.Lock()
	c.last = append(c.last[:0], idx...)
	c.mu.Unlock()
	return c.Slice.GetObsInto(dst, idx)
}

// Batches returns the number of GetObsInto calls since the last Reset.
func (c *Counting) Batches() int { return int(c.batches.Load()) }

// Singles returns the number of GetObs calls since the last Reset.
func (c *Counting) Singles() int { return int(c.singles.Load()) }

// Last returns a copy of the indices of the last GetObsInto call.
func (c *Counting) Last() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]int(nil), c.last...)
}

// Reset sets both counts to zero.
func (c *Counting) Reset() { c.batches.Store(0); c.singles.Store(0) }
