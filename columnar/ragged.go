package columnar

// Ragged is a batch of variable-length observations, the batch of [Lists] and
// [Strings]: observation k of the batch is Values[Offsets[k]:Offsets[k+1]],
// Arrow's own layout. It has len(Offsets)-1 observations; the zero Ragged is an
// empty buffer. A gather reuses both slices when they have room, so a loop that
// passes the previous batch back allocates nothing, whatever the lengths, once
// the buffers have grown to the largest batch.
type Ragged[E any] struct {
	Offsets []int
	Values  []E
}

// Len returns the number of observations of the batch.
func (r Ragged[E]) Len() int {
	if len(r.Offsets) == 0 {
		return 0
	}
	return len(r.Offsets) - 1
}

// At returns observation k of the batch, sharing the batch's memory, capped so
// that an append cannot overwrite observation k+1. It panics when k is out of
// range.
func (r Ragged[E]) At(k int) []E {
	lo, hi := r.Offsets[k], r.Offsets[k+1]
	return r.Values[lo:hi:hi]
}

// reset returns r emptied for a batch of n observations, its memory kept.
func (r Ragged[E]) reset(n int) Ragged[E] {
	if cap(r.Offsets) < n+1 {
		r.Offsets = make([]int, 0, n+1)
	}
	r.Offsets = append(r.Offsets[:0], 0)
	r.Values = r.Values[:0]
	return r
}

// add appends one observation.
func (r *Ragged[E]) add(v []E) {
	r.Values = append(r.Values, v...)
	r.Offsets = append(r.Offsets, len(r.Values))
}
