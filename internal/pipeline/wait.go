package pipeline

import (
	"runtime"
	"time"
)

// PollBudget is how long [Poll] spins before it parks.
//
// A goroutine woken by a channel operation is queued on the processor of the
// goroutine that woke it (the runtime's runnext slot), and an idle processor does
// not reliably take it over (golang/go#32113): in a producer/consumer pipeline on
// two cores the woken side waits until the waking side blocks, so the two halves
// take turns on one core instead of overlapping. Measured on a 2-core VM (see
// docs/performance.md), a two-goroutine pipeline with 50 µs of work per side per
// step ran at 1.05-1.2x the serial time when both sides blocked on channels, and
// at 0.52x when they polled first.
//
// A step of a kit pipeline costs microseconds to milliseconds, so 500 µs covers
// the waits that decide whether the two sides overlap, and bounds the processor
// time a waiting goroutine can take from a slow other side.
const PollBudget = 500 * time.Microsecond

// pollEvery is how many polls pass between two reads of the clock: reading it is
// dearer than a poll, and 16 polls with runtime.Gosched between them take a few
// microseconds, well within the budget's resolution.
const pollEvery = 16

// Poll receives a value from c and reports ok as a receive does (false when c is
// closed and drained), or returns stopped = true as soon as stop is closed. It
// polls for up to [PollBudget], yielding the processor between polls, then
// blocks.
//
// The wait policy of every pipeline: a pipeline with one background goroutine
// polls (its two sides must overlap), one with several workers blocks ([Block]),
// because the workers keep the cores busy themselves and a polling waiter takes
// processor time from them (measured: a polling consumer cut an ordered parallel
// map's speedup on two cores from 1.9x to 1.7x).
func Poll[T any](c <-chan T, stop <-chan struct{}) (v T, ok, stopped bool) {
	var start time.Time
	for i := 0; ; i++ {
		select {
		case v, ok = <-c:
			return v, ok, false
		case <-stop:
			return v, false, true
		default:
		}
		if i == 0 {
			start = time.Now()
		} else if i%pollEvery == 0 && time.Since(start) > PollBudget {
			break
		}
		runtime.Gosched()
	}
	return Block(c, stop)
}

// Block is [Poll] without polling: it parks at once until c delivers or stop is
// closed.
func Block[T any](c <-chan T, stop <-chan struct{}) (v T, ok, stopped bool) {
	select {
	case v, ok = <-c:
		return v, ok, false
	case <-stop:
		return v, false, true
	}
}
