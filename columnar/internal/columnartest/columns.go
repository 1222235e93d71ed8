package columnartest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/columnar/internal/interop"
	"github.com/obskit/obskit/container/containertest"
)

// fullRows is the most rows of a fixture on which the suite runs its two
// costly checks, the container contract and the damage: both are about a
// kind of column and a writer's layout and codec, which the fixtures of 1000
// rows and fewer hold of every writer and format (DuckDB's in
// edge-duckdb.parquet); on DuckDB's main files of 3000 and 6000 rows they
// would cost more time than every other check of the module.
const fullRows = 1000

// fillValue is the value a null number reads as in the suite's reads with
// Fill: no null of the fixtures holds it in its buffers, as 0 may.
const fillValue = 77

// A column is what the suite knows of a column of a fixture before it reads
// it: its rows as Row gives them, and what they hold.
type column struct {
	interop.Column
	fx         interop.Fixture
	path       string
	values     []any // row i as Row gives it
	nulls      int   // null rows (null lists)
	nullValues int   // null values inside lists that are not null
	// minLen and maxLen are the fewest and most values of a list that is
	// not null, -1 with none.
	minLen, maxLen int
	// contract says to check one container of each accessor against
	// containertest's contract.
	contract bool
}

func newColumn(f File, fx interop.Fixture, c interop.Column) *column {
	col := &column{Column: c, fx: fx, path: f.Name(), minLen: -1, maxLen: -1}
	for i := range f.Nobs() {
		v := c.Value(i)
		col.values = append(col.values, v)
		if v == nil {
			col.nulls++
			continue
		}
		if l, ok := v.([]any); ok {
			if col.minLen < 0 || len(l) < col.minLen {
				col.minLen = len(l)
			}
			col.maxLen = max(col.maxLen, len(l))
			for _, e := range l {
				if e == nil {
					col.nullValues++
				}
			}
		}
	}
	return col
}

// checkColumn reads column c of fixture fx every way the reader offers.
func checkColumn(t *testing.T, r Reader, f File, fx interop.Fixture, c interop.Column, contract bool) {
	col := newColumn(f, fx, c)
	col.contract = contract && fx.Rows <= fullRows
	checkValidity(t, f, col)
	switch c.Elem.(type) {
	case int64:
		checkNumbers[int64, uint64](t, r, f, col)
	case int32:
		checkNumbers[int32, uint32](t, r, f, col)
	case int16:
		checkNumbers[int16, uint16](t, r, f, col)
	case uint8:
		checkNumbers[uint8, int8](t, r, f, col)
	case uint16:
		checkNumbers[uint16, int16](t, r, f, col)
	case uint32:
		checkNumbers[uint32, int32](t, r, f, col)
	case uint64:
		checkNumbers[uint64, int64](t, r, f, col)
	case float32:
		checkNumbers[float32, int32](t, r, f, col)
	case float64:
		checkNumbers[float64, int64](t, r, f, col)
	case nil:
		if c.Read == interop.Text {
			checkText(t, f, col)
			break
		}
		// Only Row reads it: every accessor refuses it.
		col.wantErr(t, "Strings", columnar.ErrType, errOf(f.Strings(c.Name, Opts{NullEmpty: true})))
		col.wantErr(t, "Numbers[int32]", columnar.ErrType, errOf(typed[int32](f).Numbers(c.Name, Opts{Fill: int32(0)})))
		col.wantErr(t, "Lists[int32]", columnar.ErrType, errOf(typed[int32](f).Lists(c.Name, Opts{Fill: int32(0), NullEmpty: true})))
	default:
		t.Fatalf("column %s: elements of type %T", c.Name, c.Elem)
	}
}

func errOf[T any](_ T, err error) error { return err }

// wantErr checks that err wraps sentinel and names the file and the column.
func (c *column) wantErr(t *testing.T, what string, sentinel, err error) {
	t.Helper()
	if !errors.Is(err, sentinel) || !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), fmt.Sprintf("%q", c.Name)) {
		t.Errorf("%s: error %v, want one wrapping %q that names %s and column %q", what, err, sentinel, c.path, c.Name)
	}
}

// checkValidity checks Valid and Nulls.
func checkValidity(t *testing.T, f File, c *column) {
	t.Helper()
	valid, err := f.Valid(c.Name)
	if err != nil {
		t.Fatalf("Valid: %v", err)
	}
	for i, v := range c.values {
		if valid[i] != (v != nil) {
			t.Fatalf("Valid()[%d] = %v, want %v", i, valid[i], v != nil)
		}
	}
	if n, err := f.Nulls(c.Name); err != nil || n != int64(c.nulls) {
		t.Errorf("Nulls = %d, %v; want %d", n, err, c.nulls)
	}
}

