package shard_test

import (
	"errors"
	"iter"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/shard"
)

// epochKeys reads an epoch of set in eachobs.ShuffleBlocks(seed, window)
// with workers and returns each sample's key and fields' bytes, in order.
func epochKeys(t *testing.T, set *shard.Set, seed uint64, window, workers int) []string {
	t.Helper()
	var out []string
	for b := range eachobs.Batches(set, 7, eachobs.ShuffleBlocks(seed, window), eachobs.Workers(workers)) {
		for _, s := range b.Data {
			var sb strings.Builder
			sb.WriteString(s.Key)
			for _, f := range s.Fields {
				sb.WriteString("|" + f.Name + "=")
				sb.Write(f.Data)
			}
			out = append(out, sb.String())
		}
	}
	return out
}

// TestPrefetch: a loop reads the same samples, in the same order, with a
// prefetch that follows its order (index.Upcoming), with one that lists the
// shards in another order, twice over or only some of them, and without
// one; with one or two workers; for every format; epoch after epoch.
func TestPrefetch(t *testing.T) {
	for _, format := range []shard.Format{shard.Tar, shard.RecordIO, shard.Npy} {
		t.Run(format.String(), func(t *testing.T) {
			dir := t.TempDir()
			m := packed(t, dir, format)
			if len(m.Shards) < 4 {
				t.Fatalf("%d shards", len(m.Shards))
			}
			const seed, window = 9, 2
			plain, err := shard.Open(shard.Dir(dir), "m.json")
			if err != nil {
				t.Fatal(err)
			}
			defer plain.Close()
			want := epochKeys(t, plain, seed, window, 1)
			set, err := shard.Open(shard.Dir(dir), "m.json", shard.MaxOpen(3))
			if err != nil {
				t.Fatal(err)
			}
			defer set.Close()
			starts := set.BlockStarts()
			order := index.NewBlocksAt(starts, window, seed, 0)
			reversed := slices.Backward(slices.Collect(index.Upcoming(order.At, starts, 0, 1)))
			lists := map[string]iter.Seq[int]{
				"the loop's order": index.Upcoming(order.At, starts, 0, 1),
				"reversed":         func(yield func(int) bool) { reversed(func(_, k int) bool { return yield(k) }) },
				"twice over": func(yield func(int) bool) {
					for range 2 {
						for k := range index.Upcoming(order.At, starts, 0, 1) {
							if !yield(k) {
								return
							}
						}
					}
				},
				"one shard": slices.Values([]int{1}),
			}
			for name, blocks := range lists {
				for _, workers := range []int{1, 2} {
					p := set.Prefetch(blocks, 2)
					got := epochKeys(t, set, seed, window, workers)
					p.Stop()
					if !slices.Equal(got, want) {
						t.Fatalf("%s, %d workers: the epoch differs from one without a prefetch", name, workers)
					}
				}
			}
		})
	}
}

// TestPrefetchAhead: a prefetch reads its shards whole ahead of the reads,
// at most depth places past the furthest shard the reads have reached, then
// waits: before any read, the shards of places 0 and 1 at depth 2; after a
// read of place i, those of places up to i+2. Once it is through, an epoch
// reads nothing more from the shard files. Closing the set stops it.
func TestPrefetchAhead(t *testing.T) {
	dir := t.TempDir()
	m := packed(t, dir, shard.Tar)
	n := len(m.Shards)
	store := &readCounting{Store: shard.Dir(dir), reads: map[string]int{}}
	set, err := shard.Open(store, "m.json")
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	// reads counts the reads of the files of shards of more than min samples.
	reads := func(min int) int {
		store.mu.Lock()
		defer store.mu.Unlock()
		r := 0
		for _, sh := range m.Shards {
			if sh.Samples > min {
				r += store.reads[sh.Files[0].Name]
			}
		}
		return r
	}
	shardReads := func() int { return reads(0) }
	settle := func(want int) int {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for shardReads() < want && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(20 * time.Millisecond) // and nothing more
		return shardReads()
	}
	const depth = 2
	order := slices.Collect(func(yield func(int) bool) {
		for k := n - 1; k >= 0; k-- {
			yield(k)
		}
	})
	p := set.Prefetch(slices.Values(order), depth)
	// No read yet: places 0 and 1 (the reads' place is -1).
	if got := settle(depth); got != depth {
		t.Fatalf("before any read the prefetch read %d shards whole, want %d", got, depth)
	}
	// Each read of a place lets it one place further.
	var s shard.Sample
	for i, k := range order {
		if err := set.ReadSample(&s, set.BlockStarts()[k]); err != nil {
			t.Fatal(err)
		}
		if want := min(i+1+depth, n); settle(want) != want {
			t.Fatalf("after a read of place %d the prefetch read %d shards whole, want %d", i, shardReads(), want)
		}
	}
	// A shard whose every sample was read is let go (a shard of one sample,
	// here), which its next reads read again.
	before := reads(1)
	for i := range set.Nobs() {
		if err := set.ReadSample(&s, i); err != nil {
			t.Fatal(err)
		}
	}
	if got := reads(1) - before; got != 0 {
		t.Errorf("an epoch after the prefetch read the shard files %d times, want 0", got)
	}
	p.Stop()
	p.Stop()

	// Close stops a prefetch that waits.
	p = set.Prefetch(slices.Values(order), 1)
	if err := set.Close(); err != nil {
		t.Fatal(err)
	}
	p.Stop()
}

