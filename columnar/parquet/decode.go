package parquet

import (
	"errors"
	"fmt"
	"io"

	pq "github.com/parquet-go/parquet-go"

	"github.com/obskit/obskit/arraycontainer"
)

// Decoding uses parquet-go's lower-level API only: the pages of one column
// chunk, their values with their repetition and definition levels, and the
// typed readers of pages that have no nulls. Rows and lists are rebuilt here
// from the levels, so the writer's names for a list's inner fields do not
// matter (parquet-go's struct reader read arrow-rs's lists, whose element is
// named "item", as zeros; see docs/design.md).

// chunkErr returns an error naming the file, the row group and the column.
func (f *File) chunkErr(g int, col Column, format string, args ...any) error {
	gr := f.groups[g]
	return fmtErr.Errorf(gr.part.name, ErrFormat, "row group %d, column %q: %s", gr.k, col.Name, fmt.Sprintf(format, args...))
}

// pages calls fn with each page of column col in row group g, in order,
// guarding reads of the mapping.
func (f *File) pages(g int, col Column, fn func(p pq.Page) error) (err error) {
	gr := f.groups[g]
	r := gr.part.region
	defer r.RecoverError(r.Guard(), &err)
	defer f.recoverChunk(g, col, &err)
	if err := f.checkChunk(g, col); err != nil {
		return err
	}
	cc := gr.part.file.RowGroups()[gr.k].ColumnChunks()[col.leaf]
	pages := cc.Pages()
	defer pages.Close()
	for {
		p, err := pages.ReadPage()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return f.chunkErr(g, col, "%v", err)
		}
		err = fn(p)
		pq.Release(p)
		if err != nil {
			return err
		}
	}
}

// values calls fn with the values of column col in row group g, a slice of up
// to 1024 at a time, with their levels.
func (f *File) values(g int, col Column, fn func(vs []pq.Value) error) error {
	buf := make([]pq.Value, 1024)
	return f.pages(g, col, func(p pq.Page) error {
		vr := p.Values()
		for {
			n, err := vr.ReadValues(buf)
			if n > 0 {
				if err := fn(buf[:n]); err != nil {
					return err
				}
			}
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return f.chunkErr(g, col, "%v", err)
			}
		}
	})
}

// errNull is returned by a decoder that met a null it was given no fill for.
var errNull = errors.New("null")

// number converts a value of column type s to E, whose kind is s's; ok is
// false when it does not fit (a uint8 column holding 300).
func number[E arraycontainer.Number](s scalar, v pq.Value) (E, bool) {
	switch s.phys {
	case pq.Float:
		return E(v.Float()), true
	case pq.Double:
		return E(v.Double()), true
	case pq.Int32:
		x := int64(v.Int32())
		if s.kind.Class == 'u' {
			x = int64(uint32(v.Int32()))
		}
		e := E(x)
		return e, int64(e) == x
	default:
		if s.kind.Class == 'u' {
			u := uint64(v.Int64())
			e := E(u)
			return e, uint64(e) == u
		}
		x := v.Int64()
		e := E(x)
		return e, int64(e) == x
	}
}

// fast reads the values of a page with no nulls and no levels straight into
// dst (stride 1) when E is the page's own Go type, and reports whether it did.
func fast[E arraycontainer.Number](p pq.Page, dst []E) (bool, error) {
	vr := p.Values()
	var n int
	var err error
	switch d := any(dst).(type) {
	case []float32:
		r, ok := vr.(pq.FloatReader)
		if !ok {
			return false, nil
		}
		n, err = readAll(r.ReadFloats, d)
	case []float64:
		r, ok := vr.(pq.DoubleReader)
		if !ok {
			return false, nil
		}
		n, err = readAll(r.ReadDoubles, d)
	case []int64:
		r, ok := vr.(pq.Int64Reader)
		if !ok {
			return false, nil
		}
		n, err = readAll(r.ReadInt64s, d)
	case []int32:
		r, ok := vr.(pq.Int32Reader)
		if !ok {
			return false, nil
		}
		n, err = readAll(r.ReadInt32s, d)
	default:
		return false, nil
	}
	if err == nil && n != len(dst) {
		err = fmt.Errorf("page of %d values read %d", len(dst), n)
	}
	return true, err
}

