package arrowipc

import (
	"fmt"
	"math"
)

// Open checks every batch against the schema before anything reads it: each
// field node's length and null count against the buffers that hold its rows,
// a top-level column's length against the batch's, a child array's against
// what its parent needs. Every count a reader later sizes memory by (rows,
// values, dictionary entries) is then bounded by bytes of the file, or, for a
// compressed buffer, by the length its prefix declares, itself bounded by the
// codec's largest ratio to the compressed bytes.

// A checker walks the field nodes and buffers of one batch in the order the
// format lays them out (depth first, each field's buffers before its
// children's).
type checker struct {
	f    *File
	b    batch
	what string // "record batch", "dictionary batch"
	off  int64  // of the batch's message in the file
	node int    // the next field node
	buf  int    // the next buffer
	view int    // the next entry of the variadic buffer counts
}

// checkArrays checks batch b (a "record batch" or a "dictionary batch" at byte
// off) against fields, each of which must have the batch's length, and
// returns the index of the first buffer of each field, which a view column's
// variadic buffers shift from the schema's layout.
func (f *File) checkArrays(what string, b batch, off int64, fields []Field) ([]int, error) {
	c := &checker{f: f, b: b, what: what, off: off}
	first := make([]int, len(fields))
	for i, fd := range fields {
		first[i] = c.buf
		if err := c.field(fd, fd.Name, b.meta.length, true, 0); err != nil {
			return nil, err
		}
	}
	if c.view != len(b.meta.variadic) {
		return nil, c.errorf("%d variadic buffer counts for %d view columns", len(b.meta.variadic), c.view)
	}
	return first, nil
}

func (c *checker) errorf(format string, args ...any) error {
	return c.f.errorf("%s at byte %d: %s", c.what, c.off, fmt.Sprintf(format, args...))
}

