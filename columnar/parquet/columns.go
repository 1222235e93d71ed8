package parquet

import (
	"errors"
	"fmt"
	"sync/atomic"

	pq "github.com/parquet-go/parquet-go"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/columnar/internal/lru"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/fileio"
	"golang.org/x/exp/constraints"
)

// column returns the column called name.
func (f *File) column(name string) (Column, error) {
	for _, c := range f.columns {
		if c.Name == name {
			if !c.Supported {
				return c, fmtErr.Errorf(f.name, ErrUnsupported, "column %q: %s", name, c.Type)
			}
			return c, nil
		}
	}
	return Column{}, fmtErr.Errorf(f.name, ErrColumn, "no column %q", name)
}

func (f *File) colErr(name string, sentinel error, format string, args ...any) error {
	return fmtErr.Errorf(f.name, sentinel, "column %q: %s", name, fmt.Sprintf(format, args...))
}

// nullCount returns the nulls the footers count in column c, over every row
// group (statistics a writer may leave out, which count as none).
func (f *File) nullCount(c Column) int64 {
	var n int64
	for _, g := range f.groups {
		md := g.part.file.Metadata().RowGroups[g.k].Columns[c.leaf].MetaData
		n += md.Statistics.NullCount
	}
	return n
}

func fillOf[E arraycontainer.Number](op string, o options) (*E, error) {
	if o.fill == nil {
		return nil, nil
	}
	v, ok := o.fill.(E)
	container.CheckArg(ok, op, "Fill value", o.fill, "a "+fileio.TypeName[E]())
	return &v, nil
}

// decodeErr turns a decoder's errNull into an error naming the column.
func (f *File) decodeErr(g int, c Column, err error) error {
	if errors.Is(err, errNull) {
		gr := f.groups[g]
		return fmtErr.Errorf(gr.part.name, ErrNull, "row group %d, column %q: a null, and no fill was given", gr.k, c.Name)
	}
	return err
}

// decodes counts the row groups the containers have decoded, for the test that
// an epoch in the order of the row groups (eachobs.ShuffleBlocks) decodes each
// once.
var decodes atomic.Int64

// chunks returns the Chunks of a container whose row groups decode through a
// cache of o.cache row groups: a decode error panics in the gather, naming the
// file, the row group and the column.
func chunks[E any](f *File, o options, decode func(g int) (*columnar.Part[E], error)) columnar.Chunks[E] {
	c := lru.New(o.cache, func(g int) (*columnar.Part[E], error) {
		decodes.Add(1)
		return decode(g)
	})
	return columnar.Chunks[E]{
		Starts: f.starts,
		Part: func(g int) *columnar.Part[E] {
			p, err := c.Get(g)
			if err != nil {
				panic(err)
			}
			return p
		},
	}
}

// Numbers returns the columns called names, side by side, as a container of
// arrays: one scalar column of numbers gives rank-0 observations, several give
// observations of shape [len(names)] (features, in the order of names), one
// list column whose lists all have w values (Arrow's fixed-size lists, DuckDB's
// arrays, written as Parquet lists) gives observations of shape [w], which
// Numbers finds by reading the column's levels once, at the call. E must be
// the columns' own type (float32 for a FLOAT column, uint8 for an INT(8,false)
// one), the same for every column named.
//
// Only the named columns are read and decoded, a row group at a time, when a
// gather first needs one of its rows; the container keeps the last [Cache]
// decoded row groups. Read it in the order of eachobs.ShuffleBlocks with a
// cache of at least the order's window, so that each row group is decoded once
// per epoch.
//
// A column whose footer counts nulls is an error wrapping [ErrNull] unless
// [Fill] says what a null reads as; a null found while decoding a column
// whose footer counted none panics in the gather with that error. A list
// column holding null lists is an error wrapping [ErrNull], and one whose
// lists have different lengths one wrapping [ErrType] that gives the
// shortest and the longest ([Lists] reads either). Numbers returns an error
// wrapping [ErrColumn] for a missing column, [ErrType] for a column not of
// type E (or a list column named with others), and [ErrUnsupported] for a
// column the package cannot read. Decoding errors (a corrupt page, a footer
// that claims more rows than the data) panic in the gather with an error
// wrapping [ErrFormat] that names the file, the row group and the column.
func Numbers[E arraycontainer.Number](f *File, names []string, opts ...Option) (*columnar.Numbers[E], error) {
	const op = "parquet.Numbers"
	container.CheckArg(len(names) > 0, op, "names", names, "at least one column")
	o := optionsOf(opts)
	fill, _ := fillOf[E](op, o)
	cols := make([]Column, len(names))
	for i, name := range names {
		c, err := f.column(name)
		if err != nil {
			return nil, err
		}
		if c.scalar.kind != fileio.KindOf[E]() {
			return nil, f.colErr(name, ErrType, "%s cannot be read as %s", c.Type, fileio.TypeName[E]())
		}
		if c.list && len(names) > 1 {
			return nil, f.colErr(name, ErrType, "a list column must be read alone")
		}
		if fill == nil && !c.list && f.nullCount(c) > 0 {
			return nil, f.colErr(name, ErrNull, "%d nulls; say what a null reads as with parquet.Fill", f.nullCount(c))
		}
		cols[i] = c
	}
	if cols[0].list {
		return listNumbers(f, cols[0], o, fill)
	}
	k := len(cols)
	shape := []int{k}
	if k == 1 {
		shape = []int{}
	}
	s := chunks(f, o, func(g int) (*columnar.Part[E], error) {
		rows := f.groups[g].rows
		vals := make([]E, rows*k)
		if k == 1 {
			if err := decodeScalar(f, g, cols[0], vals, 1, 0, fill, nil); err != nil {
				return nil, f.decodeErr(g, cols[0], err)
			}
			return &columnar.Part[E]{Values: vals}, nil
		}
		// Each column decodes into its own run of memory, then the runs are
		// interleaved into rows tile by tile, so that the writes of a tile
		// stay in cache (a column written straight into rows strides through
		// the whole row group once per column).
		byCol := make([]E, rows*k)
		for j, c := range cols {
			if err := decodeScalar(f, g, c, byCol[j*rows:(j+1)*rows], 1, 0, fill, nil); err != nil {
				return nil, f.decodeErr(g, c, err)
			}
		}
		interleave(vals, byCol, rows, k)
		return &columnar.Part[E]{Values: vals}, nil
	})
	return columnar.NewNumbers(op, s, shape, nil), nil
}

