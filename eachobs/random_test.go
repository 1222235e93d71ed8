package eachobs_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

func TestRandomObs(t *testing.T) {
	c := tens(5)
	counts := make([]int, 5)
	k := 0
	for i, x := range must(eachobs.RandomObs(c, 5000, rand.New(rand.NewPCG(1, 1)))) {
		if x != 10*i {
			t.Fatalf("RandomObs yielded index %d with %d", i, x)
		}
		counts[i]++
		k++
	}
	if k != 5000 {
		t.Fatalf("RandomObs yielded %d observations, want 5000", k)
	}
	for i, n := range counts {
		if n < 850 || n > 1150 { // 1000 expected, sd about 28
			t.Errorf("observation %d drawn %d times of 5000, want about 1000", i, n)
		}
	}
	k = 0
	for range must(eachobs.RandomObs(c, eachobs.Forever, rand.New(rand.NewPCG(1, 1)))) {
		if k++; k == 20000 {
			break
		}
	}
	if k != 20000 {
		t.Errorf("endless RandomObs ended after %d", k)
	}
}

func TestRandomBatches(t *testing.T) {
	c := tens(50)
	var want []rec
	for _, par := range parallelism {
		rng := rand.New(rand.NewPCG(3, 3))
		got := collect(must(eachobs.RandomBatches(c, 7, 30, rng, parOpts(par.prefetch, par.workers)...)))
		checkData(t, "RandomBatches", 50, got)
		if len(got) != 30 {
			t.Fatalf("%d batches, want 30", len(got))
		}
		for _, r := range got {
			if len(r.Indices) != 7 || r.Real != 7 || r.Count != 30 {
				t.Fatalf("batch %+v: want 7 real observations of a count of 30", r)
			}
		}
		if want == nil {
			want = got
		} else if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("prefetch=%d workers=%d: sequence differs (-serial +got):\n%s", par.prefetch, par.workers, d)
		}
		// The rng was used only at the start of the pass.
		if v, w := rng.Uint64(), rand.New(rand.NewPCG(3, 3)); v != func() uint64 { w.Uint64(); w.Uint64(); return w.Uint64() }() {
			t.Fatalf("prefetch=%d workers=%d: rng advanced beyond the two seed draws", par.prefetch, par.workers)
		}
	}
	// Two passes of one iterator draw different batches.
	seq := must(eachobs.RandomBatches(c, 7, 3, rand.New(rand.NewPCG(3, 3))))
	if cmp.Equal(collect(seq), collect(seq)) {
		t.Error("two passes of RandomBatches drew the same batches")
	}
}

// TestArgumentPanics checks that every programmer error panics at the call that
// builds the loop, with a *container.ArgError naming the function, the argument
// and the value.
func TestArgumentPanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	tests := []struct {
		name, op, arg string
		value         any
		f             func()
	}{
		{"nil rng", "eachobs.RandomObs", "rng", (*rand.Rand)(nil), func() { eachobs.RandomObs(tens(3), 1, nil) }},
		{"count", "eachobs.RandomObs", "count", -2, func() { eachobs.RandomObs(tens(3), -2, rng) }},
		{"size", "eachobs.RandomBatches", "batch size", 0, func() { eachobs.RandomBatches(tens(3), 0, 1, rng) }},
		{"random option", "eachobs.RandomBatches", "option", "Shuffle", func() { eachobs.RandomBatches(tens(3), 1, 1, rng, eachobs.Shuffle(1)) }},
		{"random tail", "eachobs.RandomBatches", "option", "Tail", func() { eachobs.RandomBatches(tens(3), 1, 1, rng, eachobs.Tail(index.Drop)) }},
		{"Batches size", "eachobs.Batches", "batch size", -1, func() { eachobs.Batches(tens(3), -1) }},
		{"Batches option", "eachobs.Batches", "option", "nil", func() { eachobs.Batches(tens(3), 1, nil) }},
		{"loader size", "eachobs.NewLoader", "batch size", 0, func() { eachobs.NewLoader(tens(3), 0) }},
		{"nil option", "eachobs.NewLoader", "option", "nil", func() { eachobs.NewLoader(tens(3), 1, nil) }},
		{"Obs tail", "eachobs.Obs", "option", "Tail", func() { eachobs.Obs(tens(3), eachobs.Tail(index.Drop)) }},
		{"Obs owned", "eachobs.Obs", "option", "Owned", func() { eachobs.Obs(tens(3), eachobs.Owned()) }},
		{"tail", "eachobs.Tail", "tail", index.Tail(9), func() { eachobs.Tail(9) }},
		{"prefetch", "eachobs.Prefetch", "count", -1, func() { eachobs.Prefetch(-1) }},
		{"workers", "eachobs.Workers", "workers", 0, func() { eachobs.Workers(0) }},
		{"balanced rng", "eachobs.BalancedObs", "rng", (*rand.Rand)(nil), func() { eachobs.BalancedObs(labeled(3), 1, nil) }},
		{"balanced count", "eachobs.BalancedObs", "count", -3, func() { eachobs.BalancedObs(labeled(3), -3, rng) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := argPanic(tc.f)
			if err == nil {
				t.Fatal("no panic")
			}
			if err.Op != tc.op || err.Arg != tc.arg || err.Value != tc.value {
				t.Errorf("panic %+v, want Op %q Arg %q Value %v", err, tc.op, tc.arg, tc.value)
			}
			if !strings.HasPrefix(err.Error(), tc.op+": ") {
				t.Errorf("message %q does not name %s", err, tc.op)
			}
		})
	}
	// An epoch outside the loader's plan is an argument error too (see
	// TestLoaderHugeEpochs for the upper bound).
	if err := argPanic(func() { eachobs.NewLoader(tens(3), 1).Epoch(-1) }); err == nil || err.Arg != "epoch" {
		t.Errorf("Epoch(-1) panic %v, want a *container.ArgError for the epoch", err)
	}
}

