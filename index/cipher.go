package index

import (
	"math/bits"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/mix"
)

// cipherRounds is the number of Feistel rounds of a [Cipher] (but for tiny n);
// each round updates one half of the block from the other. Four rounds (Luby
// and Rackoff's construction, Grain's index_shuffle) are too few on the small
// blocks of small n: the statistical tests of the package fail them
// (docs/design.md has the figures); eight pass as rand.Perm does.
const cipherRounds = 8

// smallRounds is the number of rounds of the blocks of 3 bits or fewer (n up to
// 8): there the halves are of 1 and 2 bits, and eight rounds leave each
// element's position measurably non-uniform (z = 11.9 at n = 5 over 15,000
// seeds); 24 rounds pass.
const smallRounds = 24

// maxRounds bounds the rounds of a Cipher (a test compares counts up to it).
const maxRounds = smallRounds

// A Cipher is a permutation of the positions 0..n-1 computed position by
// position: a keyed bijection drawn from a seed and an epoch, which needs O(1)
// memory whatever n (a value of 240 bytes, where an array permutation needs 8n
// bytes) and O(1) expected time per position, in either direction. A
// loop that shuffles with it resumes anywhere in an epoch at once: position k of
// epoch e is At(k), computed without the positions before it.
//
// The permutation is a Feistel network over blocks of b bits, b the bit length
// of n-1 (so 2^b < 2n), its two halves of floor(b/2) and ceil(b/2) bits updated in
// turn by a keyed mixing function, with cycle-walking: a value at or above n is
// enciphered again until it falls below n, which takes fewer than two rounds of
// the network on average. Equal (n, seed, epoch) give equal permutations on every
// platform. A Cipher never changes once made: it is safe to copy and to use
// from many goroutines.
type Cipher struct {
	n       uint64
	lo, hi  uint   // the bits of the low and the high half of a block
	loMask  uint64 // 2^lo - 1
	keys    [maxRounds]uint64
	rounds  int  // even, at most maxRounds: cipherRounds but in the tests that compare counts
	walking bool // n is not a power of two: values of a block may fall at or above n
}

// domainCipher keeps the keys of a Cipher apart from every other key the kit
// derives from a seed.
const domainCipher = 0x63697068652d7065 // "ciphe-pe"

// NewCipher returns the permutation of 0..n-1 of epoch epoch of seed seed. It
// panics with a [*container.ArgError] when n is negative.
func NewCipher(n int, seed uint64, epoch int) Cipher {
	container.CheckArg(n >= 0, "index.NewCipher", "number of positions", n, ">= 0")
	rounds := cipherRounds
	if n <= 8 {
		rounds = smallRounds
	}
	return newCipher(n, seed, epoch, rounds)
}

// newCipher is NewCipher with a number of rounds (even, 2 to maxRounds).
func newCipher(n int, seed uint64, epoch, rounds int) Cipher {
	c := Cipher{n: uint64(n), rounds: rounds}
	b := uint(0)
	if n > 1 {
		b = uint(bits.Len64(uint64(n - 1)))
	}
	c.lo = b / 2
	c.hi = b - c.lo
	c.loMask = 1<<c.lo - 1
	c.walking = n > 0 && uint64(n) != 1<<b
	key := mix.Key(domainCipher, seed, uint64(epoch))
	for r := range rounds {
		key = mix.Mix(key + mix.Golden)
		c.keys[r] = key
	}
	return c
}

// N returns the number of positions.
func (c *Cipher) N() int { return int(c.n) }

// At returns the element at position i: the image of i under the permutation.
// It panics with a [*container.IndexError] when i is outside [0, n).
func (c *Cipher) At(i int) int {
	container.CheckIndex("index.Cipher.At", i, int(c.n))
	return int(c.at(uint64(i)))
}

// Pos returns the position of element x, the inverse of At: At(Pos(x)) == x. It
// panics with a [*container.IndexError] when x is outside [0, n).
func (c *Cipher) Pos(x int) int {
	container.CheckIndex("index.Cipher.Pos", x, int(c.n))
	v := uint64(x)
	for {
		v = c.decrypt(v)
		if v < c.n || !c.walking {
			return int(v)
		}
	}
}

