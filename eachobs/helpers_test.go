package eachobs_test

import (
	"fmt"
	"iter"
	"slices"
	"testing"
	"time"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
)

func iota(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// rec is what a test keeps of a batch: copies of its data and indices.
type rec struct {
	Data    []int
	Indices []int
	Real    int
	Pos     eachobs.Position
	Count   int
	Next    eachobs.Position
}

func recOf(b eachobs.Batch[[]int]) rec {
	return rec{slices.Clone(b.Data), slices.Clone(b.Indices), b.Real, b.Pos, b.Count, b.Next()}
}

func collect(seq iter.Seq[eachobs.Batch[[]int]]) []rec {
	var out []rec
	for b := range seq {
		out = append(out, recOf(b))
	}
	return out
}

// checkData checks that each batch's data is the observations its indices name,
// in a container whose observation i is 10*i, and that Indices are container
// indices (padding repeats real ones: there is no -1 any more).
func checkData(t *testing.T, what string, n int, rs []rec) {
	t.Helper()
	for k, r := range rs {
		if len(r.Data) != len(r.Indices) {
			t.Fatalf("%s: batch %d holds %d observations and %d indices", what, k, len(r.Data), len(r.Indices))
		}
		if r.Real < 0 || r.Real > len(r.Indices) {
			t.Fatalf("%s: batch %d has Real %d of %d slots", what, k, r.Real, len(r.Indices))
		}
		for j, i := range r.Indices {
			if i < 0 || i >= n {
				t.Fatalf("%s: batch %d slot %d has index %d outside [0, %d)", what, k, j, i, n)
			}
			if r.Data[j] != 10*i {
				t.Fatalf("%s: batch %d slot %d = %d, index %d", what, k, j, r.Data[j], i)
			}
		}
	}
}

func tens(n int) container.Slice[int] {
	s := make([]int, n)
	for i := range s {
		s[i] = 10 * i
	}
	return s
}

var tails = []index.Tail{index.Keep, index.Drop, index.Pad, index.RollOver}

// parallelism is every combination of prefetch and workers the property tests run.
var parallelism = []struct{ prefetch, workers int }{{0, 1}, {1, 1}, {3, 1}, {0, 2}, {2, 3}, {1, 4}}

func parOpts(prefetch, workers int) []eachobs.Option {
	return []eachobs.Option{eachobs.Prefetch(prefetch), eachobs.Workers(workers)}
}

func name(parts ...any) string { return fmt.Sprint(parts...) }

// withTimeout runs f in a goroutine and fails the test if it has not returned
// after d, so that a regression to a deadlock fails instead of hanging CI. f
// reports with t.Error, not t.Fatal (it runs in another goroutine).
func withTimeout(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still running after %v: deadlock", d)
	}
}

// must returns v, and fails the program if err is not nil.
func must[V any](v V, err error) V {
	if err != nil {
		panic(err)
	}
	return v
}

// resume returns the loop of l from pos: an iterator of l restored to pos's
// encoding, ranged to its end (or the break) and closed.
func resume[B any](l *eachobs.Loader[B], pos eachobs.Position) (iter.Seq[eachobs.Batch[B]], error) {
	data, err := pos.MarshalBinary()
	if err != nil {
		return nil, err
	}
	it := l.Iter()
	if err := it.UnmarshalBinary(data); err != nil {
		return nil, err
	}
	return func(yield func(eachobs.Batch[B]) bool) {
		defer it.Close()
		for b := range it.All() {
			if !yield(b) {
				return
			}
		}
	}, nil
}

// start returns the position of the first batch of l's epoch 0.
func start[B any](l *eachobs.Loader[B]) eachobs.Position { return l.Iter().Pos() }

// blocked is a container with blocks (container.Blocked): the slice, in the
// blocks of blocksOf.
type blocked[T any] struct {
	container.Slice[T]
	starts []int
}

func (b blocked[T]) BlockStarts() []int { return b.starts }

// withBlocks returns s with the blocks of blocksOf(len(s)).
func withBlocks[T any](s container.Slice[T]) blocked[T] {
	return blocked[T]{s, blocksOf(len(s))}
}

// blockedTens is tens(n) with blocks.
func blockedTens(n int) blocked[int] { return withBlocks(tens(n)) }

// blocksOf returns the starts of blocks of n observations of the sizes 3, 0,
// 5, 1, 4, 2, 0, 6 in turn, the last one cut at n: unequal sizes and empty
// blocks.
func blocksOf(n int) []int {
	sizes := []int{3, 0, 5, 1, 4, 2, 0, 6}
	starts := []int{0}
	for k := 0; starts[len(starts)-1] < n; k++ {
		starts = append(starts, min(n, starts[len(starts)-1]+sizes[k%len(sizes)]))
	}
	return starts
}
