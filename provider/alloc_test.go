package provider_test

import (
	"iter"
	"testing"

	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/provider"
)

// TestZeroAllocsPerBatch pins a provider's loop at zero allocations per batch
// after the first, as the eachobs loop it wraps: serial and with prefetch and
// workers, shuffled (an endless loop across epoch boundaries) and in order, with
// per-source constant padding, wrapped padding and the default.
func TestZeroAllocsPerBatch(t *testing.T) {
	data, label := sources(t, 23)     // 23 = 5*4 + 3: a padded batch every epoch
	big, bigLabel := sources(t, 2000) // in order: many batches in one epoch (values wrap in uint8)
	policies := []struct {
		name string
		opt  provider.Option
	}{
		{"keep", provider.Loop(eachobs.Tail(index.Keep))},
		{"pad", provider.Loop(eachobs.Tail(index.Pad))},
		{"pad-with", provider.PadSource("a", -1)},
		{"partition", provider.Loop(eachobs.Partition(index.Part{Index: 1, Parts: 2, Strided: true}), eachobs.Tail(index.Pad))},
	}
	for _, l := range loops {
		for _, pol := range policies {
			t.Run(l.name+"/"+pol.name+"/shuffled", func(t *testing.T) {
				p := must(provider.New(data, label, 4, append(l.opts, pol.opt, provider.Loop(eachobs.Shuffle(1)))...))
				it := p.Iter()
				defer it.Close()
				next := it.Next
				for range 20 { // the first batches allocate the buffers; cross an epoch
					next()
				}
				if a := testing.AllocsPerRun(200, func() { next() }); a != 0 {
					t.Errorf("%v allocations per batch, want 0", a)
				}
			})
			t.Run(l.name+"/"+pol.name+"/in-order", func(t *testing.T) {
				p := must(provider.New(big, bigLabel, 3, append(l.opts, pol.opt)...))
				for range p.Epoch(0) { // a first pass leaves its buffers for the next
				}
				next, stop := iter.Pull(p.Epoch(1))
				defer stop()
				next()
				if a := testing.AllocsPerRun(200, func() { next() }); a != 0 {
					t.Errorf("%v allocations per batch, want 0", a)
				}
			})
		}
	}
}

// TestSplitIntoNoAllocs pins device splitting at zero allocations per batch
// when the loop hands SplitInto its previous slices, across the padded last
// batch of an epoch.
func TestSplitIntoNoAllocs(t *testing.T) {
	data, label := sources(t, 23)
	p := must(provider.New(data, label, 4, provider.Loop(eachobs.Shuffle(1)), provider.PadWith(0)))
	it := p.Iter()
	defer it.Close()
	next := it.Next
	var devices []provider.Batch[float32, uint8]
	step := func() {
		b, _ := next()
		devices = provider.SplitInto(devices, b, 3)
	}
	for range 10 {
		step()
	}
	if a := testing.AllocsPerRun(200, step); a != 0 {
		t.Errorf("%v allocations per batch and split, want 0", a)
	}
}
