package eachobs_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/tuples"
	"go.uber.org/goleak"
)

// slow is a container of tens whose gather takes d.
type slow struct {
	container.Slice[int]
	d time.Duration
}

func (s slow) GetObsInto(dst []int, idx []int) []int {
	time.Sleep(s.d)
	return s.Slice.GetObsInto(dst, idx)
}

func TestMeasure(t *testing.T) {
	const gather = 4 * time.Millisecond
	c := slow{tens(40), gather}
	// Serial: the body waits for every gather.
	var serial eachobs.Stats
	for range eachobs.Batches(c, 8, eachobs.Measure(&serial)) {
	}
	if serial.Passes != 1 || serial.Batches != 5 || serial.Bytes != 40*8 {
		t.Errorf("serial: %+v, want 1 pass, 5 batches, 320 bytes", serial)
	}
	if serial.Busy < 5*gather || serial.Wait < 5*gather || serial.FirstBatch < gather {
		t.Errorf("serial: %+v, want Busy and Wait at least 5 gathers, FirstBatch at least one", serial)
	}
	// Prefetching behind a body slower than the gather: the body hardly waits.
	var ahead eachobs.Stats
	for range eachobs.Batches(c, 8, eachobs.Prefetch(2), eachobs.Measure(&ahead)) {
		time.Sleep(4 * gather)
	}
	if ahead.Busy < 5*gather || ahead.Wait > ahead.Busy/2 {
		t.Errorf("prefetch behind a slow body: %+v, want Wait under half of Busy", ahead)
	}
	// Bytes through a tuple of an array and labels; passes add up.
	x, err := arraycontainer.Zeros[float32]([]int{30, 5}, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	pair, err := tuples.Zip2(x, container.FromSlice(iota(30)))
	if err != nil {
		t.Fatal(err)
	}
	var s eachobs.Stats
	seq := eachobs.Batches(pair, 7, eachobs.Workers(2), eachobs.Measure(&s))
	for range 2 {
		for range seq {
		}
	}
	if want := int64(2 * 30 * (5*4 + 8)); s.Passes != 2 || s.Batches != 10 || s.Bytes != want {
		t.Errorf("two passes over (X, y): %+v, want 2 passes, 10 batches, %d bytes", s, want)
	}
	// Obs and RandomBatches measure too.
	var o, r eachobs.Stats
	for range eachobs.Obs(tens(6), eachobs.Measure(&o)) {
	}
	rb, err := eachobs.RandomBatches(tens(6), 2, 3, rand.New(rand.NewPCG(1, 1)), eachobs.Measure(&r))
	if err != nil {
		t.Fatal(err)
	}
	for range rb {
	}
	if o.Batches != 6 || o.Bytes != 6*8 {
		t.Errorf("Obs: %+v, want 6 observations of 8 bytes", o)
	}
	if r.Batches != 3 || r.Bytes != 3*2*8 {
		t.Errorf("RandomBatches: %+v, want 3 batches of 16 bytes", r)
	}
}

func TestWarm(t *testing.T) {
	before := goleak.IgnoreCurrent()
	const gather = 20 * time.Millisecond
	c := slow{tens(30), gather}
	for _, opts := range [][]eachobs.Option{nil, {eachobs.Prefetch(2)}, {eachobs.Workers(3)}} {
		l := eachobs.NewLoader(c, 4, append(opts, eachobs.Shuffle(1))...)
		want := take(mustResume(t, l, start(l)), 12)

		var cold, warm eachobs.Stats
		lc := eachobs.NewLoader(c, 4, append(opts, eachobs.Shuffle(1), eachobs.Measure(&cold))...)
		take(mustResume(t, lc, start(lc)), 1)
		lw := eachobs.NewLoader(c, 4, append(opts, eachobs.Shuffle(1), eachobs.Measure(&warm))...)
		it := lw.Iter()
		it.Warm()
		time.Sleep(5 * gather) // the caller builds a model meanwhile
		got := take(it.All(), 12)
		it.Close()
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%v: Warm yields other batches than a cold iterator (-cold +warm):\n%s", opts, d)
		}
		if cold.FirstBatch < gather || warm.FirstBatch > gather/2 {
			t.Errorf("%v: first batch after %v cold, %v warm; want at least one gather cold, under half warm", opts, cold.FirstBatch, warm.FirstBatch)
		}
		if len(take(it.All(), 1)) != 0 {
			t.Errorf("%v: a closed iterator yielded", opts)
		}
		// Closed without a pull: no goroutine left, and the loader runs on.
		it = l.Iter()
		it.Warm()
		it.Warm()
		it.Close()
		it.Close()
		goleak.VerifyNone(t, before)
		if d := cmp.Diff(want[:3], take(mustResume(t, l, start(l)), 3)); d != "" {
			t.Fatalf("%v: the loader after a closed warm iterator (-want +got):\n%s", opts, d)
		}
	}
}

func mustResume(t *testing.T, l *eachobs.Loader[[]int], pos eachobs.Position) func(func(eachobs.Batch[[]int]) bool) {
	t.Helper()
	seq, err := resume(l, pos)
	if err != nil {
		t.Fatal(err)
	}
	return seq
}
