package provider_test

import (
	"iter"
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/provider"
	"github.com/obskit/obskit/tuples"
)

type (
	floatGroup = tuples.Named[*arraycontainer.Array[float32], *arraycontainer.Array[float32], *arraycontainer.Array[float32]]
	byteGroup  = tuples.Named[*arraycontainer.Array[uint8], *arraycontainer.Array[uint8], *arraycontainer.Array[uint8]]
)

// must returns v, and panics (failing the test) on an error.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// numbered returns a row-major array of shape whose element k holds base+k.
func numbered[E arraycontainer.Number](t testing.TB, base int, shape []int, dim obsdim.Dim) *arraycontainer.Array[E] {
	t.Helper()
	n := 1
	for _, s := range shape {
		n *= s
	}
	data := make([]E, n)
	for k := range data {
		data[k] = E(base + k)
	}
	return must(arraycontainer.New(data, shape, dim))
}

// sources returns the groups of the property tests over n observations:
// data "a" (3 features per observation, observation-first) and "b" (2 features,
// observation-last: the batch is the last axis); labels "y" (one value) and "w"
// (2 values per observation).
func sources(t testing.TB, n int) (*floatGroup, *byteGroup) {
	t.Helper()
	a := numbered[float32](t, 0, []int{n, 3}, obsdim.First)
	b := numbered[float32](t, 1000, []int{2, n}, obsdim.Last)
	y := numbered[uint8](t, 0, []int{n}, obsdim.First)
	w := numbered[uint8](t, 100, []int{n, 2}, obsdim.First)
	data := must(tuples.NewNamed([]string{"a", "b"}, a, b))
	label := must(tuples.NewNamed([]string{"y", "w"}, y, w))
	return data, label
}

// tenByFour returns the groups of the scenario: "data", 10 observations
// of 4 features (observation i holds 10i, 10i+1, 10i+2, 10i+3), and "label", 10
// values (observation i holds i).
func tenByFour() (*floatGroup, *tuples.Named[*arraycontainer.Array[int32], *arraycontainer.Array[int32], *arraycontainer.Array[int32]]) {
	xs, ys := tenByFourData()
	x := must(arraycontainer.New(xs, []int{10, 4}, obsdim.First))
	y := must(arraycontainer.New(ys, []int{10}, obsdim.First))
	return must(tuples.NewNamed([]string{"data"}, x)), must(tuples.NewNamed([]string{"label"}, y))
}

// resume returns the loop of p from pos: an iterator of p restored to pos's
// encoding, ranged to its end (or the break) and closed.
func resume[D, L arraycontainer.Number](p *provider.Provider[D, L], pos eachobs.Position) (iter.Seq[provider.Batch[D, L]], error) {
	data, err := pos.MarshalBinary()
	if err != nil {
		return nil, err
	}
	it := p.Iter()
	if err := it.UnmarshalBinary(data); err != nil {
		return nil, err
	}
	return func(yield func(provider.Batch[D, L]) bool) {
		defer it.Close()
		for b := range it.All() {
			if !yield(b) {
				return
			}
		}
	}, nil
}
