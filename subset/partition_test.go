package subset_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/subset"
)

var partTails = []index.Tail{index.Keep, index.Drop, index.Pad}

func TestPartitionErrors(t *testing.T) {
	for _, p := range []index.Part{{Index: 0, Parts: 0}, {Index: 3, Parts: 3}, {Index: -1, Parts: 2}, {Index: 0, Parts: 2, Tail: index.RollOver}, {Index: 0, Parts: 2, Tail: 7}} {
		_, err := subset.Partition(floats(5), nil, p)
		wantErr(t, fmt.Sprintf("Partition(%+v)", p), err, index.ErrPart, "index.Part")
	}
}

// TestPartitionProperty checks on random sizes that every part of a container,
// shuffled or not, is its index.Part's positions mapped through the shuffle's
// permutation (index.Part is checked against a naive reference in package
// index), for every tail, contiguous and strided; and that Keep parts together
// hold every observation once.
func TestPartitionProperty(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 31))
		n, parts := rng.IntN(100), 1+rng.IntN(8)
		shuffled := seed%2 == 1
		perm := iota(n)
		if shuffled {
			perm = rand.New(rand.NewPCG(seed, 32)).Perm(n)
		}
		for _, strided := range []bool{false, true} {
			for _, tail := range partTails {
				seen := make([]int, n)
				for k := range parts {
					part := index.Part{Index: k, Parts: parts, Strided: strided, Tail: tail}
					var prng *rand.Rand
					if shuffled {
						prng = rand.New(rand.NewPCG(seed, 32))
					}
					v, err := subset.Partition(floats(n), prng, part)
					if err != nil {
						t.Fatal(err)
					}
					var want []int
					for _, q := range part.Positions(n) {
						want = append(want, perm[q])
					}
					if d := cmp.Diff(want, v.Indices(), cmpopts.EquateEmpty()); d != "" {
						t.Fatalf("Partition(%d, %+v) mismatch (-reference +got):\n%s", n, part, d)
					}
					for _, i := range v.Indices() {
						seen[i]++
					}
				}
				if tail != index.Keep {
					continue
				}
				for i, c := range seen {
					if c != 1 {
						t.Fatalf("n=%d parts=%d strided=%v keep: index %d is in %d parts", n, parts, strided, i, c)
					}
				}
			}
		}
	}
}

func TestPartitionShuffled(t *testing.T) {
	perm := rand.New(rand.NewPCG(8, 8)).Perm(10)
	v, err := subset.Partition(floats(10), rand.New(rand.NewPCG(8, 8)), index.Part{Index: 1, Parts: 3, Strided: true, Tail: index.Pad})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{perm[1], perm[4], perm[7], perm[0]}, v.Indices()); d != "" {
		t.Errorf("shuffled strided padded part mismatch (-want +got):\n%s", d)
	}
	containertest.Run(t, v, containertest.SliceConfig[float64]())
}

// TestPartitionOfView checks that a part of a view (a split of a shuffle)
// indexes straight into the original data.
func TestPartitionOfView(t *testing.T) {
	src := floats(20)
	parts, err := subset.Split(subset.Shuffle(src, rand.New(rand.NewPCG(2, 2))), nil, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	train := parts[0]
	for _, p := range []index.Part{{Index: 1, Parts: 3}, {Index: 2, Parts: 3, Strided: true, Tail: index.Pad}} {
		v, err := subset.Partition(train, nil, p)
		if err != nil {
			t.Fatal(err)
		}
		var want []int
		for _, q := range p.Positions(train.Nobs()) {
			want = append(want, train.Index(q))
		}
		if d := cmp.Diff(want, v.Indices()); d != "" {
			t.Errorf("Partition(view, %+v) mismatch (-want +got):\n%s", p, d)
		}
		if _, ok := v.Source().(container.Slice[float64]); !ok {
			t.Errorf("Partition of a view: Source() is %T, want the original container.Slice", v.Source())
		}
	}
}