// number returns the plain value v of a row of c as an E: a date as its
// days, a timestamp in the fixture's unit.
func number[E arraycontainer.Number](c *column, v any) E {
	switch x := v.(type) {
	case int64:
		return E(x)
	case uint64:
		return E(x)
	case float32:
		return E(x)
	case float64:
		return E(x)
	case time.Time:
		switch {
		case c.Time == "day":
			return E(x.Unix() / 86400)
		case c.fx.TS == "us":
			return E(x.UnixMicro())
		default:
			return E(x.UnixMilli())
		}
	}
	panic(fmt.Sprintf("columnartest: column %s: a number of type %T", c.Name, v))
}

// numbers returns the numbers row i of c reads as in Numbers with fill at
// each null: one for a scalar, the values of a list, Width fills for a null
// fixed-size list.
func numbers[E arraycontainer.Number](c *column, i int, fill E) []E {
	v := c.values[i]
	if v == nil {
		if c.Read == interop.Fixed {
			out := make([]E, c.Width)
			for k := range out {
				out[k] = fill
			}
			return out
		}
		if c.Read == interop.Scalar {
			return []E{fill}
		}
		return []E{}
	}
	return values(c, v, fill)
}

// listed returns the numbers row i of c reads as in Lists with fill at each
// null value and NullEmpty: a null list is empty.
func listed[E arraycontainer.Number](c *column, i int, fill E) []E {
	if c.values[i] == nil {
		return []E{}
	}
	return values(c, c.values[i], fill)
}

// values returns the numbers of a row's value v that is not null.
func values[E arraycontainer.Number](c *column, v any, fill E) []E {
	l, ok := v.([]any)
	if !ok {
		return []E{number[E](c, v)}
	}
	out := []E{}
	for _, e := range l {
		if e == nil {
			out = append(out, fill)
		} else {
			out = append(out, number[E](c, e))
		}
	}
	return out
}

// equal is the container contract's equality of numbers: NaN equals NaN.
var equal = cmpopts.EquateNaNs()

// same reports whether a and b hold the same numbers, a NaN equal to a NaN:
// cmp.Equal's answer with equal, without its reflection, which the suite
// would pay for every row of every read.
func same[E arraycontainer.Number](a, b []E) bool {
	return slices.EqualFunc(a, b, func(x, y E) bool { return x == y || x != x && y != y })
}

