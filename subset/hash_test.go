package subset_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/pypeer"
	"github.com/obskit/obskit/subset"
)

// TestHashVectors checks the test vectors of subset.Hash's documentation: the
// key of a salt, the hash of an id and its part at 0.8, 0.1, 0.1. The values
// were computed independently with OpenSSL 3 ("openssl mac ... SIPHASH", which
// prints the 8 bytes of a hash little-endian).
func TestHashVectors(t *testing.T) {
	tests := []struct {
		salt   string
		k0, k1 uint64
		ids    []string
		sums   []uint64
		parts  []int
	}{
		{"", 0x51c4b8b93610cdcf, 0xa728592eae0a54a5,
			[]string{"", "a", "patient-0001", "patient-0002", "patient-0006", "patient-0007", "2026-01-17/shard-00042.tar"},
			[]uint64{0x0e9b1fa87c1d4096, 0x461daff9fd84c3b6, 0xc9e26600da737794, 0x7b97d825845bf282, 0x048b62479aeb3e67, 0xe6eb513f4e012f5f, 0xc19a6f932054b58c},
			[]int{0, 0, 0, 0, 0, 2, 0}},
		{"v1", 0xeedfef6c67f05fb1, 0x7ed1f2071f60cc49,
			[]string{"", "a", "patient-0001", "patient-0002", "patient-0006", "patient-0007", "2026-01-17/shard-00042.tar"},
			[]uint64{0x9a231d6557612d86, 0x00fb965c814e6fe1, 0x38e79e266afc4f35, 0xd7b60c2b499328c1, 0xf3a25c4978c5b672, 0xd818e3f7cb1d5a4d, 0xcdb8e49e4acbd391},
			[]int{0, 0, 0, 1, 2, 1, 1}},
	}
	for _, tc := range tests {
		h, err := subset.NewHash(tc.salt, 0.8, 0.1, 0.1)
		if err != nil {
			t.Fatal(err)
		}
		if k0, k1 := h.Key(); k0 != tc.k0 || k1 != tc.k1 {
			t.Errorf("salt %q: key %#016x %#016x, want %#016x %#016x", tc.salt, k0, k1, tc.k0, tc.k1)
		}
		for j, id := range tc.ids {
			if got := subset.HashSum(h, id); got != tc.sums[j] {
				t.Errorf("salt %q id %q: hash %#016x, want %#016x", tc.salt, id, got, tc.sums[j])
			}
			if got := subset.HashSum(h, []byte(id)); got != tc.sums[j] {
				t.Errorf("salt %q id %q as bytes: hash %#016x, want %#016x", tc.salt, id, got, tc.sums[j])
			}
			if got := subset.HashPart(h, id); got != tc.parts[j] {
				t.Errorf("salt %q id %q: part %d, want %d", tc.salt, id, got, tc.parts[j])
			}
		}
	}
}

// TestHashPartPython: the Python version of the rule that docs/cross-validate.md
// points to, testdata/hash_part.py, gives the kit's hashes and parts, on
// random salts, fractions and ids of up to 40 characters, non-ASCII included.
// It skips when Python is absent.
func TestHashPartPython(t *testing.T) {
	p, err := pypeer.Launch("struct", "testdata/hash_part.py", 1)
	if err != nil {
		t.Skipf("Python is not installed: %v", err)
	}
	defer p.Close()
	rng := rand.New(rand.NewPCG(12, 12))
	text := func(max int) string {
		runes := make([]rune, rng.IntN(max+1))
		for i := range runes {
			if rng.IntN(8) == 0 {
				runes[i] = rune(0xa0 + rng.IntN(0x3000)) // 2- and 3-byte UTF-8
			} else {
				runes[i] = rune(' ' + rng.IntN(95))
			}
		}
		return string(runes)
	}
	for i := range 2000 {
		fractions := make([]float64, 1+rng.IntN(3))
		sum := 0.0
		for j := range fractions {
			fractions[j] = rng.Float64() / float64(len(fractions))
			sum += fractions[j]
		}
		if i%3 == 0 { // fractions that sum to 1
			fractions[len(fractions)-1] += 1 - sum
		}
		salt, id := text(12), text(40)
		h, err := subset.NewHash(salt, fractions...)
		if err != nil {
			t.Fatal(err)
		}
		var resp struct {
			Hash uint64
			Part int
		}
		p.AskJSON(t, map[string]any{"salt": salt, "fractions": fractions, "id": id}, &resp)
		if got := subset.HashSum(h, id); got != resp.Hash {
			t.Fatalf("salt %q id %q: hash %#016x, Python %#016x", salt, id, got, resp.Hash)
		}
		if got := subset.HashPart(h, id); got != resp.Part {
			t.Fatalf("salt %q fractions %v id %q: part %d, Python %d", salt, fractions, id, got, resp.Part)
		}
	}
}

