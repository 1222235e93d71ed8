package subset

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/obskit/obskit/container"
)

// An ID is the type of the id that decides an observation's part in a hash
// split: a string or a byte slice, or any type defined on one.
type ID interface{ ~string | ~[]byte }

// A Hash is the rule of a hash split: a salt and the fractions of the parts.
// An observation's part depends on its id alone, through a keyed 64-bit hash
// that is fixed forever, so a split made today is the split every later
// version of the kit makes, in any order, on any machine, for a container or a
// stream, and appending observations never moves one already there. A Hash is
// immutable and safe for concurrent use.
//
// The rule, to reproduce it anywhere:
//
//  1. The key. The 128-bit key of the salt s is the pair (k0, k1) =
//     (SipHash-2-4(K, s || 0x00), SipHash-2-4(K, s || 0x01)), where K is the
//     key made of the 16 ASCII bytes "obskit/hashsplit" and || appends a byte
//     to the salt's bytes.
//  2. The hash. The hash of an id is SipHash-2-4 of its bytes under (k0, k1),
//     as a uint64 (SipHash's output read little-endian, the key's halves k0
//     and k1 written little-endian as its 16 bytes).
//  3. The part. The hash h maps to u = (h >> 11) / 2^53, a float64 in [0, 1);
//     the part is the first p with u < f[0] + ... + f[p], the sums taken in
//     float64 from the left, and the last part when there is none (the rest
//     when the fractions sum to less than 1; the last fraction's part, taking
//     what rounding leaves, when they sum to 1 within 1e-9).
//
// Test vectors, checked by TestHashVectors and, independently, by OpenSSL's
// "openssl mac -macopt hexkey:<key> -macopt size:8 SIPHASH" (which prints the
// hash's 8 bytes little-endian); parts at the fractions 0.8, 0.1, 0.1:
//
//	salt "":    k0 0x51c4b8b93610cdcf  k1 0xa728592eae0a54a5
//	  id ""                            hash 0x0e9b1fa87c1d4096  part 0
//	  id "a"                           hash 0x461daff9fd84c3b6  part 0
//	  id "patient-0007"                hash 0xe6eb513f4e012f5f  part 2
//	  id "2026-01-17/shard-00042.tar"  hash 0xc19a6f932054b58c  part 0
//	salt "v1":  k0 0xeedfef6c67f05fb1  k1 0x7ed1f2071f60cc49
//	  id "patient-0001"                hash 0x38e79e266afc4f35  part 0
//	  id "patient-0002"                hash 0xd7b60c2b499328c1  part 1
//	  id "patient-0006"                hash 0xf3a25c4978c5b672  part 2
//
// SipHash-2-4 (Aumasson and Bernstein, 2012) is the hash because it is a keyed
// pseudorandom function with a 128-bit key, so two salts give independent
// splits and no set of ids, however alike, crowds a part; it has reference
// test vectors and implementations in most languages and in OpenSSL 3; and its
// cost (BenchmarkHashPart) is nothing beside reading an observation. FNV-1a
// over salt and id, the simplest choice, fails here: ids that differ in their
// last byte get hashes that differ in their low 49 bits only, so
// "patient-0001" to "patient-0009" all map to u = 0.5152 and share a part.
// xxHash is faster but takes a 64-bit seed and is not a pseudorandom function.
type Hash struct {
	k0, k1    uint64
	salt      string
	fractions []float64 // the nominal fractions, the rest included
	cum       []float64 // cum[p]: f[0] + ... + f[p], for all but the last part
}

// hashKey is K: the 16 ASCII bytes "obskit/hashsplit", read as two
// little-endian halves.
var hashKey0, hashKey1 = binary.LittleEndian.Uint64([]byte("obskit/h")), binary.LittleEndian.Uint64([]byte("ashsplit"))

// NewHash returns the rule of a hash split with the given salt and fractions:
// part p holds the fraction fractions[p] of the ids, and a last part holds the
// rest when the fractions sum to less than 1, as [Split]'s parts do (so 0.8
// gives a train and a test part). The salt names the split: two salts give
// independent splits, and any string is one, "" included.
//
// NewHash returns an error wrapping [ErrFraction] when a fraction is outside
// [0, 1] or the fractions sum to more than 1, as Split does.
func NewHash(salt string, fractions ...float64) (*Hash, error) {
	nominal, err := partFractions("subset.NewHash", fractions)
	if err != nil {
		return nil, err
	}
	h := &Hash{salt: salt, fractions: nominal}
	b := append([]byte(salt), 0)
	h.k0 = sipHash24(hashKey0, hashKey1, b)
	b[len(b)-1] = 1
	h.k1 = sipHash24(hashKey0, hashKey1, b)
	sum := 0.0
	for _, f := range nominal[:len(nominal)-1] {
		sum += f
		h.cum = append(h.cum, sum)
	}
	return h, nil
}

// Parts returns the number of parts.
func (h *Hash) Parts() int { return len(h.fractions) }

// Fractions returns the fraction of each part, the rest included, in a new
// slice.
func (h *Hash) Fractions() []float64 { return append([]float64(nil), h.fractions...) }

