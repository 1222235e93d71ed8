package index_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/obskit/obskit/index"
)

// The statistical tests of the cipher permutation run every test on the
// cipher and on rand.Perm side by side, with fixed seeds (so they never flake),
// and want both within 5 standard deviations of what a uniform permutation
// gives. The log (go test -v -run CipherStat) shows the two beside each other.

// permFunc returns permutation number s of n positions of one kind.
type permFunc func(n int, s uint64) func(i int) int

var permKinds = []struct {
	name string
	perm permFunc
}{
	{"cipher", func(n int, s uint64) func(int) int {
		c := index.NewCipher(n, 12345, int(s))
		return c.At
	}},
	{"rand.Perm", func(n int, s uint64) func(int) int {
		p := rand.New(rand.NewPCG(12345, s)).Perm(n)
		return func(i int) int { return p[i] }
	}},
}

// zScore returns how many standard deviations a chi-square value with dof
// degrees of freedom lies from its mean.
func zScore(chi float64, dof int) float64 {
	return (chi - float64(dof)) / math.Sqrt(2*float64(dof))
}

// TestCipherStatPositionUniform: over many seeds, each element lands at each
// position equally often: a chi-square test of the n x n table of counts,
// (n-1)^2 degrees of freedom (rows and columns sum to the number of seeds).
func TestCipherStatPositionUniform(t *testing.T) {
	for _, n := range []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 16, 17, 31, 33, 100} {
		seeds := 40 * n
		if n <= 16 { // small blocks are where few rounds show: many seeds
			seeds = 2000 * n
		}
		for _, k := range permKinds {
			z := positionZ(k.perm, n, seeds)
			t.Logf("n=%3d %-9s z %+.2f", n, k.name, z)
			if math.Abs(z) > 5 {
				t.Errorf("n=%d, %s: positions not uniform over %d seeds: z = %.2f", n, k.name, seeds, z)
			}
		}
	}
}

// positionZ returns the z score of the chi-square test of the n x n table of
// the counts of element x at position i over seeds permutations.
func positionZ(perm permFunc, n, seeds int) float64 {
	count := make([]int, n*n)
	for s := range seeds {
		at := perm(n, uint64(s))
		for i := range n {
			count[at(i)*n+i]++
		}
	}
	want := float64(seeds) / float64(n)
	chi := 0.0
	for _, c := range count {
		d := float64(c) - want
		chi += d * d / want
	}
	return zScore(chi, (n-1)*(n-1))
}

// differencesZ returns the z score of the chi-square test, over 64 bins, of the
// differences modulo n of the elements at neighbouring positions, over seeds
// permutations; a uniform permutation makes them uniform over 1..n-1.
func differencesZ(perm permFunc, n, seeds int) float64 {
	const bins = 64
	diff := make([]int, bins)
	for s := range seeds {
		at := perm(n, uint64(s))
		prev := at(0)
		for i := 1; i < n; i++ {
			x := at(i)
			d := ((x-prev)%n + n) % n // in [1, n)
			diff[(d-1)*bins/(n-1)]++
			prev = x
		}
	}
	chi, total := 0.0, float64(seeds*(n-1))
	for b, c := range diff {
		lo, hi := (b*(n-1)+bins-1)/bins, ((b+1)*(n-1)+bins-1)/bins // differences d-1 in [lo, hi)
		want := total * float64(hi-lo) / float64(n-1)
		d := float64(c) - want
		chi += d * d / want
	}
	return zScore(chi, bins-1)
}

// TestCipherStatNeighbours: within a permutation, the elements at positions i
// and i+1 are uncorrelated (a uniform permutation gives -1/(n-1)), the element
// is uncorrelated with its position, and the difference of neighbours modulo n
// is uniform over 1..n-1 (a chi-square over 64 bins).
func TestCipherStatNeighbours(t *testing.T) {
	for _, n := range []int{1000, 1 << 12, 1<<12 + 1, 60_000} {
		seeds := max(8, 400_000/n)
		for _, k := range permKinds {
			var nb, self corr
			for s := range seeds {
				at := k.perm(n, uint64(s))
				prev := at(0)
				self.add(0, float64(prev))
				for i := 1; i < n; i++ {
					x := at(i)
					nb.add(float64(prev), float64(x))
					self.add(float64(i), float64(x))
					prev = x
				}
			}
			z := differencesZ(k.perm, n, seeds)
			se := 1 / math.Sqrt(nb.n)
			t.Logf("n=%5d %-9s neighbours r %+.5f (uniform %+.5f, se %.5f), position r %+.5f, differences z %+.2f",
				n, k.name, nb.r(), -1/float64(n-1), se, self.r(), z)
			if math.Abs(nb.r()+1/float64(n-1)) > 5*se {
				t.Errorf("n=%d, %s: neighbours correlate: r = %.5f", n, k.name, nb.r())
			}
			if math.Abs(self.r()) > 5*se {
				t.Errorf("n=%d, %s: elements correlate with positions: r = %.5f", n, k.name, self.r())
			}
			if math.Abs(z) > 5 {
				t.Errorf("n=%d, %s: differences of neighbours not uniform: z = %.2f", n, k.name, z)
			}
		}
	}
}