// TestHashPartRule: the part is the first cumulative fraction above u =
// (hash >> 11) / 2^53, and the last part takes the rest: checked on hashes
// whose u is known, through ids found for each of them.
func TestHashPartRule(t *testing.T) {
	for _, fr := range [][]float64{{0.8}, {0.8, 0.1, 0.1}, {0.5, 0.3}, {0.1, 0.2, 0.3, 0.4}, {1}, {0}} {
		h, err := subset.NewHash("rule", fr...)
		if err != nil {
			t.Fatal(err)
		}
		nominal := h.Fractions()
		for i := range 2000 {
			id := fmt.Sprint("id-", i)
			u := float64(subset.HashSum(h, id)>>11) * 0x1p-53
			want, sum := len(nominal)-1, 0.0
			for p, f := range nominal[:len(nominal)-1] {
				sum += f
				if u < sum {
					want = p
					break
				}
			}
			if got := subset.HashPart(h, id); got != want {
				t.Fatalf("fractions %v, u %v: part %d, want %d", fr, u, got, want)
			}
		}
	}
}

// idsData returns n observations whose id is "user-<k>" for k drawn from m
// users, the observation's features its index.
func idsData(rng *rand.Rand, n, m int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprint("user-", rng.IntN(m))
	}
	return ids
}

// partOf returns the part of every index of data in parts.
func partOf[T, B any](parts []*subset.View[T, B], n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = -1
	}
	for p, v := range parts {
		for _, i := range v.Indices() {
			out[i] = p
		}
	}
	return out
}

