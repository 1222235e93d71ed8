package stream_test

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/stream"
)

func TestCache(t *testing.T) {
	reads := 0
	s := stream.Cache(counting(5, &reads))
	for range s.All() { // a pass stopped early stores nothing
		break
	}
	for pass := range 3 {
		got, err := read(t, s)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(seq(5), got); d != "" {
			t.Fatalf("pass %d mismatch (-want +got):\n%s", pass, d)
		}
	}
	if reads != 1+5 {
		t.Errorf("the source was read %d times, want 6 (1 in the stopped pass, 5 in the first full one)", reads)
	}
}

func TestCacheRetriesAfterError(t *testing.T) {
	calls := 0
	flaky := stream.Replay(func(yield func(int, error) bool) {
		calls++
		if calls == 1 {
			yield(0, errSource)
			return
		}
		for i := range 3 {
			if !yield(i, nil) {
				return
			}
		}
	})
	s := stream.Cache(flaky)
	if _, err := read(t, s); !errors.Is(err, errSource) {
		t.Fatalf("first pass error %v, want %v", err, errSource)
	}
	for range 2 {
		got, err := read(t, s)
		if err != nil || !cmp.Equal(got, seq(3)) {
			t.Fatalf("pass after an error = %v, %v; want [0 1 2]", got, err)
		}
	}
	if calls != 2 {
		t.Errorf("source ranged %d times, want 2", calls)
	}
}

func TestCacheConcurrent(t *testing.T) {
	var mu sync.Mutex
	reads := 0
	src := stream.Replay(func(yield func(int, error) bool) {
		for i := range 100 {
			mu.Lock()
			reads++
			mu.Unlock()
			if !yield(i, nil) {
				return
			}
		}
	})
	s := stream.Cache(src)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				got, err := stream.Collect(s)
				if err != nil || !cmp.Equal(got, seq(100)) {
					t.Errorf("concurrent pass = %d values, %v", len(got), err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if reads > 8*100 {
		t.Errorf("source read %d values for 8 goroutines, want at most 800", reads)
	}
}

// TestCacheEpochs: every pass of a Cache yields the values of its source's
// epoch 0, so a shuffle before it draws one order for all epochs of a Repeat,
// and one after it a new order per epoch, whether the pass reads or replays.
func TestCacheEpochs(t *testing.T) {
	before, err := read(t, stream.Repeat(stream.Cache(stream.ShuffleBuffer(ints(20), 8, 1)), 3))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(before[:20], before[20:40]) || !slices.Equal(before[:20], before[40:]) {
		t.Errorf("a shuffle before a Cache: epochs differ: %v", before)
	}
	after, err := read(t, stream.Repeat(stream.ShuffleBuffer(stream.Cache(ints(20)), 8, 1), 2))
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(after[:20], after[20:]) {
		t.Errorf("a shuffle after a Cache: both epochs in the order %v", after[:20])
	}
}

// TestCacheResume restores passes of a Cache: one saved in replay into a new
// process (an empty cache) fills the cache from its source, then goes on where
// it stood; one saved while reading its source into a full cache reads the
// source from the saved state and stores nothing.
func TestCacheResume(t *testing.T) {
	reads := 0
	mk := func() stream.Stream[int] { return stream.Cache(counting(10, &reads)) }
	first := mk()
	read(t, first) // fills the cache
	replaying := savedAfter(t, first, 4)
	reads = 0
	got, err := rest(restored(t, mk(), replaying))
	if err != nil || !slices.Equal(got, seq(10)[4:]) || reads != 10 {
		t.Errorf("a replaying state in a new process: %v, %v after %d reads; want 4..9 after reading the 10 values once", got, err, reads)
	}

	reading := savedAfter(t, mk(), 6) // a fresh cache: the pass reads its source
	reads = 0
	got, err = rest(restored(t, first, reading)) // first's cache is full
	if err != nil || !slices.Equal(got, seq(10)[6:]) || reads != 4 {
		t.Errorf("a reading state in a full cache: %v, %v after %d reads; want 6..9 read from the source", got, err, reads)
	}
	fresh := mk()
	reads = 0
	rest(restored(t, fresh, reading))
	got, err = read(t, fresh)
	if err != nil || !slices.Equal(got, seq(10)) || reads != 4+10 {
		t.Errorf("after a restored reading pass: %v, %v after %d reads; want the next pass to read and store all 10", got, err, reads)
	}

	short := stream.Cache(ints(3))
	err = short.Iter().UnmarshalBinary(savedAfter(t, first, 5))
	if !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), "stage 0 (cache): position 5 in a cache of 3 values") {
		t.Errorf("a replay state past a shorter cache: %v, want ErrState naming the position", err)
	}
	err = stream.Cache(failing(t, 3)).Iter().UnmarshalBinary(replaying)
	if !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), "filling the cache: source failed") {
		t.Errorf("a cache that cannot fill: %v, want ErrState naming the source's error", err)
	}
}