// TestPrefetchCorrupt: a member damaged on disk fails its CRC-32C in the
// prefetch, which reads the shard whole but leaves its checks to the reads:
// once the prefetch is through, the sample's read, from memory (the shard
// file is not read again), reports it as without a prefetch, three times, and
// the next sample reads.
func TestPrefetchCorrupt(t *testing.T) {
	for _, format := range []shard.Format{shard.Tar, shard.Npy} {
		dir := t.TempDir()
		m := packed(t, dir, format)
		i := damage(t, dir, m, format)
		name := m.Shards[1].Files[0].Name
		store := &readCounting{Store: shard.Dir(dir), reads: map[string]int{}}
		set, err := shard.Open(store, "m.json")
		if err != nil {
			t.Fatal(err)
		}
		fileReads := func() int {
			store.mu.Lock()
			defer store.mu.Unlock()
			return store.reads[name]
		}
		p := set.Prefetch(slices.Values([]int{1}), 4)
		for deadline := time.Now().Add(10 * time.Second); fileReads() == 0 && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		}
		p.Stop() // waits for the shard to be held whole
		if fileReads() != 1 {
			t.Fatalf("%s: the prefetch read the shard file %d times, want 1", format, fileReads())
		}
		var s shard.Sample
		for range 3 {
			if err := set.ReadSample(&s, i); !errors.Is(err, shard.ErrCorrupt) || !strings.Contains(err.Error(), name) {
				t.Errorf("%s: reading the damaged sample: %v, want ErrCorrupt naming the shard", format, err)
			}
			if err := set.ReadSample(&s, i+1); err != nil {
				t.Errorf("%s: the next sample: %v", format, err)
			}
		}
		if fileReads() != 1 {
			t.Errorf("%s: the reads read the shard file %d times more, want 0 (from memory)", format, fileReads()-1)
		}
		set.Close()
	}
}

// TestPrefetchPanics: a block outside the set and a panic in the list end
// the prefetch; the next read raises it as a *container.PanicError (once),
// or Stop, or Close returns it; a depth below 1 is refused.
func TestPrefetchPanics(t *testing.T) {
	dir := t.TempDir()
	packed(t, dir, shard.Tar)
	set, _ := shard.Open(shard.Dir(dir), "m.json")
	defer set.Close()
	n := len(set.Manifest().Shards)
	boom := errors.New("boom")
	raised := func(f func()) *container.PanicError {
		v := recoverValue(f)
		pe, _ := v.(*container.PanicError)
		if v != nil && pe == nil {
			t.Fatalf("panic %v (%T), want a *container.PanicError", v, v)
		}
		return pe
	}
	var s shard.Sample
	for _, c := range []struct {
		name   string
		blocks iter.Seq[int]
		check  func(*container.PanicError) bool
	}{
		{"a block outside", slices.Values([]int{n}), func(pe *container.PanicError) bool {
			var ie *container.IndexError
			return errors.As(pe, &ie) && ie.Index == n && ie.Nobs == n
		}},
		{"a panic in the list", func(yield func(int) bool) { panic(boom) }, func(pe *container.PanicError) bool { return errors.Is(pe, boom) }},
	} {
		p := set.Prefetch(c.blocks, 1)
		// The first pull panics; a read raises it once the goroutine ran.
		var pe *container.PanicError
		for deadline := time.Now().Add(10 * time.Second); pe == nil && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			pe = raised(func() { set.ReadSample(&s, 0) })
		}
		if pe == nil || pe.Op != "shard.Set.Prefetch" || !c.check(pe) {
			t.Errorf("%s: the next read raised %v", c.name, pe)
		}
		if pe := raised(func() { set.ReadSample(&s, 0) }); pe != nil {
			t.Errorf("%s: raised again: %v", c.name, pe)
		}
		if pe := raised(p.Stop); pe != nil {
			t.Errorf("%s: Stop raised it again: %v", c.name, pe)
		}
		// Unraised: Stop raises it (the first pull comes before any look at
		// the stop).
		p = set.Prefetch(c.blocks, 1)
		if pe := raised(p.Stop); pe == nil || !c.check(pe) {
			t.Errorf("%s: Stop raised %v", c.name, pe)
		}
	}
	// Unraised at Close: Close returns it.
	other, _ := shard.Open(shard.Dir(dir), "m.json")
	other.Prefetch(func(yield func(int) bool) { panic(boom) }, 1)
	if err := other.Close(); !errors.Is(err, boom) {
		t.Errorf("Close: %v, want the prefetch's panic", err)
	}
	var ae *container.ArgError
	if err, _ := recoverValue(func() { set.Prefetch(slices.Values([]int{0}), 0) }).(error); !errors.As(err, &ae) || ae.Arg != "depth" {
		t.Errorf("depth 0: %v", err)
	}
}

// recoverValue returns what f panics with, or nil.
func recoverValue(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}
