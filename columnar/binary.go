package columnar

import (
	"errors"
	"runtime"
	"strconv"

	"github.com/obskit/obskit/container"
)

var (
	_ container.Encoded                       = (*Binary)(nil)
	_ container.Batched[[]byte, Ragged[byte]] = (*Binary)(nil)
	_ container.Blocked                       = (*Binary)(nil)
)

// Binary is a column of byte strings (Arrow binary and utf8 and their
// dictionary-encoded forms, Parquet BYTE_ARRAY) seen as a container of []byte:
// the rows of a [Strings] column, each a copy of its bytes, and a batch a
// [Ragged] of bytes gathered into the caller's buffer. Get one with
// [Strings.Binary].
//
// Binary is a container.Encoded: [Binary.AppendObs] copies a row into a buffer
// the caller reuses, with no allocation once the buffer has room, and returns
// as an error what GetObs panics with (a chunk that does not decode, a page of
// a mapping lost); [Binary.Where] names the file, the column and the row. A
// column of encoded images (the bytes of JPEG files in a Parquet table) is
// decoded by imagedata.NewImages, each image read into the decoder's reused
// buffer. Binary is safe for concurrent use.
type Binary struct {
	op                names
	appendOp, whereOp string
	chunks            Chunks[byte]
}

// Binary returns the column as a container of []byte, reading the same chunks
// (and a format's cache of decoded chunks) as c.
func (c *Strings) Binary() *Binary {
	op := c.op.op + ".Binary"
	return &Binary{op: opNames(op), appendOp: op + ".AppendObs", whereOp: op + ".Where", chunks: c.chunks}
}

// Nobs returns the number of rows.
func (c *Binary) Nobs() int { return c.chunks.nobs() }

// GetObs returns row i in a newly allocated slice (empty, not nil, for an
// empty row). It panics with a *container.IndexError when i is out of range,
// and with the error of [Binary.AppendObs] when the row cannot be read.
func (c *Binary) GetObs(i int) []byte {
	container.CheckIndex(c.op.obs, i, c.Nobs())
	b, err := c.appendRow([]byte{}, i)
	if err != nil {
		panic(err)
	}
	return b
}

// GetObsInto gathers the rows at idx into dst, reusing its memory when it has
// room, and returns the batch: the bytes of row idx[k] are dst.At(k).
func (c *Binary) GetObsInto(dst Ragged[byte], idx []int) Ragged[byte] {
	return gatherRagged(c.op, &c.chunks, dst, idx)
}

// AppendObs appends the bytes of row i to dst and returns the extended slice,
// or dst and an error: the format's error naming the file, the chunk and the
// column when the chunk cannot be read (a page that does not decompress), one
// naming the file when its mapping lost the pages. It panics with a
// *container.IndexError when i is out of range. It does not retain dst, and is
// safe to call from several goroutines at once (see container.Encoded).
func (c *Binary) AppendObs(dst []byte, i int) ([]byte, error) {
	container.CheckIndex(c.appendOp, i, c.Nobs())
	return c.appendRow(dst, i)
}

// Where returns where row i is stored, for messages: the column's file and
// name and the row ("train.parquet: column \"jpeg\": row 17"). It panics with a
// *container.IndexError when i is out of range.
func (c *Binary) Where(i int) string {
	container.CheckIndex(c.whereOp, i, c.Nobs())
	row := "row " + strconv.Itoa(i)
	if c.chunks.Name == "" {
		return row
	}
	return c.chunks.Name + ": " + row
}

// BlockStarts returns the first row of each chunk of the column and, last,
// the number of rows, as [Numbers.BlockStarts] does.
func (c *Binary) BlockStarts() []int { return c.chunks.Starts }

// appendRow is AppendObs of a checked i: the error a chunk's Part panics
// with, as Chunks says it does when the chunk cannot be read, is returned.
func (c *Binary) appendRow(dst []byte, i int) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(error)
			var re runtime.Error
			if !ok || errors.As(e, &re) {
				panic(r) // a bug, not a chunk that cannot be read
			}
			b, err = dst, e
		}
	}()
	return c.read(dst, i)
}

// read appends row i to dst, a fault of the mapping returned as an error.
func (c *Binary) read(dst []byte, i int) (b []byte, err error) {
	if r := c.chunks.Region; r != nil {
		defer r.RecoverError(r.Guard(), &err)
	}
	b = dst // what a fault returns
	cur := cursor[byte]{s: &c.chunks}
	p, k := cur.at(i)
	return append(dst, p.row(k)...), nil
}