// TestCipherStatEpochs: the permutations of consecutive epochs are unrelated:
// an element's positions in epochs e and e+1 are uncorrelated.
func TestCipherStatEpochs(t *testing.T) {
	const n, epochs = 5000, 40
	for _, k := range permKinds {
		var c corr
		prev := k.perm(n, 0)
		for e := 1; e < epochs; e++ {
			cur := k.perm(n, uint64(e))
			for i := range n {
				c.add(float64(prev(i)), float64(cur(i)))
			}
			prev = cur
		}
		se := 1 / math.Sqrt(c.n)
		t.Logf("%-9s element at one position in consecutive epochs: r %+.5f (se %.5f)", k.name, c.r(), se)
		if math.Abs(c.r()) > 5*se {
			t.Errorf("%s: consecutive epochs correlate: r = %.5f", k.name, c.r())
		}
	}
}

// corr accumulates a Pearson correlation.
type corr struct{ n, sx, sy, sxx, syy, sxy float64 }

func (c *corr) add(x, y float64) {
	c.n++
	c.sx += x
	c.sy += y
	c.sxx += x * x
	c.syy += y * y
	c.sxy += x * y
}

func (c *corr) r() float64 {
	cov := c.sxy/c.n - c.sx/c.n*c.sy/c.n
	return cov / math.Sqrt((c.sxx/c.n-c.sx/c.n*c.sx/c.n)*(c.syy/c.n-c.sy/c.n*c.sy/c.n))
}

var cipherRoundsFlag = flag.Bool("cipher.rounds", false, "compare the statistics of 4 to 24 cipher rounds with rand.Perm's (minutes)")

// TestCipherStatRounds compares numbers of rounds by the worst result, over
// many n, of the tests above: the position test for every n from 2 to 70
// (with 3,000n seeds up to 16, 60n above) and the differences test for 13 n
// from 100 to 65,537. Behind -cipher.rounds; docs/design.md gives the decision it supports.
func TestCipherStatRounds(t *testing.T) {
	if !*cipherRoundsFlag {
		t.Skip("the comparison of round counts runs with -cipher.rounds")
	}
	kinds := []struct {
		name string
		perm permFunc
	}{{"rand.Perm", permKinds[1].perm}, {"NewCipher", func(n int, s uint64) func(int) int {
		c := index.NewCipher(n, 777, int(s))
		return c.At
	}}}
	for _, r := range []int{4, 6, 8, 10, 16, 24} {
		kinds = append(kinds, struct {
			name string
			perm permFunc
		}{fmt.Sprintf("%d rounds", r), func(n int, s uint64) func(int) int {
			c := index.NewCipherRounds(n, 777, int(s), r)
			return c.At
		}})
	}
	for _, k := range kinds {
		worstPos, posN := 0.0, 0
		for n := 2; n <= 70; n++ {
			seeds := 60 * n
			if n <= 16 {
				seeds = 3000 * n
			}
			if z := positionZ(k.perm, n, seeds); math.Abs(z) > math.Abs(worstPos) {
				worstPos, posN = z, n
			}
		}
		worstDiff, diffN := 0.0, 0
		for _, n := range []int{100, 200, 500, 1000, 1023, 1024, 1025, 2000, 4000, 8191, 10000, 30000, 65537} {
			if z := differencesZ(k.perm, n, max(8, 300_000/n)); math.Abs(z) > math.Abs(worstDiff) {
				worstDiff, diffN = z, n
			}
		}
		t.Logf("%-10s worst position z %+6.2f (n=%d), worst differences z %+7.2f (n=%d)", k.name, worstPos, posN, worstDiff, diffN)
	}
}
