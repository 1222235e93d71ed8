package mix_test

import (
	"fmt"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/mix"
	"github.com/obskit/obskit/subset"
)

func ExampleNew() {
	web := container.Slice[string]{"w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7"}
	books := container.Slice[string]{"b0", "b1", "b2"}
	for _, rule := range []mix.Rule{mix.FirstExhausted, mix.AllExhausted, mix.Resample} {
		m, err := mix.New(rule, []float64{2, 1}, 1, web, books)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(rule, m.Nobs(), m.Counts(), container.Collect[string](m))
	}
	// Output:
	// first-exhausted 8 [5 3] [w0 b0 w1 w2 b1 w3 w4 b2]
	// all-exhausted 11 [8 3] [w0 b0 w1 w2 b1 w3 w4 b2 w5 w6 w7]
	// resample 12 [8 4] [w0 b0 w1 w2 b1 w3 w4 b2 w5 w6 b0 w7]
}

func ExampleNew_emptySource() {
	a := container.Slice[int]{1, 2}
	empty := container.Slice[int]{}
	_, err := mix.New(mix.FirstExhausted, []float64{1, 1}, 0, a, empty)
	fmt.Println(err)
	m, err := mix.New(mix.AllExhausted, []float64{1, 1}, 0, a, empty)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(container.Collect[int](m))
	// Output:
	// mix.New: source 1 holds no observation, which a first-exhausted mix cannot take (AllExhausted leaves it out): no observations
	// [1 2]
}

// A mix is a container: a loop over it resumes from a saved position like a loop
// over any container, since observation i of the mix is a function of i.
func ExampleViews() {
	data := container.Slice[string]{"a0", "a1", "a2", "a3", "a4", "a5", "b0", "b1", "b2"}
	m, err := mix.Views(mix.AllExhausted, []float64{2, 1}, 0,
		container.IndexView[string, []string](subset.Range(data, 0, 6)), subset.Range(data, 6, 9))
	if err != nil {
		fmt.Println(err)
		return
	}
	loader := eachobs.NewLoader(m, 3)
	it := loader.Iter()
	var saved []byte
	for b := range it.All() {
		fmt.Println(b.Data)
		saved, _ = it.MarshalBinary()
		break // preempted after the first batch
	}
	it.Close()
	rest := loader.Iter()
	defer rest.Close()
	if err := rest.UnmarshalBinary(saved); err != nil {
		fmt.Println(err)
		return
	}
	for b := range rest.All() {
		if b.Pos.Epoch > 0 {
			break
		}
		fmt.Println(b.Data)
	}
	// Output:
	// [a0 b0 a1]
	// [a2 b1 a3]
	// [a4 b2 a5]
}

// A first-exhausted mix reads its larger source from the start; ShuffleSources
// reads each source in a random order of the seed's, so another seed takes
// another part of web. The schedule (which positions hold which source) is
// unchanged.
func ExampleMixed_ShuffleSources() {
	web := container.Slice[string]{"w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7"}
	books := container.Slice[string]{"b0", "b1", "b2"}
	m, err := mix.New(mix.FirstExhausted, []float64{1, 1}, 1, web, books)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(container.Collect[string](m))
	for seed := range uint64(2) {
		fmt.Println(container.Collect[string](m.ShuffleSources(seed)))
	}
	// Output:
	// [b0 w0 b1 w1 b2]
	// [b2 w4 b0 w3 b1]
	// [b2 w4 b1 w7 b0]
}
