package columnar

import (
	"github.com/obskit/obskit/container"
)

var (
	_ container.Batched[[]float32, Ragged[float32]] = (*Lists[float32])(nil)
	_ container.Batched[string, Ragged[byte]]       = (*Strings)(nil)
)

// Lists is a column of variable-length lists of numbers (Arrow list<int32>,
// list<float32>, a Parquet LIST) seen as a container: observation i is row i as
// a newly allocated []E, and a batch is a [Ragged] gathered into the caller's
// buffer, with no allocation per observation and none at all once the buffer
// has room. A null row reads as an empty list only when the format package was
// asked for that; the column's validity tells them apart. Lists is safe for
// concurrent use.
type Lists[E any] struct {
	op     names
	chunks Chunks[E]
}

// NewLists returns the container of the variable-length column in the chunks
// s, whose parts have offsets. op names it in panics. Format packages call it.
func NewLists[E any](op string, s Chunks[E]) *Lists[E] {
	s.index()
	return &Lists[E]{op: opNames(op), chunks: s}
}

// Nobs returns the number of rows.
func (c *Lists[E]) Nobs() int { return c.chunks.nobs() }

// GetObs returns row i in a newly allocated slice (empty, not nil, for an empty
// list). It panics with a *container.IndexError when i is out of range.
func (c *Lists[E]) GetObs(i int) []E {
	container.CheckIndex(c.op.obs, i, c.Nobs())
	if r := c.chunks.Region; r != nil {
		defer r.Recover(r.Guard())
	}
	cur := cursor[E]{s: &c.chunks}
	p, k := cur.at(i)
	return append([]E{}, p.row(k)...)
}

// GetObsInto gathers the rows at idx into dst, reusing its memory when it has
// room, and returns the batch.
func (c *Lists[E]) GetObsInto(dst Ragged[E], idx []int) Ragged[E] {
	return gatherRagged(c.op, &c.chunks, dst, idx)
}

func gatherRagged[E any](op names, s *Chunks[E], dst Ragged[E], idx []int) Ragged[E] {
	container.CheckIndices(op.into, idx, s.nobs())
	if r := s.Region; r != nil {
		defer r.Recover(r.Guard())
	}
	dst = dst.reset(len(idx))
	cur := cursor[E]{s: s}
	for _, i := range idx {
		p, k := cur.at(i)
		dst.add(p.row(k))
	}
	return dst
}

// Strings is a column of text or bytes (Arrow utf8, binary and their
// dictionary-encoded forms, Parquet BYTE_ARRAY) seen as a container:
// observation i is row i as a string (a copy), and a batch is a [Ragged] of
// bytes gathered into the caller's buffer, with no allocation per observation.
// A dictionary-encoded column reads as its values. Strings is safe for
// concurrent use.
type Strings struct {
	op     names
	chunks Chunks[byte]
}

// NewStrings returns the container of the text column in the chunks s. op
// names it in panics. Format packages call it.
func NewStrings(op string, s Chunks[byte]) *Strings {
	s.index()
	return &Strings{op: opNames(op), chunks: s}
}

// Nobs returns the number of rows.
func (c *Strings) Nobs() int { return c.chunks.nobs() }

// GetObs returns row i as a string. It panics with a *container.IndexError
// when i is out of range.
func (c *Strings) GetObs(i int) string {
	container.CheckIndex(c.op.obs, i, c.Nobs())
	if r := c.chunks.Region; r != nil {
		defer r.Recover(r.Guard())
	}
	cur := cursor[byte]{s: &c.chunks}
	p, k := cur.at(i)
	return string(p.row(k))
}

// GetObsInto gathers the rows at idx into dst, reusing its memory when it has
// room, and returns the batch: the bytes of row idx[k] are dst.At(k).
func (c *Strings) GetObsInto(dst Ragged[byte], idx []int) Ragged[byte] {
	return gatherRagged(c.op, &c.chunks, dst, idx)
}
