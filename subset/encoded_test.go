package subset_test

import (
	"math/rand/v2"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/subset"
)

// TestViewsKeepEncoded: every view the package makes of an Encoded container
// (of, a range, a shuffle, a split part, a fold with its gap, a partition, a
// view of a view) reads the source's AppendObs for its bytes and its Where
// for places, and passes the conformance checker's Encoded checks.
func TestViewsKeepEncoded(t *testing.T) {
	b := containertest.NewBlobs(40)
	rng := func() *rand.Rand { return rand.New(rand.NewPCG(3, 4)) }
	views := map[string]func() *subset.View[[]byte, [][]byte]{
		"Of":      func() *subset.View[[]byte, [][]byte] { return subset.Of(b, []int{7, 3, 3, 39, 0}) },
		"Range":   func() *subset.View[[]byte, [][]byte] { return subset.Range(b, 10, 25) },
		"Shuffle": func() *subset.View[[]byte, [][]byte] { return subset.Shuffle(b, rng()) },
		"of a view": func() *subset.View[[]byte, [][]byte] {
			return subset.Of(subset.Range(b, 5, 30), []int{24, 0, 11})
		},
		"Split": func() *subset.View[[]byte, [][]byte] {
			parts, err := subset.Split(b, rng(), 0.7)
			if err != nil {
				t.Fatal(err)
			}
			return parts[1]
		},
		"KFolds train": func() *subset.View[[]byte, [][]byte] {
			folds, err := subset.KFolds(b, nil, 4)
			if err != nil {
				t.Fatal(err)
			}
			train, _ := folds.Fold(1) // everything but a block: a view with a gap
			return train
		},
		"TimeSeriesFolds val": func() *subset.View[[]byte, [][]byte] {
			folds, err := subset.TimeSeriesFolds(b, 3, subset.TimeSeries{Gap: 2})
			if err != nil {
				t.Fatal(err)
			}
			_, val := folds.Fold(2)
			return val
		},
		"Partition": func() *subset.View[[]byte, [][]byte] {
			part, err := subset.Partition(b, rng(), index.Part{Index: 2, Parts: 3})
			if err != nil {
				t.Fatal(err)
			}
			return part
		},
	}
	for name, view := range views {
		t.Run(name, func(t *testing.T) {
			v := view()
			containertest.CheckPassesEncoded(t, v, b, v.Index)
			containertest.Run(t, v, containertest.SliceConfig[[]byte]())
		})
	}
}

// TestViewAppendObsNotBytes: a view of observations that are not bytes has
// the method (its type is generic) but no bytes to give.
func TestViewAppendObsNotBytes(t *testing.T) {
	v := subset.Range(container.FromSlice([]int{1, 2, 3}), 0, 2)
	if _, ok := any(v).(container.Encoded); ok {
		t.Fatal("a view of ints is a container.Encoded")
	}
	p := mustPanic(t, "AppendObs of a view of ints", func() { _, _ = v.AppendObs(nil, 1) })
	if _, ok := p.(*container.ArgError); !ok {
		t.Fatalf("AppendObs of a view of ints panicked with %v (%T), want a *container.ArgError", p, p)
	}
	if w := v.Where(1); w != "" {
		t.Errorf("Where(1) of a view of a Slice = %q, want \"\"", w)
	}
}
