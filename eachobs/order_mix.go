package eachobs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/internal/mix"
)

// Strata is what [ShuffleWithin] needs of a container whose positions each
// belong to a stratum, as the positions of a mix belong to its sources: the
// stratum of a position and its rank among the stratum's positions (Use), the
// inverse (Position), and the number of positions of each stratum (Counts).
// A *mix.Mixed is one.
type Strata interface {
	Nobs() int
	Use(i int) (stratum, rank int)
	Position(stratum, rank int) int
	Counts() []int
}

// domainWithin keeps the keys of the strata's ciphers apart from the kit's
// other keys.
const domainWithin = 0x7374726174610000 // "strata"

// ShuffleWithin is [Shuffle] for a stratified container, a mix (mix.New,
// mix.Views) above all: every epoch visits it in a fresh order that keeps the
// stratum of every position. Position p of the epoch's order is of the stratum
// of index p, so every batch holds the mix's proportions as the mix's own
// order does; the ranks of each stratum are permuted among its positions by
// index.NewCipher(count, key, e), one key per stratum drawn from seed. Like
// Shuffle's, the order is computed position by position in O(1) memory per
// stratum, and a loop resumes anywhere in an epoch at once; [Iter.UnmarshalBinary]
// refuses a position of another stratified container (other counts).
//
// The loop's container must be s itself, or one whose observation i is s's
// observation i (a tuple of mixes of one schedule); ShuffleWithin panics with a [*container.ArgError]
// when s is nil, and the loop panics likewise when its container's Nobs is not
// s's.
func ShuffleWithin(seed uint64, s Strata) Option {
	container.CheckArg(s != nil, "eachobs.ShuffleWithin", "strata", "nil", "a stratified container (a *mix.Mixed)")
	counts := s.Counts()
	name := make([]string, len(counts))
	for j, c := range counts {
		name[j] = strconv.Itoa(c)
	}
	kind := orderKind{
		name:   "within " + strings.Join(name, "+"),
		option: "ShuffleWithin",
		make: func(n int, seed uint64) order {
			container.CheckArg(n == s.Nobs(), "eachobs.ShuffleWithin", "strata", fmt.Sprintf("%d observations", s.Nobs()), fmt.Sprintf("the loop's container's %d", n))
			return &withinOrder{s: s, counts: counts, seed: seed, epoch: -1, c: make([]index.Cipher, len(counts))}
		},
	}
	return shuffle(seed, kind)
}

// withinOrder maps position p of epoch e to the position of the same stratum
// j whose rank is the epoch's cipher of j at p's rank.
type withinOrder struct {
	s      Strata
	counts []int
	seed   uint64
	epoch  int
	c      []index.Cipher // the epoch's cipher of each stratum
}

func (o *withinOrder) fill(dst []int, e, start, stride int) {
	if e != o.epoch {
		for j, n := range o.counts {
			o.c[j] = index.NewCipher(n, mix.Key(domainWithin, o.seed, uint64(j)), e)
		}
		o.epoch = e
	}
	for k := range dst {
		j, u := o.s.Use(start + k*stride)
		dst[k] = o.s.Position(j, o.c[j].At(u))
	}
}
