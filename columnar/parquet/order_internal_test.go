package parquet

import (
	"math/rand/v2"
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/columnar/internal/interop"
)

// TestLocalOrderDecodesOnce: an epoch in the local order with a cache of the
// window decodes each row group once; a full shuffle with the same cache
// decodes many more.
func TestLocalOrderDecodesOnce(t *testing.T) {
	f, err := Open(interop.Path("rs-snappy.parquet")) // 4 row groups of 256, 256, 256, 232 rows
	if err != nil {
		t.Fatal(err)
	}
	epoch := func(order []int, window int) int64 {
		x, err := Numbers[int64](f, []string{"id", "label"}, Cache(window))
		if err != nil {
			t.Fatal(err)
		}
		before := decodes.Load()
		var b *arraycontainer.Array[int64]
		for lo := 0; lo < len(order); lo += 32 {
			idx := order[lo:min(len(order), lo+32)]
			b = x.GetObsInto(b, idx)
			for k, i := range idx {
				if got := b.At(k, 0); got != int64(i) {
					t.Fatalf("row %d reads id %d", i, got)
				}
			}
		}
		return decodes.Load() - before
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for _, window := range []int{1, 2} {
		if n := epoch(columnar.LocalOrder(f.RowGroupStarts(), window, rng), window); n != int64(f.RowGroups()) {
			t.Errorf("local order, window %d: %d row groups decoded, want %d", window, n, f.RowGroups())
		}
	}
	if n := epoch(rng.Perm(f.Nobs()), 2); n < 10*int64(f.RowGroups()) {
		t.Errorf("full shuffle: %d row groups decoded; a cache of 2 of 4 should miss about every other row", n)
	}
}