// checkNumbers reads a column of numbers of type E (a scalar, a fixed-size
// list or a list) with every accessor and every option, and as W, another
// type of numbers, which every accessor refuses.
func checkNumbers[E, W arraycontainer.Number](t *testing.T, r Reader, f File, c *column) {
	tp := typed[E](f)
	fill := E(fillValue)
	withFill := Opts{Fill: fill}
	both := Opts{Fill: fill, NullEmpty: true}
	wrong := typed[W](f)
	c.wantErr(t, fmt.Sprintf("Numbers[%T]", W(0)), columnar.ErrType, errOf(wrong.Numbers(c.Name, Opts{Fill: W(0)})))
	c.wantErr(t, fmt.Sprintf("Lists[%T]", W(0)), columnar.ErrType, errOf(wrong.Lists(c.Name, Opts{Fill: W(0), NullEmpty: true})))
	c.wantErr(t, "Strings", columnar.ErrType, errOf(f.Strings(c.Name, Opts{NullEmpty: true})))

	switch c.Read {
	case interop.Scalar:
		if c.nulls > 0 {
			c.wantErr(t, "Numbers without Fill", columnar.ErrNull, errOf(tp.Numbers(c.Name, Opts{NullEmpty: true})))
			c.wantErr(t, "Scalars without Fill", columnar.ErrNull, errOf(tp.Scalars(c.Name, Opts{})))
		}
		for _, o := range []Opts{{}, withFill} {
			if c.nulls > 0 && o.Fill == nil {
				continue
			}
			x, err := tp.Numbers(c.Name, o)
			if err != nil {
				t.Fatalf("Numbers(%+v): %v", o, err)
			}
			checkNumbersContainer(t, f, c, x, fill, nil, o.Fill != nil)
			s, err := tp.Scalars(c.Name, o)
			if err != nil {
				t.Fatalf("Scalars(%+v): %v", o, err)
			}
			for i := range c.values {
				if want := numbers(c, i, fill)[0]; !same([]E{s[i]}, []E{want}) {
					t.Fatalf("Scalars(%+v)[%d] = %v, want %v", o, i, s[i], want)
				}
			}
		}
		c.wantErr(t, "Lists", columnar.ErrType, errOf(tp.Lists(c.Name, both)))

	case interop.Fixed:
		if c.nulls > 0 || c.nullValues > 0 {
			c.wantErr(t, "Numbers without Fill", columnar.ErrNull, errOf(tp.Numbers(c.Name, Opts{NullEmpty: true})))
		} else {
			x, err := tp.Numbers(c.Name, Opts{})
			if err != nil {
				t.Fatalf("Numbers: %v", err)
			}
			checkNumbersContainer(t, f, c, x, fill, []int{c.Width}, false)
		}
		if c.nulls > 0 && !r.FixedLists {
			c.wantErr(t, "Numbers with Fill of null lists", columnar.ErrNull, errOf(tp.Numbers(c.Name, withFill)))
		} else {
			x, err := tp.Numbers(c.Name, withFill)
			if err != nil {
				t.Fatalf("Numbers with Fill: %v", err)
			}
			checkNumbersContainer(t, f, c, x, fill, []int{c.Width}, true)
		}
		c.wantErr(t, "Scalars", columnar.ErrType, errOf(tp.Scalars(c.Name, withFill)))
		if r.FixedLists {
			c.wantErr(t, "Lists", columnar.ErrType, errOf(tp.Lists(c.Name, both)))
		} else {
			checkLists(t, f, c, tp, fill)
		}

	case interop.List:
		checkLists(t, f, c, tp, fill)
		switch {
		case r.FixedLists:
			c.wantErr(t, "Numbers", columnar.ErrType, errOf(tp.Numbers(c.Name, withFill)))
		case c.nulls > 0:
			c.wantErr(t, "Numbers of null lists", columnar.ErrNull, errOf(tp.Numbers(c.Name, withFill)))
		case c.minLen != c.maxLen:
			c.wantErr(t, "Numbers of lists of several lengths", columnar.ErrType, errOf(tp.Numbers(c.Name, withFill)))
		default:
			x, err := tp.Numbers(c.Name, withFill)
			if err != nil {
				t.Fatalf("Numbers with Fill: %v", err)
			}
			checkNumbersContainer(t, f, c, x, fill, []int{c.maxLen}, true)
		}
		c.wantErr(t, "Scalars", columnar.ErrType, errOf(tp.Scalars(c.Name, withFill)))

	default:
		t.Fatalf("column %s of numbers read as %d", c.Name, c.Read)
	}
}

// checkNumbersContainer checks every row of a Numbers container read with
// fill (shape nil for a scalar): GetObs, a gather of every row in reverse,
// its blocks, and with contract the container contract.
func checkNumbersContainer[E arraycontainer.Number](t *testing.T, f File, c *column, x *columnar.Numbers[E], fill E, shape []int, contract bool) {
	t.Helper()
	if got := x.ObsShape(); !slices.Equal(got, shape) {
		t.Fatalf("ObsShape() = %v, want %v", got, shape)
	}
	if x.Nobs() != len(c.values) || !slices.Equal(x.BlockStarts(), f.Starts()) {
		t.Fatalf("Nobs %d, BlockStarts %v; want %d rows in chunks %v", x.Nobs(), x.BlockStarts(), len(c.values), f.Starts())
	}
	for i := range c.values {
		if got, want := x.GetObs(i).Clone().Data(), numbers(c, i, fill); !same(got, want) {
			t.Fatalf("GetObs(%d) = %v, want %v", i, got, want)
		}
	}
	idx := make([]int, len(c.values))
	for k := range idx {
		idx[k] = len(idx) - 1 - k
	}
	b := x.GetObsInto(nil, idx)
	for k, i := range idx {
		if got, want := b.GetObs(k).Clone().Data(), numbers(c, i, fill); !same(got, want) {
			t.Fatalf("GetObsInto(all in reverse) row %d = %v, want %v", i, got, want)
		}
	}
	if !contract || !c.contract {
		return
	}
	containertest.Run(t, x, containertest.Config[*arraycontainer.Array[E], *arraycontainer.Array[E]]{
		Obs:     func(b *arraycontainer.Array[E], j int) *arraycontainer.Array[E] { return b.GetObs(j) },
		Len:     func(b *arraycontainer.Array[E]) int { return b.Nobs() },
		Options: []cmp.Option{equal},
	})
}

