// Package pyrand is Python's random module as far as im2rec uses it:
// random.seed of an integer and random.shuffle, so that obskit rec pack --list
// shuffles a list exactly as im2rec (random.seed(100); random.shuffle(list))
// does, and writes the same .lst file.
//
// The generator is the Mersenne Twister MT19937 (Matsumoto and Nishimura's
// reference code, which CPython's _randommodule.c follows): seeded with
// init_by_array from the 32-bit words of the seed, least significant first.
// Shuffle is CPython's: Fisher-Yates from the last element, each index drawn by
// _randbelow, which takes the top bits of the generator's next word and
// rejects values out of range.
package pyrand

const (
	n         = 624
	m         = 397
	matrixA   = 0x9908b0df
	upperMask = 0x80000000
	lowerMask = 0x7fffffff
)

// A Random is a Python random.Random.
type Random struct {
	mt  [n]uint32
	idx int
}

// New returns the generator of random.seed(seed) for a non-negative integer
// seed.
func New(seed uint64) *Random {
	key := []uint32{uint32(seed)}
	if hi := uint32(seed >> 32); hi != 0 {
		key = append(key, hi)
	}
	r := &Random{}
	r.initByArray(key)
	return r
}

func (r *Random) initGenrand(s uint32) {
	r.mt[0] = s
	for i := 1; i < n; i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^(r.mt[i-1]>>30)) + uint32(i)
	}
	r.idx = n
}

func (r *Random) initByArray(key []uint32) {
	r.initGenrand(19650218)
	i, j := 1, 0
	for k := max(n, len(key)); k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k := n - 1; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
	}
	r.mt[0] = 0x80000000
}

// Uint32 returns the generator's next 32-bit word (genrand_uint32).
func (r *Random) Uint32() uint32 {
	if r.idx >= n {
		for k := range n {
			y := r.mt[k]&upperMask | r.mt[(k+1)%n]&lowerMask
			v := r.mt[(k+m)%n] ^ y>>1
			if y&1 != 0 {
				v ^= matrixA
			}
			r.mt[k] = v
		}
		r.idx = 0
	}
	y := r.mt[r.idx]
	r.idx++
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	y ^= y >> 18
	return y
}

// bits returns random.getrandbits(k) for 0 < k <= 64: whole words, least
// significant first, the last one cut to its top bits.
func (r *Random) bits(k int) uint64 {
	if k <= 32 {
		return uint64(r.Uint32() >> (32 - k))
	}
	lo := uint64(r.Uint32())
	return lo | uint64(r.Uint32()>>(64-k))<<32
}

// below returns random._randbelow(n) for n > 0.
func (r *Random) below(n uint64) uint64 {
	k := 0
	for v := n; v > 0; v >>= 1 {
		k++
	}
	v := r.bits(k)
	for v >= n {
		v = r.bits(k)
	}
	return v
}

// Shuffle shuffles n elements as random.shuffle does, swapping them with swap.
func (r *Random) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, int(r.below(uint64(i)+1)))
	}
}