// listNumbers is Numbers of one list column whose lists have one length,
// which the column's levels tell (read once, at the call).
func listNumbers[E arraycontainer.Number](f *File, c Column, o options, fill *E) (*columnar.Numbers[E], error) {
	cs, err := f.census(c)
	switch {
	case err != nil:
		return nil, err
	case cs.nulls > 0:
		return nil, f.colErr(c.Name, ErrNull, "%d null lists in a column read as arrays of one length (parquet.Lists reads them)", cs.nulls)
	case cs.nullValues > 0 && fill == nil:
		return nil, f.colErr(c.Name, ErrNull, "%d null values in its lists; say what a null reads as with parquet.Fill", cs.nullValues)
	case cs.minLen != cs.maxLen:
		return nil, f.colErr(c.Name, ErrType, "lists of %d to %d values: Numbers reads lists of one length (parquet.Lists reads any)", cs.minLen, cs.maxLen)
	}
	w := int(max(cs.maxLen, 0))
	conv := func(v pq.Value) (E, bool) { return number[E](c.scalar, v) }
	s := chunks(f, o, func(g int) (*columnar.Part[E], error) {
		lc, err := decodeList(f, g, c, conv, fill)
		if err != nil {
			return nil, f.decodeErr(g, c, err)
		}
		for r := range f.groups[g].rows {
			if n := int(lc.off[r+1] - lc.off[r]); n != w || lc.valid != nil && !lc.valid[r] {
				return nil, f.chunkErr(g, c, "row %d has %d values, where its levels had %d", r, n, w)
			}
		}
		return &columnar.Part[E]{Values: lc.vals}, nil
	})
	return columnar.NewNumbers("parquet.Numbers", s, []int{w}, nil), nil
}

// Scalars returns one column of numbers as a container.Slice in memory, a
// copy: the form labels take beside features (tuples.Zip2), which
// subset.StratifiedSplit reads. Only that column is read. Its types, options
// and errors are those of [Numbers], returned here rather than panicked, since
// Scalars decodes every row group at once.
func Scalars[E arraycontainer.Number](f *File, name string, opts ...Option) (container.Slice[E], error) {
	const op = "parquet.Scalars"
	o := optionsOf(opts)
	fill, _ := fillOf[E](op, o)
	c, err := f.column(name)
	if err != nil {
		return nil, err
	}
	if c.list || c.scalar.kind != fileio.KindOf[E]() {
		return nil, f.colErr(name, ErrType, "%s cannot be read as scalars of %s", c.Type, fileio.TypeName[E]())
	}
	out := make([]E, f.Nobs())
	for g := range f.groups {
		if err := decodeScalar(f, g, c, out[f.starts[g]:f.starts[g+1]], 1, 0, fill, nil); err != nil {
			return nil, f.decodeErr(g, c, err)
		}
	}
	return container.FromSlice(out), nil
}