// labeled returns tens(n) labeled with "a" and "b" in turn.
func labeled(n int) *tuples.Tuple2[container.Slice[int], container.Slice[string], int, []int, string, []string] {
	labels := make([]string, n)
	for i := range labels {
		labels[i] = string(rune('a' + i%2))
	}
	data, err := tuples.Zip2(tens(n), container.FromSlice(labels))
	if err != nil {
		panic(err)
	}
	return data
}

func TestBalancedObs(t *testing.T) {
	// 90 observations of class "a", 10 of "b": balanced draws see both equally.
	labels := make([]string, 100)
	for i := range labels {
		labels[i] = "a"
		if i%10 == 0 {
			labels[i] = "b"
		}
	}
	data, err := tuples.Zip2(tens(100), container.FromSlice(labels))
	if err != nil {
		t.Fatal(err)
	}
	seq, err := eachobs.BalancedObs(data, 4000, rand.New(rand.NewPCG(2, 2)))
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	k := 0
	for i, obs := range seq {
		if obs.X != 10*i || obs.Y != labels[i] {
			t.Fatalf("BalancedObs yielded index %d with %+v", i, obs)
		}
		count[obs.Y]++
		k++
	}
	if k != 4000 || count["b"] < 1800 || count["b"] > 2200 {
		t.Errorf("%d draws, %v by class; want 4000 draws, about 2000 of each", k, count)
	}
	// Through a view: the classes of a shuffled subset are those of its members.
	view := subset.Range(data, 0, 50)
	seq, err = eachobs.BalancedObs(view, 100, rand.New(rand.NewPCG(2, 2)))
	if err != nil {
		t.Fatal(err)
	}
	for i, obs := range seq {
		if obs != view.GetObs(i) {
			t.Fatalf("BalancedObs of a view yielded index %d with %+v, want %+v", i, obs, view.GetObs(i))
		}
	}
}

// TestEmptyContainer holds the random streams to the kit's one rule for empty
// containers: draws from an empty container are an error wrapping
// container.ErrEmpty, returned when the stream is made (RandomObs and
// RandomBatches panicked, BalancedObs returned the error); 0 draws are no error
// and yield nothing; and a loop over an empty container yields nothing.
func TestEmptyContainer(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, count := range []int{1, eachobs.Forever} {
		errs := map[string]error{}
		_, errs["RandomObs"] = eachobs.RandomObs(tens(0), count, rng)
		_, errs["RandomBatches"] = eachobs.RandomBatches(tens(0), 2, count, rng)
		_, errs["BalancedObs"] = eachobs.BalancedObs(labeled(0), count, rng)
		for op, err := range errs {
			if !errors.Is(err, container.ErrEmpty) || !strings.HasPrefix(err.Error(), "eachobs."+op+": ") {
				t.Errorf("%s of %d draws from an empty container: err = %v, want eachobs.%s: ... wrapping container.ErrEmpty", op, count, err, op)
			}
		}
	}
	n := 0
	for range must(eachobs.RandomObs(tens(0), 0, rng)) {
		n++
	}
	for range must(eachobs.RandomBatches(tens(0), 2, 0, rng)) {
		n++
	}
	for range must(eachobs.BalancedObs(labeled(0), 0, rng)) {
		n++
	}
	for range eachobs.Batches(tens(0), 2, eachobs.Shuffle(1)) {
		n++
	}
	if n != 0 {
		t.Errorf("0 draws and loops over an empty container yielded %d values, want none", n)
	}
}