// checkLists reads a list column (or a fixed-size list of a format without
// them) with Lists, with and without NullEmpty and Fill: a null list, a null
// value, is an error unless the option that says what it reads as is given.
func checkLists[E arraycontainer.Number](t *testing.T, f File, c *column, tp Typed[E], fill E) {
	t.Helper()
	for _, o := range []Opts{{}, {NullEmpty: true}, {Fill: fill}, {Fill: fill, NullEmpty: true}} {
		l, err := tp.Lists(c.Name, o)
		what := fmt.Sprintf("Lists(%+v)", o)
		if c.nulls > 0 && !o.NullEmpty || c.nullValues > 0 && o.Fill == nil {
			c.wantErr(t, what, columnar.ErrNull, err)
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if l.Nobs() != len(c.values) || !slices.Equal(l.BlockStarts(), f.Starts()) {
			t.Fatalf("%s: Nobs %d, BlockStarts %v; want %d rows in chunks %v", what, l.Nobs(), l.BlockStarts(), len(c.values), f.Starts())
		}
		for i := range c.values {
			if got, want := l.GetObs(i), listed(c, i, fill); !same(got, want) {
				t.Fatalf("%s: GetObs(%d) = %v, want %v", what, i, got, want)
			}
		}
		idx := make([]int, len(c.values))
		for k := range idx {
			idx[k] = len(idx) - 1 - k
		}
		b := l.GetObsInto(columnar.Ragged[E]{}, idx)
		for k, i := range idx {
			if got, want := b.At(k), listed(c, i, fill); !same(got, want) {
				t.Fatalf("%s: GetObsInto(all in reverse) row %d = %v, want %v", what, i, got, want)
			}
		}
		if o.Fill != nil && o.NullEmpty && c.contract {
			containertest.Run(t, l, containertest.Config[[]E, columnar.Ragged[E]]{
				Obs:     func(b columnar.Ragged[E], j int) []E { return append([]E{}, b.At(j)...) },
				Len:     func(b columnar.Ragged[E]) int { return b.Len() },
				Options: []cmp.Option{equal},
			})
		}
	}
}

// checkText reads a column of text or bytes with Strings and its Binary form,
// with NullEmpty and without, and with the accessors of numbers, which refuse
// it.
func checkText(t *testing.T, f File, c *column) {
	t.Helper()
	c.wantErr(t, "Numbers[int64]", columnar.ErrType, errOf(typed[int64](f).Numbers(c.Name, Opts{Fill: int64(0)})))
	c.wantErr(t, "Lists[uint8]", columnar.ErrType, errOf(typed[uint8](f).Lists(c.Name, Opts{Fill: uint8(0), NullEmpty: true})))
	if c.nulls > 0 {
		c.wantErr(t, "Strings without NullEmpty", columnar.ErrNull, errOf(f.Strings(c.Name, Opts{})))
	}
	for _, o := range []Opts{{}, {NullEmpty: true}} {
		if c.nulls > 0 && !o.NullEmpty {
			continue
		}
		s, err := f.Strings(c.Name, o)
		if err != nil {
			t.Fatalf("Strings(%+v): %v", o, err)
		}
		if s.Nobs() != len(c.values) || !slices.Equal(s.BlockStarts(), f.Starts()) {
			t.Fatalf("Nobs %d, BlockStarts %v; want %d rows in chunks %v", s.Nobs(), s.BlockStarts(), len(c.values), f.Starts())
		}
		b := s.Binary()
		var buf []byte
		for i, v := range c.values {
			var want string
			switch x := v.(type) {
			case string:
				want = x
			case []byte:
				want = string(x)
			}
			if got := s.GetObs(i); got != want {
				t.Fatalf("Strings(%+v).GetObs(%d) = %q, want %q", o, i, got, want)
			}
			if buf, err = b.AppendObs(buf[:0], i); err != nil || string(buf) != want {
				t.Fatalf("Binary().AppendObs(_, %d) = %q, %v; want %q", i, buf, err, want)
			}
		}
		if got, want := b.Where(7), fmt.Sprintf("%s: column %q: row 7", c.path, c.Name); got != want {
			t.Errorf("Where(7) = %q, want %q", got, want)
		}
		if !o.NullEmpty || !c.contract {
			continue
		}
		cfg := containertest.Config[string, columnar.Ragged[byte]]{
			Obs: func(r columnar.Ragged[byte], j int) string { return string(r.At(j)) },
			Len: func(r columnar.Ragged[byte]) int { return r.Len() },
		}
		containertest.Run(t, s, cfg)
		containertest.Run(t, b, containertest.Config[[]byte, columnar.Ragged[byte]]{
			Obs: func(r columnar.Ragged[byte], j int) []byte { return append([]byte{}, r.At(j)...) },
			Len: func(r columnar.Ragged[byte]) int { return r.Len() },
		})
	}
}
