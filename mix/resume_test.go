package mix_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/mix"
)

// TestResumeChangedWeights checks what the package comment says of a loop
// resumed over a mix rebuilt with other weights. A saved position records the
// number of observations (and, under eachobs.ShuffleWithin, the count of
// each source), not the weights: where the new weights change them, as they
// do under FirstExhausted and Resample, UnmarshalBinary refuses the position
// with container.ErrState naming the container (or ShuffleWithin's counts); where they do not, as under
// AllExhausted, the loop resumes at the same position of the new mix's order,
// which is not the old one, so some observations of the epoch are read twice
// and others not at all.
func TestResumeChangedWeights(t *testing.T) {
	a, b := tagged(0, 60), tagged(1, 30)
	const batch, first = 10, 3 // preempted after three batches
	// saved runs the first batches of a loop over m and returns the position
	// and the observations read.
	saved := func(m *mix.Mixed[int, []int], opts ...eachobs.Option) ([]byte, []int) {
		it := eachobs.NewLoader(m, batch, opts...).Iter()
		defer it.Close()
		var read []int
		for bt := range it.All() {
			read = append(read, bt.Data...)
			if len(read) == first*batch {
				break
			}
		}
		pos, err := it.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return pos, read
	}
	build := func(rule mix.Rule, w ...float64) *mix.Mixed[int, []int] {
		m, err := mix.New(rule, w, 1, a, b)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, rule := range []mix.Rule{mix.FirstExhausted, mix.Resample} {
		old, changed := build(rule, 1, 1), build(rule, 3, 1)
		for _, opts := range [][]eachobs.Option{nil, {eachobs.ShuffleWithin(5, old)}} {
			pos, _ := saved(old, opts...)
			if len(opts) > 0 {
				opts = []eachobs.Option{eachobs.ShuffleWithin(5, changed)}
			}
			it := eachobs.NewLoader(changed, batch, opts...).Iter()
			err := it.UnmarshalBinary(pos)
			it.Close()
			if want := map[bool]string{false: "observations", true: "ShuffleWithin"}[len(opts) > 0]; !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), want) {
				t.Errorf("%v, %d options: resuming over weights 3:1 a position saved over 1:1 (%d and %d observations): %v, want container.ErrState naming the observations or ShuffleWithin's counts", rule, len(opts), old.Nobs(), changed.Nobs(), err)
			}
		}
	}
	old, changed := build(mix.AllExhausted, 1, 1), build(mix.AllExhausted, 3, 1)
	if old.Nobs() != changed.Nobs() || !slices.Equal(old.Counts(), changed.Counts()) {
		t.Fatalf("AllExhausted mixes of other weights: %d observations %v and %d %v, want the same", old.Nobs(), old.Counts(), changed.Nobs(), changed.Counts())
	}
	for _, within := range []bool{false, true} {
		var opts, newOpts []eachobs.Option
		if within {
			opts, newOpts = []eachobs.Option{eachobs.ShuffleWithin(5, old)}, []eachobs.Option{eachobs.ShuffleWithin(5, changed)}
		}
		pos, read := saved(old, opts...)
		it := eachobs.NewLoader(changed, batch, newOpts...).Iter()
		if err := it.UnmarshalBinary(pos); err != nil {
			t.Fatalf("ShuffleWithin %v: resuming an AllExhausted mix with other weights: %v", within, err)
		}
		var rest []int
		for bt := range it.All() {
			if bt.Pos.Epoch > 0 {
				break
			}
			rest = append(rest, bt.Data...)
		}
		it.Close()
		// The rest is the new mix's epoch from the same position on.
		full := eachobs.NewLoader(changed, batch, newOpts...).Iter()
		var want []int
		for bt := range full.All() {
			if bt.Pos.Epoch > 0 {
				break
			}
			want = append(want, bt.Data...)
		}
		full.Close()
		if !slices.Equal(rest, want[first*batch:]) {
			t.Errorf("ShuffleWithin %v: resumed epoch %v, want the new mix's from position %d: %v", within, rest, first*batch, want[first*batch:])
		}
		// Read with the first part, some observations twice, some never.
		seen := map[int]int{}
		for _, v := range append(read, rest...) {
			seen[v]++
		}
		twice := 0
		for _, n := range seen {
			if n > 1 {
				twice++
			}
		}
		if len(read)+len(rest) != old.Nobs() || twice == 0 || len(seen) == old.Nobs() {
			t.Errorf("ShuffleWithin %v: %d observations read, %d distinct, %d twice: want %d read with some twice, as the comment says", within, len(read)+len(rest), len(seen), twice, old.Nobs())
		}
	}
}