// field checks the next field node, of field fd (path names it in errors),
// against want rows: exactly want for a column of the batch, at least want
// for a child array, which may hold more than its parent uses.
func (c *checker) field(fd Field, path string, want int64, exact bool, depth int) error {
	if depth > maxDepth {
		return c.errorf("column %q nested deeper than %d", path, maxDepth)
	}
	if c.node >= len(c.b.meta.nodes) {
		return c.errorf("%d field nodes, the schema needs more (column %q)", len(c.b.meta.nodes), path)
	}
	nd := c.b.meta.nodes[c.node]
	c.node++
	n := nd.length
	switch {
	case n < 0 || n > maxRows:
		return c.errorf("column %q: an array of %d rows", path, n)
	case nd.nulls < 0 || nd.nulls > n:
		return c.errorf("column %q: %d nulls in %d rows", path, nd.nulls, n)
	case exact && n != want:
		return c.errorf("column %q has %d rows, the batch %d", path, n, want)
	case n < want:
		return c.errorf("column %q: a child array of %d values, its parent needs %d", path, n, want)
	}
	t := fd.Type
	nbuf := buffersOf(t)
	if fd.Dict != nil {
		nbuf = 2
	}
	// need checks that buffer i of the field holds at least size bytes.
	need := func(i int, size int64, what string) error {
		if c.buf+i >= len(c.b.meta.buffers) {
			return c.errorf("%d buffers, the schema needs more (column %q)", len(c.b.meta.buffers), path)
		}
		if have := c.f.bufferLen(c.b, c.buf+i); size < 0 || have < size {
			return c.errorf("column %q: %s of %d bytes for %d rows", path, what, have, n)
		}
		return nil
	}
	times := func(w int64) int64 { return mul(n, w) }
	hasValidity := t.Kind != Null && t.Kind != Union && t.Kind != RunEndEncoded
	if nbuf > 0 {
		// The field's buffers must exist even when empty.
		if err := need(nbuf-1, 0, "buffer"); err != nil {
			return err
		}
	}
	if hasValidity && nd.nulls > 0 {
		if err := need(0, (n+7)/8, "validity bitmap"); err != nil {
			return err
		}
	}
	if fd.Dict != nil {
		if err := need(1, times(int64(fd.Dict.Bits/8)), "index buffer"); err != nil {
			return err
		}
		c.buf += nbuf
		return nil
	}
	offsets := func(size int64) error {
		if n == 0 {
			return nil // writers may leave the offsets of no rows out
		}
		return need(1, mul(n+1, size), "offset buffer")
	}
	var err error
	switch t.Kind {
	case Bool:
		err = need(1, (n+7)/8, "data buffer")
	case Int, Float, Date, Time, Timestamp, Duration, Decimal, Interval, FixedSizeBinary:
		err = need(1, times(fixedWidth(t)), "data buffer")
	case Binary, Utf8, List, Map:
		err = offsets(4)
	case LargeBinary, LargeUtf8, LargeList:
		err = offsets(8)
	case ListView, LargeListView:
		size := int64(4)
		if t.Kind == LargeListView {
			size = 8
		}
		if err = need(1, times(size), "offset buffer"); err == nil {
			err = need(2, times(size), "size buffer")
		}
	case BinaryView, Utf8View:
		err = need(1, times(16), "view buffer")
	case Union:
		if err = need(0, n, "type id buffer"); err == nil && t.Dense {
			err = need(1, times(4), "offset buffer")
		}
	}
	if err != nil {
		return err
	}
	c.buf += nbuf
	if t.Kind == BinaryView || t.Kind == Utf8View {
		if c.view >= len(c.b.meta.variadic) {
			return c.errorf("no variadic buffer count for view column %q", path)
		}
		c.buf += int(c.b.meta.variadic[c.view])
		c.view++
	}
	switch t.Kind {
	case List, LargeList, ListView, LargeListView:
		// The offsets, read with the values, bound what the child must hold.
		return c.field(*t.Elem, path+"."+t.Elem.Name, 0, false, depth+1)
	case FixedSizeList:
		w := times(int64(t.Size))
		if w < 0 {
			return c.errorf("column %q: %d lists of %d values overflow", path, n, t.Size)
		}
		return c.field(*t.Elem, path+"."+t.Elem.Name, w, false, depth+1)
	}
	for _, ch := range t.Children {
		want := n
		if t.Kind == Map || t.Kind == RunEndEncoded || t.Kind == Union && t.Dense {
			want = 0 // a map's entries, run ends and dense children have lengths of their own
		}
		if err := c.field(ch, path+"."+ch.Name, want, false, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// mul returns n*w for n, w >= 0, or -1 when it overflows (which a check of
// a buffer's size then refuses).
func mul(n, w int64) int64 {
	if w > 0 && n > math.MaxInt64/w {
		return -1
	}
	return n * w
}

// fixedWidth returns the bytes a row of a fixed-width type takes at least: its
// width, or for a decimal or an interval, whose width the schema's parse does
// not keep, the narrowest Arrow defines (4 bytes).
func fixedWidth(t Type) int64 {
	switch t.Kind {
	case Int, Float, Time, FixedSizeBinary:
		return int64(t.Bits / 8)
	case Date:
		if t.Unit == "day" {
			return 4
		}
		return 8
	case Timestamp, Duration:
		return 8
	}
	return 4
}

// backed reports whether every row of a column of field fd takes bytes of the
// batch (a value, an offset, an index): only then is its row count bounded
// by the file's size. A column of type null, a run-end encoded one, a struct
// of such columns or a fixed-size list of none of them hold rows without bytes.
func backed(fd Field) bool {
	if fd.Dict != nil {
		return true
	}
	switch t := fd.Type; t.Kind {
	case Null, RunEndEncoded:
		return false
	case FixedSizeBinary:
		return t.Bits > 0
	case FixedSizeList:
		return t.Size > 0 && backed(*t.Elem)
	case Struct:
		for _, ch := range t.Children {
			if backed(ch) {
				return true
			}
		}
		return false
	}
	return true
}