func readAll[T any](read func([]T) (int, error), dst []T) (int, error) {
	n := 0
	for n < len(dst) {
		k, err := read(dst[n:])
		n += k
		if err == io.EOF {
			break
		}
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// decodeScalar writes the rows of scalar column col of row group g into
// dst[r*stride+off] (rows of the group in order). A null is fill when fill is
// not nil, and the error errNull otherwise; valid, when not nil, gets the
// validity of each row.
func decodeScalar[E arraycontainer.Number](f *File, g int, col Column, dst []E, stride, off int, fill *E, valid []bool) error {
	rows, s := f.groups[g].rows, col.scalar
	row := 0
	var tmp []E
	err := f.pages(g, col, func(p pq.Page) error {
		n := int(p.NumValues())
		if n > rows-row {
			return f.chunkErr(g, col, "%d values past the %d rows of the row group", row+n-rows, rows)
		}
		if p.NumNulls() == 0 {
			var out []E
			if stride == 1 {
				out = dst[row : row+n]
			} else {
				if cap(tmp) < n {
					tmp = make([]E, n)
				}
				out = tmp[:n]
			}
			if ok, err := fast(p, out); ok {
				if err != nil {
					return f.chunkErr(g, col, "%v", err)
				}
				if stride != 1 {
					for i, v := range out {
						dst[(row+i)*stride+off] = v
					}
				}
				if valid != nil {
					for i := row; i < row+n; i++ {
						valid[i] = true
					}
				}
				row += n
				return nil
			}
		}
		buf := make([]pq.Value, min(n, 1024))
		vr := p.Values()
		for {
			k, err := vr.ReadValues(buf)
			for _, v := range buf[:k] {
				if row >= rows {
					return f.chunkErr(g, col, "more values than the %d rows of the row group", rows)
				}
				var e E
				null := v.IsNull()
				switch {
				case null && fill == nil:
					return errNull
				case null:
					e = *fill
				default:
					var ok bool
					if e, ok = number[E](s, v); !ok {
						return f.chunkErr(g, col, "row %d: value %v does not fit a %s", row, v, s.name)
					}
				}
				if valid != nil {
					valid[row] = !null
				}
				dst[row*stride+off] = e
				row++
			}
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return f.chunkErr(g, col, "%v", err)
			}
		}
	})
	if err != nil {
		return err
	}
	if row != rows {
		return f.chunkErr(g, col, "%d values for the %d rows the footer claims", row, rows)
	}
	return nil
}

// A listChunk is a decoded list column of one row group, in Arrow's layout.
type listChunk[E any] struct {
	off   []int64
	vals  []E
	valid []bool // per row; nil when none is null
	nulls int    // null values inside lists (read as the fill)
}

// decodeList decodes list column col of row group g; conv converts a present
// value. A null list reads as empty (valid says which); a null value is fill,
// or the error errNull when fill is nil.
func decodeList[E any](f *File, g int, col Column, conv func(v pq.Value) (E, bool), fill *E) (*listChunk[E], error) {
	rows := f.groups[g].rows
	c := &listChunk[E]{off: make([]int64, 1, rows+1)}
	w := levelWalk{f: f, g: g, c: col, rows: rows, row: -1}
	var scratch census
	err := f.values(g, col, func(vs []pq.Value) error {
		for _, v := range vs {
			rep, def := v.RepetitionLevel(), v.DefinitionLevel()
			if err := w.step(byte(rep), byte(def), &scratch); err != nil {
				return err
			}
			if w.skip {
				continue
			}
			if rep == 0 {
				if row := w.row; row > 0 {
					c.off = append(c.off, int64(len(c.vals)))
				}
				if def < col.listDef {
					if c.valid == nil {
						c.valid = make([]bool, rows)
						for i := range w.row {
							c.valid[i] = true
						}
					}
					continue
				}
				if c.valid != nil {
					c.valid[w.row] = true
				}
				if def == col.listDef {
					continue // empty list
				}
			}
			if def < col.maxDef {
				if fill == nil {
					return errNull
				}
				c.vals = append(c.vals, *fill)
				c.nulls++
				continue
			}
			e, ok := conv(v)
			if !ok {
				return f.chunkErr(g, col, "row %d: value %v does not fit a %s", w.row, v, col.scalar.name)
			}
			c.vals = append(c.vals, e)
		}
		return nil
	})
	if err == nil {
		err = w.end(&scratch)
	}
	if err != nil {
		return nil, err
	}
	c.off = append(c.off, int64(len(c.vals)))
	return c, nil
}

// decodeBytes decodes a utf8 or binary column of row group g, a list of bytes
// per row; a null reads as empty, valid saying which.
func decodeBytes(f *File, g int, col Column) (*listChunk[byte], error) {
	rows := f.groups[g].rows
	c := &listChunk[byte]{off: make([]int64, 1, rows+1)}
	row := 0
	err := f.values(g, col, func(vs []pq.Value) error {
		for _, v := range vs {
			if row >= rows {
				return f.chunkErr(g, col, "more values than the %d rows of the row group", rows)
			}
			if v.IsNull() {
				if c.valid == nil {
					c.valid = make([]bool, rows)
					for i := range row {
						c.valid[i] = true
					}
				}
			} else {
				if c.valid != nil {
					c.valid[row] = true
				}
				c.vals = append(c.vals, v.ByteArray()...)
			}
			row++
			c.off = append(c.off, int64(len(c.vals)))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if row != rows {
		return nil, f.chunkErr(g, col, "%d values for the %d rows the footer claims", row, rows)
	}
	return c, nil
}