// Lists returns a list column of numbers as a container of variable-length
// lists: observation i is a []E, a batch a [columnar.Ragged] gathered with no
// allocation per observation. Row groups decode on demand as in [Numbers]. A
// column holding null lists is an error wrapping [ErrNull] unless [NullEmpty]
// makes a null list read as empty (an empty list is a list, not a null); one
// holding null values inside its lists is one unless [Fill] says what they
// read as. When the footers cannot tell these apart (their counts add empty
// lists and null values to the null lists), Lists reads the column's levels
// once to count them, and returns an error wrapping [ErrFormat] naming the
// row group for levels that do not decode.
func Lists[E arraycontainer.Number](f *File, name string, opts ...Option) (*columnar.Lists[E], error) {
	const op = "parquet.Lists"
	o := optionsOf(opts)
	fill, _ := fillOf[E](op, o)
	c, err := f.column(name)
	if err != nil {
		return nil, err
	}
	if !c.list || c.scalar.kind != fileio.KindOf[E]() {
		return nil, f.colErr(name, ErrType, "%s cannot be read as lists of %s", c.Type, fileio.TypeName[E]())
	}
	if !o.nullEmpty {
		if n, err := f.nulls(c); err != nil || n > 0 {
			return nil, nullErr(err, f.colErr(name, ErrNull, "%d null lists; read them as empty with parquet.NullEmpty", n))
		}
	}
	if fill == nil {
		if n, err := f.nullValues(c); err != nil || n > 0 {
			return nil, nullErr(err, f.colErr(name, ErrNull, "%d null values in its lists; say what a null reads as with parquet.Fill", n))
		}
	}
	conv := func(v pq.Value) (E, bool) { return number[E](c.scalar, v) }
	s := chunks(f, o, func(g int) (*columnar.Part[E], error) {
		lc, err := decodeList(f, g, c, conv, fill)
		if err != nil {
			return nil, f.decodeErr(g, c, err)
		}
		return &columnar.Part[E]{Values: lc.vals, Off64: lc.off}, nil
	})
	return columnar.NewLists(op, s), nil
}

// Strings returns a utf8 or binary column as a container of strings:
// observation i is a string, a batch a [columnar.Ragged] of bytes gathered
// with no allocation per observation. Dictionary-encoded pages read as their
// values. Its Binary method gives the rows as []byte, a container.Encoded
// whose AppendObs returns a page that does not decode as an error: a column of
// encoded images decodes with imagedata.NewImages. A column that may hold
// nulls is an error wrapping [ErrNull] unless [NullEmpty] makes a null read as
// empty.
func Strings(f *File, name string, opts ...Option) (*columnar.Strings, error) {
	const op = "parquet.Strings"
	o := optionsOf(opts)
	c, err := f.column(name)
	if err != nil {
		return nil, err
	}
	if c.list || !c.scalar.bytes {
		return nil, f.colErr(name, ErrType, "%s is not text or binary", c.Type)
	}
	if c.Nullable && !o.nullEmpty && f.nullCount(c) > 0 {
		return nil, f.colErr(name, ErrNull, "%d nulls; read them as empty with parquet.NullEmpty", f.nullCount(c))
	}
	s := chunks(f, o, func(g int) (*columnar.Part[byte], error) {
		lc, err := decodeBytes(f, g, c)
		if err != nil {
			return nil, err
		}
		if lc.valid != nil && !o.nullEmpty {
			return nil, f.decodeErr(g, c, errNull)
		}
		return &columnar.Part[byte]{Values: lc.vals, Off64: lc.off}, nil
	})
	s.Name = fmt.Sprintf("%s: column %q", f.name, name)
	return columnar.NewStrings(op, s), nil
}