// Fill writes the elements at positions start, start+1, ... into dst, len(dst)
// of them: dst[j] = At(start+j), faster than At one by one. It panics with a
// [*container.IndexError] when a position is outside [0, n).
func (c *Cipher) Fill(dst []int, start int) {
	if len(dst) == 0 {
		return
	}
	container.CheckIndex("index.Cipher.Fill", start, int(c.n))
	container.CheckIndex("index.Cipher.Fill", start+len(dst)-1, int(c.n))
	c.fill(dst, uint64(start))
}

// fill is Fill of checked positions. It enciphers every position first, with
// no branch, four at a time, and then walks the few values at or above n back
// into [0, n).
func (c *Cipher) fill(dst []int, start uint64) {
	c.encrypt4(dst, start)
	if !c.walking {
		return
	}
	for j, v := range dst {
		if uint64(v) >= c.n {
			dst[j] = int(c.at(uint64(v)))
		}
	}
}

// at enciphers v until the value falls below n: for v in [0, n), the element
// at position v; for v at or above n, the rest of a cycle-walk.
func (c *Cipher) at(v uint64) uint64 {
	for {
		v = c.encrypt(v)
		if v < c.n || !c.walking {
			return v
		}
	}
}

// round returns the keyed mixing of one half: a multiply and a xor-shift of the
// half and the round's key, then a second multiply, of whose product the high
// bits are taken, so that every bit of the half and the key reaches every bit
// taken.
func round(v, key uint64) uint64 {
	h := (v ^ key) * 0x9e3779b97f4a7c15
	h ^= h >> 32
	return h * 0xd6e8feb86659fd93
}

// encrypt applies the Feistel network to a block: the low half is updated from
// the high one, then the high half from the low one, and so on. A shift by 64
// (a half of no bits) gives 0 in Go.
func (c *Cipher) encrypt(v uint64) uint64 {
	sl, sh := 64-c.lo, 64-c.hi
	lo, hi := v&c.loMask, v>>c.lo
	k := c.keys[:c.rounds]
	for r := 0; r+1 < len(k); r += 2 {
		lo ^= round(hi, k[r]) >> sl
		hi ^= round(lo, k[r+1]) >> sh
	}
	return hi<<c.lo | lo
}

// decrypt is the inverse of encrypt: the rounds in reverse order.
func (c *Cipher) decrypt(v uint64) uint64 {
	sl, sh := 64-c.lo, 64-c.hi
	lo, hi := v&c.loMask, v>>c.lo
	k := c.keys[:c.rounds]
	for r := len(k) - 2; r >= 0; r -= 2 {
		hi ^= round(lo, k[r+1]) >> sh
		lo ^= round(hi, k[r]) >> sl
	}
	return hi<<c.lo | lo
}

// encrypt4 writes the enciphered positions start, start+1, ... into dst, four
// at a time: the rounds of four positions interleaved, so that the processor
// runs four chains of multiplies at once instead of waiting on one (measured
// 1.5x faster than one position at a time, docs/design.md).
func (c *Cipher) encrypt4(dst []int, start uint64) {
	sl, sh, sb := 64-c.lo, 64-c.hi, c.lo
	m := c.loMask
	keys := c.keys // a copy on the stack: the race detector leaves it alone
	k := keys[:c.rounds]
	j := 0
	for ; j+4 <= len(dst); j += 4 {
		v := start + uint64(j)
		l0, h0 := v&m, v>>sb
		l1, h1 := (v+1)&m, (v+1)>>sb
		l2, h2 := (v+2)&m, (v+2)>>sb
		l3, h3 := (v+3)&m, (v+3)>>sb
		for r := 0; r+1 < len(k); r += 2 {
			ka, kb := k[r], k[r+1]
			l0 ^= round(h0, ka) >> sl
			l1 ^= round(h1, ka) >> sl
			l2 ^= round(h2, ka) >> sl
			l3 ^= round(h3, ka) >> sl
			h0 ^= round(l0, kb) >> sh
			h1 ^= round(l1, kb) >> sh
			h2 ^= round(l2, kb) >> sh
			h3 ^= round(l3, kb) >> sh
		}
		d := dst[j : j+4 : j+4]
		d[0], d[1], d[2], d[3] = int(h0<<sb|l0), int(h1<<sb|l1), int(h2<<sb|l2), int(h3<<sb|l3)
	}
	for ; j < len(dst); j++ {
		dst[j] = int(c.encrypt(start + uint64(j)))
	}
}
