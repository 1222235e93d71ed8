// Package mix derives the kit's random keys from small integers: a loop's seed,
// an epoch, an observation index. Its one function, [Mix], is a bijection of
// uint64 with full avalanche (every input bit flips every output bit with
// probability close to 1/2), the finalizer of SplitMix64 ("Mix13" of David
// Stafford's variants, used by Java's SplittableRandom), so that keys of
// neighbouring inputs (epoch 7 and 8, observation 41 and 42) are unrelated and
// distinct inputs give distinct keys.
package mix

// Mix returns the SplitMix64 finalizer of x: a bijection with full avalanche.
// Mix(0) is 0; callers add a constant to inputs that may be zero.
func Mix(x uint64) uint64 {
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Golden is 2^64 divided by the golden ratio, the increment of SplitMix64: adding
// multiples of it spreads consecutive integers over the whole range.
const Golden = 0x9e3779b97f4a7c15

// Key returns a 64-bit key of a domain (a constant that keeps the keys of two
// uses apart) and two values, such as a seed and an epoch. Every argument
// reaches every bit of the key; for one domain and one a, distinct b give
// distinct keys.
func Key(domain, a, b uint64) uint64 {
	return Mix(Mix(domain+a*Golden) ^ (b + Golden))
}