// Valid returns the validity of a column: observation i is false when row i
// (for a list column, the list) is null. It decodes the column's levels in
// every row group now.
func Valid(f *File, name string) (container.Slice[bool], error) {
	c, err := f.column(name)
	if err != nil {
		return nil, err
	}
	out := make([]bool, f.Nobs())
	for g := range f.groups {
		v := out[f.starts[g]:f.starts[g+1]]
		row := -1
		err := f.values(g, c, func(vs []pq.Value) error {
			for _, x := range vs {
				if x.RepetitionLevel() != 0 {
					continue
				}
				row++
				if row >= len(v) {
					return f.chunkErr(g, c, "more rows than the %d of the row group", len(v))
				}
				if c.list {
					v[row] = x.DefinitionLevel() >= c.listDef
				} else {
					v[row] = !x.IsNull()
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if row+1 != len(v) {
			return nil, f.chunkErr(g, c, "%d rows for the %d the footer claims", row+1, len(v))
		}
	}
	return container.FromSlice(out), nil
}

// Nulls returns the number of null rows of the column called name, as Arrow
// counts them: for a list column, the null lists (an empty list is not null,
// nor is a list holding null values). It takes the footers' counts when they
// tell (a scalar column whose every row group counts its nulls, a list
// column they count none for) and otherwise reads the column's levels, once:
// the footers count a list column's empty lists and null values with its
// null lists. It returns an error wrapping [ErrColumn] for no such column,
// one wrapping [ErrUnsupported] for a column of several leaves (a struct, a
// map, nested lists), and one wrapping [ErrFormat] naming the row group for
// levels that do not decode.
func (f *File) Nulls(name string) (int64, error) {
	for _, c := range f.columns {
		if c.Name == name {
			return f.nulls(c)
		}
	}
	return 0, fmtErr.Errorf(f.name, ErrColumn, "no column %q", name)
}

// nulls returns the null rows of column c (see Nulls).
func (f *File) nulls(c Column) (int64, error) {
	if c.group {
		return 0, f.colErr(c.Name, ErrUnsupported, "%s: the nulls of a column of several leaves are not counted", c.Type)
	}
	if !c.Nullable {
		return 0, nil
	}
	n, known := f.footerNulls(c)
	if known && (!c.list || n == 0) {
		return n, nil
	}
	cs, err := f.census(c)
	return cs.nulls, err
}

// nullValues returns the null values inside the lists of list column c.
func (f *File) nullValues(c Column) (int64, error) {
	if !c.ElemNullable {
		return 0, nil
	}
	if n, known := f.footerNulls(c); known && n == 0 {
		return 0, nil
	}
	cs, err := f.census(c)
	return cs.nullValues, err
}

// footerNulls returns the levels below the leaf's maximum definition level
// that the footers count in column c, and whether every row group's footer
// counts them (a writer may leave statistics out, which reads as a count of
// 0 with no minimum or maximum).
func (f *File) footerNulls(c Column) (n int64, known bool) {
	known = true
	for _, g := range f.groups {
		st := g.part.file.Metadata().RowGroups[g.k].Columns[c.leaf].MetaData.Statistics
		if st.NullCount == 0 && st.Max == nil && st.MaxValue == nil && st.Min == nil && st.MinValue == nil {
			known = false
		}
		n += st.NullCount
	}
	return n, known
}

// interleave writes the k columns of rows values each in byCol (column j at
// byCol[j*rows:]) into dst row by row, in tiles of 16 rows.
func interleave[E any](dst, byCol []E, rows, k int) {
	const tile = 16
	for r0 := 0; r0 < rows; r0 += tile {
		r1 := min(rows, r0+tile)
		for j := range k {
			col := byCol[j*rows+r0 : j*rows+r1]
			for i, v := range col {
				dst[(r0+i)*k+j] = v
			}
		}
	}
}

// nullErr returns err when it is not nil (the levels did not decode), and
// null otherwise.
func nullErr(err, null error) error {
	if err != nil {
		return err
	}
	return null
}

// Labels returns an integer column as labels of type int, the form
// subset's stratified splits and eachobs.ShuffleWithin read, so that a caller
// names no element type: it is [Scalars] of the column's own integer type,
// converted. It returns an error wrapping [ErrType] for a column that is not
// of integers, or holds an unsigned value beyond int's range, naming the
// column; otherwise its options and errors are those of Scalars.
func Labels(f *File, name string, opts ...Option) (container.Slice[int], error) {
	c, err := f.column(name)
	if err != nil {
		return nil, err
	}
	switch k := c.scalar.kind; {
	case c.list || k.Class == 'f':
		return nil, f.colErr(name, ErrType, "%s cannot be read as integer labels", c.Type)
	case k == fileio.KindOf[int8]():
		return labelsOf[int8](f, name, opts)
	case k == fileio.KindOf[int16]():
		return labelsOf[int16](f, name, opts)
	case k == fileio.KindOf[int32]():
		return labelsOf[int32](f, name, opts)
	case k == fileio.KindOf[int64]():
		return labelsOf[int64](f, name, opts)
	case k == fileio.KindOf[uint8]():
		return labelsOf[uint8](f, name, opts)
	case k == fileio.KindOf[uint16]():
		return labelsOf[uint16](f, name, opts)
	case k == fileio.KindOf[uint32]():
		return labelsOf[uint32](f, name, opts)
	default:
		return labelsOf[uint64](f, name, opts)
	}
}

// labelsOf reads a column with Scalars[E] and converts it to int labels.
func labelsOf[E constraints.Integer](f *File, name string, opts []Option) (container.Slice[int], error) {
	s, err := Scalars[E](f, name, opts...)
	if err != nil {
		return nil, err
	}
	out, bad := fileio.IntLabels(s)
	if bad >= 0 {
		return nil, f.colErr(name, ErrType, "row %d holds %v, beyond int's range", bad, s[bad])
	}
	return container.FromSlice(out), nil
}