// Salt returns the salt.
func (h *Hash) Salt() string { return h.salt }

// Key returns the 128-bit SipHash key derived from the salt, as two halves.
func (h *Hash) Key() (k0, k1 uint64) { return h.k0, h.k1 }

// HashSum returns the keyed 64-bit hash of id under h: SipHash-2-4 of id's
// bytes with h's key. It allocates nothing.
func HashSum[I ID](h *Hash, id I) uint64 { return sipHash24(h.k0, h.k1, id) }

// HashPart returns the part of id under h, in [0, h.Parts()). It allocates
// nothing.
func HashPart[I ID](h *Hash, id I) int { return h.part(HashSum(h, id)) }

// part maps a hash to its part.
func (h *Hash) part(sum uint64) int {
	u := float64(sum>>11) * 0x1p-53
	for p, c := range h.cum {
		if u < c {
			return p
		}
	}
	return len(h.cum)
}

// HashSplit divides c into the parts of h by the id of each observation: part
// p is the view of the observations whose id has part p under h
// ([HashPart]), in data order. ids holds the id of each observation of c, in
// c's order, the way labels are given: a column, a tuple member, or a
// container.Func that derives an id from the data (a file name, a key, the
// group of the observation, so that a group is never split); never the
// position, which is what changes when data grow. ids is read once with
// GetObs.
//
// An observation's part depends on its id and on h alone: appending
// observations to c never moves one between parts, reordering c reorders the
// parts without changing what they hold, and observations with equal ids
// share a part. The parts' shares approach the fractions as the number of
// distinct ids grows (they are a multinomial draw: with m ids, a part of
// fraction a holds a*m ids give or take sqrt(a*(1-a)*m)). The views hold n
// indices in all; HashSplit reads the ids in O(total id bytes).
//
// HashSplit returns an error wrapping [container.ErrEmpty] when a part whose
// fraction is above 0 would be empty, as Split does, naming the part. It
// panics with a [*container.ArgError] when h or ids is nil or when ids' Nobs
// differs from c's.
func HashSplit[T, B any, I ID](c container.Batched[T, B], ids container.Container[I], h *Hash) ([]*View[T, B], error) {
	const op = "subset.HashSplit"
	container.CheckArg(h != nil, op, "hash", h, "a *subset.Hash from NewHash")
	container.CheckArg(ids != nil, op, "ids", ids, "a container of one id per observation")
	v := viewOf(c)
	if m := ids.Nobs(); m != v.n {
		panic(&container.ArgError{Op: op, Arg: "ids.Nobs()", Value: m, Want: fmt.Sprintf("%d, one id per observation of the data", v.n)})
	}
	np := h.Parts()
	partOf := make([]int, v.n)
	sizes := make([]int, np)
	for i := range partOf {
		p := HashPart(h, ids.GetObs(i))
		partOf[i] = p
		sizes[p]++
	}
	if k := emptyPart(h.fractions, sizes); k >= 0 {
		return nil, fmt.Errorf("%s: part %d (fraction %v) of %d observations would be empty: %w", op, k, h.fractions[k], v.n, container.ErrEmpty)
	}
	return cut(v.positions(bucket(partOf, np)), sizes), nil
}

// sipHash24 is SipHash-2-4 of m under the key (k0, k1) (Aumasson and
// Bernstein, "SipHash: a fast short-input PRF", 2012).
func sipHash24[I ID](k0, k1 uint64, m I) uint64 {
	v0 := k0 ^ 0x736f6d6570736575
	v1 := k1 ^ 0x646f72616e646f6d
	v2 := k0 ^ 0x6c7967656e657261
	v3 := k1 ^ 0x7465646279746573
	n := len(m)
	i := 0
	for ; i+8 <= n; i += 8 {
		x := uint64(m[i]) | uint64(m[i+1])<<8 | uint64(m[i+2])<<16 | uint64(m[i+3])<<24 |
			uint64(m[i+4])<<32 | uint64(m[i+5])<<40 | uint64(m[i+6])<<48 | uint64(m[i+7])<<56
		v3 ^= x
		v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
		v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
		v0 ^= x
	}
	last := uint64(n) << 56
	for j := 0; i+j < n; j++ {
		last |= uint64(m[i+j]) << (8 * j)
	}
	v3 ^= last
	v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	v0 ^= last
	v2 ^= 0xff
	for range 4 {
		v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	}
	return v0 ^ v1 ^ v2 ^ v3
}

// sipRound is one SipRound.
func sipRound(v0, v1, v2, v3 uint64) (uint64, uint64, uint64, uint64) {
	v0 += v1
	v1 = bits.RotateLeft64(v1, 13)
	v1 ^= v0
	v0 = bits.RotateLeft64(v0, 32)
	v2 += v3
	v3 = bits.RotateLeft64(v3, 16)
	v3 ^= v2
	v0 += v3
	v3 = bits.RotateLeft64(v3, 21)
	v3 ^= v0
	v2 += v1
	v1 = bits.RotateLeft64(v1, 17)
	v1 ^= v2
	v2 = bits.RotateLeft64(v2, 32)
	return v0, v1, v2, v3
}
