package index

import "iter"

// Batches returns the index lists of one pass over the permutation c, in
// batches of size with tail t (Fuel's ShuffledScheme): the positions 0..size-1,
// size..2*size-1, ... of the permutation, cut as the batches of epoch 0 of
// [NewSteps](c.N(), size, 1, false, t) are ([RollOver] acts as [Drop] within
// one pass; the padding of [Pad] repeats the first positions). The positions
// are computed by the cipher, so a pass holds one list at a time and no
// permutation, and every pass yields the same lists: a stream restored
// mid-pass reads what the saved one would have. Each list is a fresh slice the
// receiver may keep. A stream over a container takes one epoch's, as in
//
//	stream.Gather(x, index.NewCipher(x.Nobs(), seed, e).Batches(128, index.Drop))
//
// It panics as [NewSteps] does.
func (c *Cipher) Batches(size int, t Tail) iter.Seq[[]int] {
	if t == RollOver {
		t = Drop // a pass has no next epoch to roll into
	}
	s := NewSteps(c.N(), size, 1, false, t)
	cc := *c
	return func(yield func([]int) bool) {
		for k := range s.Len(0) {
			idx, _ := s.Batch(nil, 0, k, 0)
			for j, pos := range idx { // epoch 0: a stream position is a position
				idx[j] = int(cc.at(uint64(pos)))
			}
			if !yield(idx) {
				return
			}
		}
	}
}
