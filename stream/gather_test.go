package stream_test

import (
	"errors"
	"iter"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/stream"
)

// gatherCounter is a container that counts how it is read, to show that
// Gather goes through GetObsInto (the fast path) and never GetObs.
type gatherCounter struct {
	container.Slice[int]
	getObs, getObsInto *int
}

func (c gatherCounter) GetObs(i int) int { *c.getObs++; return c.Slice.GetObs(i) }
func (c gatherCounter) GetObsInto(dst []int, idx []int) []int {
	*c.getObsInto++
	return c.Slice.GetObsInto(dst, idx)
}

func TestGatherUsesGetObsInto(t *testing.T) {
	var obs, into int
	c := gatherCounter{container.FromSlice(seq(10)), &obs, &into}
	got, err := read(t, stream.Gather(c, inBatches(10, 4, index.Keep)))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([][]int{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}}, got); d != "" {
		t.Errorf("Gather mismatch (-want +got):\n%s", d)
	}
	for range stream.Gather(c, inBatches(10, 4, index.Drop)).All() {
	}
	if obs != 0 || into != 5 {
		t.Errorf("GetObs called %d times, GetObsInto %d times; want 0 and 5", obs, into)
	}
}

// TestGatherOwned checks that every batch is new memory the consumer keeps: a
// stage that holds batches (here Prefetch and the collected slice) sees each
// one intact.
func TestGatherOwned(t *testing.T) {
	c := container.FromSlice(seq(10))
	got, err := read(t, stream.Prefetch(stream.Gather(c, inBatches(10, 3, index.Keep)), 3))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([][]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9}}, got); d != "" {
		t.Fatalf("kept batches mismatch (-want +got):\n%s", d)
	}
	for i := range got {
		for j := range i {
			if &got[i][0] == &got[j][0] {
				t.Fatalf("batches %d and %d share memory", j, i)
			}
		}
	}
}

// endless yields the same index list forever.
func endless(idx []int) iter.Seq[[]int] {
	return func(yield func([]int) bool) {
		for yield(idx) {
		}
	}
}

// TestGatherAllocs pins the cost of an owned batch: the batch's memory, one
// allocation for a slice container, and nothing else per step.
func TestGatherAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	it := stream.Gather(container.FromSlice(seq(1000)), endless([]int{5, 900, 3, 3, 17})).Iter()
	defer it.Close()
	it.Next()
	if a := testing.AllocsPerRun(100, func() { it.Next() }); a != 1 {
		t.Errorf("Gather over a slice: %v allocations per batch, want 1 (the batch)", a)
	}
	data := make([]float32, 1000*8)
	x, err := arraycontainer.New(data, []int{1000, 8}, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	idx := []int{5, 900, 3, 3, 17}
	itX := stream.Gather(x, endless(idx)).Iter()
	defer itX.Close()
	itX.Next()
	want := testing.AllocsPerRun(100, func() { container.GetBatch(x, idx) })
	if a := testing.AllocsPerRun(100, func() { itX.Next() }); a != want {
		t.Errorf("Gather over an array: %v allocations per batch, want %v (those of a fresh batch)", a, want)
	}
}

// TestEpochs checks that every pass of a data stream over a scheme drawn from
// a shared *rand.Rand sees each observation exactly once, in a new order, and
// that equal seeds repeat. Over the identity container each batch must be the
// scheme's index list itself: a twin scheme on an equal seed gives the lists
// the stream should have gathered.
func TestEpochs(t *testing.T) {
	c := container.FromSlice(seq(23))
	s := stream.Gather(c, shuffledBatches(23, 5, seeded(1)))
	twin := shuffledBatches(23, 5, seeded(1))
	var passes [][]int
	for pass := range 3 {
		var all []int
		next, stop := iter.Pull(twin)
		for b, err := range s.All() {
			if err != nil {
				t.Fatal(err)
			}
			want, ok := next()
			if !ok || !slices.Equal(b, want) {
				t.Fatalf("pass %d: batch %v, want the scheme's list %v", pass, b, want)
			}
			all = append(all, b...)
		}
		if _, more := next(); more {
			t.Fatalf("pass %d ended before its scheme", pass)
		}
		stop()
		if !isPermutation(all, 23) {
			t.Fatalf("pass %v is not a permutation of 0..22", all)
		}
		passes = append(passes, all)
	}
	if slices.Equal(passes[0], passes[1]) {
		t.Error("two passes gave the same order")
	}
	ex, err := read(t, stream.Examples(c, shuffled(23, seeded(7))))
	if want := slices.Collect(shuffled(23, seeded(7))); err != nil || !slices.Equal(ex, want) {
		t.Errorf("Examples over a shuffled scheme = %v, %v; want the scheme's indices %v", ex, err, want)
	}
	again, _ := read(t, stream.Examples(c, shuffled(23, seeded(7))))
	if !slices.Equal(ex, again) {
		t.Error("Examples with equal seeds differ")
	}
}