// TestHashSplitStable is the property test of hash splits: appending
// observations never moves one, reordering does not change any observation's
// part, equal ids share a part, and each part lists its observations in data
// order.
func TestHashSplitStable(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	h, err := subset.NewHash("stable", 0.7, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	for trial := range 30 {
		n := 50 + rng.IntN(2000)
		ids := idsData(rng, n, 1+rng.IntN(n))
		m := rng.IntN(n/2) + n/4 // the data before they grew
		before, err := subset.HashSplit(subset.Iota(m), container.FromSlice(ids[:m]), h)
		if err != nil {
			t.Fatal(err)
		}
		after, err := subset.HashSplit(subset.Iota(n), container.FromSlice(ids), h)
		if err != nil {
			t.Fatal(err)
		}
		pb, pa := partOf(before, m), partOf(after, n)
		if !slices.Equal(pb, pa[:m]) {
			t.Fatalf("trial %d: appending %d observations to %d moved some", trial, n-m, m)
		}
		for _, v := range after {
			if !slices.IsSorted(v.Indices()) {
				t.Fatalf("trial %d: a part is not in data order", trial)
			}
		}
		byID := map[string]int{}
		for i, id := range ids {
			if p, ok := byID[id]; ok && p != pa[i] {
				t.Fatalf("trial %d: id %s in parts %d and %d", trial, id, p, pa[i])
			}
			byID[id] = pa[i]
		}
		// Reordered: a shuffled view, its ids in the view's order.
		shuffled := subset.Shuffle(subset.Iota(n), rng)
		sids := container.FromFunc(n, func(i int) string { return ids[shuffled.GetObs(i)] })
		re, err := subset.HashSplit(shuffled, sids, h)
		if err != nil {
			t.Fatal(err)
		}
		if pr := partOf(re, n); !slices.Equal(pr, pa) {
			t.Fatalf("trial %d: reordering moved observations between parts", trial)
		}
	}
}

// TestHashSplitShares: with many ids the parts' shares converge to the
// fractions: within 5 standard deviations of a multinomial draw.
func TestHashSplitShares(t *testing.T) {
	const n = 200_000
	ids := container.FromFunc(n, func(i int) string { return fmt.Sprintf("2026-01-%02d/record-%07d", i%28+1, i) })
	for _, fr := range [][]float64{{0.8, 0.1, 0.1}, {0.5}, {0.01, 0.99}} {
		h, err := subset.NewHash("shares", fr...)
		if err != nil {
			t.Fatal(err)
		}
		parts, err := subset.HashSplit(subset.Iota(n), ids, h)
		if err != nil {
			t.Fatal(err)
		}
		for p, a := range h.Fractions() {
			sd := math.Sqrt(a * (1 - a) * n)
			if got := float64(parts[p].Nobs()); math.Abs(got-a*n) > 5*sd {
				t.Errorf("fractions %v: part %d holds %v of %d, want %v ± %.0f", fr, p, got, n, a*n, 5*sd)
			}
		}
	}
}

func TestHashSplitErrors(t *testing.T) {
	_, err := subset.NewHash("x", 0.7, 0.4)
	wantErr(t, "fractions above 1", err, subset.ErrFraction, "subset.NewHash")
	_, err = subset.NewHash("x")
	wantErr(t, "no fractions", err, subset.ErrFraction, "no fractions")
	h, err := subset.NewHash("x", 0.5)
	if err != nil {
		t.Fatal(err)
	}
	// One observation cannot fill two parts.
	_, err = subset.HashSplit(subset.Iota(1), container.FromSlice([]string{"only"}), h)
	wantErr(t, "one observation", err, container.ErrEmpty, "of 1 observations would be empty")
	r := mustPanic(t, "short ids", func() { subset.HashSplit(subset.Iota(3), container.FromSlice([]string{"a"}), h) })
	if ae, ok := r.(*container.ArgError); !ok || ae.Op != "subset.HashSplit" || ae.Arg != "ids.Nobs()" || ae.Value != 1 {
		t.Errorf("short ids: panic %v, want *container.ArgError for ids.Nobs() 1", r)
	}
	wantArgPanic(t, "nil hash", "subset.HashSplit", "hash", func() { subset.HashSplit(subset.Iota(1), container.FromSlice([]string{"a"}), nil) })
	var none container.Container[string]
	wantArgPanic(t, "nil ids", "subset.HashSplit", "ids", func() { subset.HashSplit(subset.Iota(1), none, h) })
}

func TestHashPartAllocs(t *testing.T) {
	h, err := subset.NewHash("x", 0.8)
	if err != nil {
		t.Fatal(err)
	}
	s, b := "2026-01-17/shard-00042.tar", []byte("2026-01-17/shard-00042.tar")
	if n := testing.AllocsPerRun(100, func() { subset.HashPart(h, s); subset.HashPart(h, b) }); n != 0 {
		t.Errorf("HashPart allocates %v times, want 0", n)
	}
}

func BenchmarkHashPart(b *testing.B) {
	h, err := subset.NewHash("bench", 0.8, 0.1)
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{8, 32, 128} {
		id := make([]byte, size)
		for i := range id {
			id[i] = byte('a' + i%26)
		}
		b.Run(fmt.Sprint(size, "B"), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			sum := 0
			for b.Loop() {
				sum += subset.HashPart(h, id)
			}
			_ = sum
		})
	}
}
