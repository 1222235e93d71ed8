package stream

import "github.com/obskit/obskit/container"

// A Masked batch holds sequences of different lengths padded to the longest
// one, with a mask that tells values from padding: Fuel's Padding, which adds a
// "<name>_mask" source beside each padded source. Data and Mask are row-major
// matrices of Len() rows and Width columns, ready for numeric code (a row of
// Data is one sequence).
type Masked[E any] struct {
	Data  []E       // Len()*Width values: sequence i, then padding, in Data[i*Width:(i+1)*Width]
	Mask  []float32 // same layout: 1 where Data holds a value of the sequence, 0 where it holds padding
	Lens  []int     // the length of each sequence
	Width int       // the length of the longest sequence
}

// Len returns the number of sequences in the batch.
func (p Masked[E]) Len() int { return len(p.Lens) }

// Row returns sequence i with its padding: a view of p.Data, capped to the row.
// It panics with a *container.IndexError when i is out of range.
func (p Masked[E]) Row(i int) []E {
	container.CheckIndex("stream.Masked.Row", i, len(p.Lens))
	return p.Data[i*p.Width : (i+1)*p.Width : (i+1)*p.Width]
}

// MaskRow returns the mask of sequence i: a view of p.Mask, capped to the row.
// It panics with a *container.IndexError when i is out of range.
func (p Masked[E]) MaskRow(i int) []float32 {
	container.CheckIndex("stream.Masked.MaskRow", i, len(p.Lens))
	return p.Mask[i*p.Width : (i+1)*p.Width : (i+1)*p.Width]
}

// MaskBatch pads the sequences of batch with value to the length of the longest
// and returns them with their mask in a newly allocated [Masked] batch; batch is
// not modified or aliased. MaskBatch([[1 2 3] [4 5]], 0) has rows [1 2 3] and
// [4 5 0] and mask rows [1 1 1] and [1 1 0]. Use it inside [Map] to pad one field
// of a batch of records.
func MaskBatch[E any](batch [][]E, value E) Masked[E] {
	width := 0
	for _, s := range batch {
		width = max(width, len(s))
	}
	p := Masked[E]{
		Data:  make([]E, len(batch)*width),
		Mask:  make([]float32, len(batch)*width),
		Lens:  make([]int, len(batch)),
		Width: width,
	}
	for i, s := range batch {
		row, mask := p.Data[i*width:(i+1)*width], p.Mask[i*width:(i+1)*width]
		copy(row, s)
		for j := len(s); j < width; j++ {
			row[j] = value
		}
		for j := range s {
			mask[j] = 1
		}
		p.Lens[i] = len(s)
	}
	return p
}

// Mask returns a [Stream] of the batches of sequences of s, each padded to its
// longest sequence with value and masked by [MaskBatch]: a [Map]. Each batch is
// newly allocated and owned by the consumer.
func Mask[E any](s Stream[[][]E], value E) Stream[Masked[E]] {
	s.check("stream.Mask")
	return Map(s, func(b [][]E) Masked[E] { return MaskBatch(b, value) })
}