// TestSchemeResume restores data streams over a cipher's order, which yields
// the same lists on every range, at every step: the scheme is ranged again,
// the requests before the saved position skipped without reading the
// container. A scheme that ends before the saved position is refused.
func TestSchemeResume(t *testing.T) {
	var obs, into int
	c := gatherCounter{container.FromSlice(seq(50)), &obs, &into}
	cipher := index.NewCipher(50, 9, 0)
	gather := stream.Gather(c, cipher.Batches(8, index.Keep))
	examples := stream.Examples(c, func(yield func(int) bool) {
		for i := range 50 {
			if !yield(cipher.At(i)) {
				return
			}
		}
	})
	wantG, _ := read(t, gather)
	wantE, _ := read(t, examples)
	for k := 0; k <= len(wantG); k++ {
		st := savedAfter(t, gather, k)
		into = 0
		got, err := rest(restored(t, gather, st))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(wantG[k:], got, cmpEmptyBatches); d != "" {
			t.Errorf("Gather restored after %d batches mismatch (-want +got):\n%s", k, d)
		}
		if into != len(wantG)-k {
			t.Errorf("Gather restored after %d batches read %d batches of the container, want %d", k, into, len(wantG)-k)
		}
	}
	for _, k := range []int{0, 1, 25, 50} {
		st := savedAfter(t, examples, k)
		obs = 0
		got, err := rest(restored(t, examples, st))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(wantE[k:], got, cmpEmpty); d != "" || obs != 50-k {
			t.Errorf("Examples restored after %d: %d reads, mismatch (-want +got):\n%s", k, obs, d)
		}
	}
	short := stream.Gather(c, inBatches(10, 8, index.Keep))
	err := short.Iter().UnmarshalBinary(savedAfter(t, gather, 4))
	if !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), "stage 0 (gather): the scheme ended after 2 requests; the state is after 4") {
		t.Errorf("a shorter scheme: %v, want ErrState naming the counts", err)
	}
	err = examples.Iter().UnmarshalBinary(savedAfter(t, gather, 4))
	if !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), "stage 0 (examples): the state holds a gather here") {
		t.Errorf("a Gather state in Examples: %v, want ErrState naming both", err)
	}
}

var cmpEmptyBatches = cmp.Comparer(func(a, b [][]int) bool { return slices.EqualFunc(a, b, slices.Equal) })

// TestManyStreamsOneDataset reads one array from many streams at once, each
// with its own scheme: the container is stateless, the streams hold the state.
func TestManyStreamsOneDataset(t *testing.T) {
	const n, feat = 500, 3
	data := make([]float64, n*feat)
	for i := range data {
		data[i] = float64(i / feat)
	}
	x, err := arraycontainer.New(data, []int{n, feat}, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := stream.Gather(x, shuffledBatches(n, 1+g, rand.New(rand.NewPCG(uint64(g), 1))))
			for range 3 {
				seen := make([]bool, n)
				for b, err := range s.All() {
					if err != nil {
						t.Error(err)
						return
					}
					for j := range b.Nobs() {
						o := b.GetObs(j)
						id := int(o.At(0))
						if seen[id] || o.At(1) != float64(id) || o.At(2) != float64(id) {
							t.Errorf("stream %d: observation %d repeated or torn: %v", g, id, o)
							return
						}
						seen[id] = true
					}
				}
				if slices.Contains(seen, false) {
					t.Errorf("stream %d: a pass missed observations", g)
				}
			}
		}()
	}
	wg.Wait()
}

func TestContainerPanics(t *testing.T) {
	c := container.FromSlice([]int{1})
	wantPanic(t, "stream.Examples", "example scheme", "nil", func() { stream.Examples(c, nil) })
	wantPanic(t, "stream.Examples", "container", "nil", func() { stream.Examples[int](nil, sequential(1)) })
	wantPanic(t, "stream.Gather", "container", "nil", func() { stream.Gather[int, []int](nil, inBatches(1, 1, index.Keep)) })
	wantPanic(t, "stream.Gather", "batch scheme", "nil", func() { stream.Gather(c, nil) })
}
