package container

import (
	"math/rand/v2"

	"github.com/obskit/obskit/internal/mix"
)

// An ObsRand is the randomness of one pass over a container whose observations
// are random (augmentations, random maps): it gives observation i its own
// generator, [ObsRand.For](i), derived from the pass's seed and epoch and from i
// alone. An observation therefore draws the same numbers in a pass whatever the
// order of the pass, the number of workers that gather it, the batch it falls in
// or where a resumed loop starts; the loops of package eachobs hand one to every
// gather, keyed by the loop's seed and the epoch.
//
// An ObsRand is a small value. [NewObsRand] allocates its generator once; For
// reseeds that generator in place, so a pass allocates nothing per observation.
// Copies share the generator: an ObsRand and its copies must be used by one
// goroutine at a time (each worker of a loop has its own), and the *rand.Rand
// that For returns is valid until the next call of For on any of them.
//
// The zero ObsRand is the randomness of seed 0, epoch 0, the one a random
// container uses when read outside a loop (its GetObs and GetObsInto); it has no
// generator of its own, so each call of its For allocates one.
type ObsRand struct {
	seed  uint64
	epoch int
	// The key of (seed, epoch, streams) xor the key of the zero value, so that
	// the zero ObsRand is seed 0, epoch 0.
	k0, k1 uint64
	g      *generator
}

type generator struct {
	pcg rand.PCG
	rng *rand.Rand
}

// Domains keep the keys of ObsRand apart from every other key the kit derives
// from a seed (the permutations of package index).
const (
	domainObs0 = 0x6f62732d72616e64 // "obs-rand"
	domainObs1 = 0x7065722d6f627321 // "per-obs!"
)

// zeroK0 and zeroK1 are the key of seed 0, epoch 0.
var zeroK0, zeroK1 = mix.Key(domainObs0, 0, 0), mix.Key(domainObs1, 0, 0)

// NewObsRand returns the randomness of epoch epoch of seed seed, with a generator
// of its own (one allocation, reused by every call of For).
func NewObsRand(seed uint64, epoch int) ObsRand {
	g := &generator{}
	g.rng = rand.New(&g.pcg)
	return ObsRand{g: g}.Pass(seed, epoch)
}

// Pass returns the randomness of epoch epoch of seed seed that shares r's
// generator: a loop moving to the next epoch takes it, allocating nothing. The
// streams of r ([ObsRand.Stream]) are not carried over.
func (r ObsRand) Pass(seed uint64, epoch int) ObsRand {
	return ObsRand{
		seed: seed, epoch: epoch,
		k0: mix.Key(domainObs0, seed, uint64(epoch)) ^ zeroK0,
		k1: mix.Key(domainObs1, seed, uint64(epoch)) ^ zeroK1,
		g:  r.g,
	}
}

// Seed returns the seed of the pass.
func (r ObsRand) Seed() uint64 { return r.seed }

// Epoch returns the epoch of the pass.
func (r ObsRand) Epoch() int { return r.epoch }

// Stream returns randomness of the same pass that draws numbers independent of
// r's for every observation, sharing r's generator. Two random transforms of one
// observation that are handed the same ObsRand draw the same numbers, which is
// what keeps an image and its mask cropped alike; a transform whose numbers must
// be independent of another's takes a stream of its own (transform.MapRand hands
// its source Stream(1)). Streams of distinct s are independent of each other.
func (r ObsRand) Stream(s uint64) ObsRand {
	r.k0 = mix.Key(domainObs0, r.k0^zeroK0, s) ^ zeroK0
	r.k1 = mix.Key(domainObs1, r.k1^zeroK1, s) ^ zeroK1
	return r
}

// For returns the generator of observation i: a *rand.Rand seeded from the pass
// and i alone, so the numbers it draws are a function of (seed, epoch, stream, i).
// It reseeds r's generator and returns it, valid until the next call of For on r
// or a copy of r; the zero ObsRand allocates a new generator instead. Any int is
// an observation index.
func (r ObsRand) For(i int) *rand.Rand {
	x := uint64(i)
	hi := mix.Mix(r.k0 ^ zeroK0 ^ (x * mix.Golden))
	lo := mix.Mix(r.k1 ^ zeroK1 ^ (x + mix.Golden))
	if r.g == nil {
		return rand.New(rand.NewPCG(hi, lo))
	}
	r.g.pcg.Seed(hi, lo)
	return r.g.rng
}

// A Random container's observations are random: an augmentation, a random map,
// a container that draws noise. Observation i is a function of i and of the
// generator of i that an [ObsRand] gives, so that in a loop it depends on the
// loop's seed, the epoch and i, and on nothing else.
//
// It is an optional ability found by type assertion, as [IndexView] is, and the
// one that adds an input rather than only speed: the loops of package eachobs
// call GetObsRand and GetObsRandInto, passing the randomness of the pass, and the
// kit's wrappers (subset views, tuples, transform's maps, joins and windows,
// convert's conversions, batch views, [AsBatched]) have both methods and pass the
// randomness through to their sources, so a random container keeps drawing per
// observation under any stack of wrappers. Read by GetObs and GetObsInto, a
// Random container draws as in the zero ObsRand: seed 0, epoch 0.
//
// GetObsRand(i, r) must equal GetObsRandInto's slot for i with the same r, as
// GetObs and GetObsInto agree, whatever the other indices of the batch; both
// panic with an [*IndexError] for an index out of range. A wrapper of a source
// that is not Random passes the call to the source's GetObs or GetObsInto.
type Random[T, B any] interface {
	Batched[T, B]
	// GetObsRand returns observation i drawn with r.
	GetObsRand(i int, r ObsRand) T
	// GetObsRandInto gathers the observations at idx into dst, each drawn with
	// r, reusing dst's memory as GetObsInto does.
	GetObsRandInto(dst B, idx []int, r ObsRand) B
}

// GetObsRand returns observation i of c drawn with r: c.GetObsRand(i, r) when c has
// that method ([Random] containers do), c.GetObs(i) otherwise. Wrappers call it to pass randomness
// to their sources.
func GetObsRand[T any](c Container[T], i int, r ObsRand) T {
	if rc, ok := c.(interface{ GetObsRand(int, ObsRand) T }); ok {
		return rc.GetObsRand(i, r)
	}
	return c.GetObs(i)
}

// GetObsRandInto gathers the observations at idx of c into dst, drawn with r:
// c.GetObsRandInto(dst, idx, r) when c is [Random], c.GetObsInto(dst, idx)
// otherwise. Wrappers call it to pass randomness to their sources.
func GetObsRandInto[T, B any](c Batched[T, B], dst B, idx []int, r ObsRand) B {
	if rc, ok := c.(Random[T, B]); ok {
		return rc.GetObsRandInto(dst, idx, r)
	}
	return c.GetObsInto(dst, idx)
}
