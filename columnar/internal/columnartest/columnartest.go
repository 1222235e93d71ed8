// Package columnartest is the conformance suite every reader of columnar files
// in the module runs, as testing/fstest checks every fs.FS: package arrowipc's
// and package parquet's tests each adapt their reader to a [File] and call
// [Run] with their fixtures of testdata/interop (written by apache-arrow,
// arrow-go, parquet-wasm and DuckDB), so that one set of checks holds both
// formats to one behaviour.
//
// [Run] checks, for every fixture: its rows and chunks, whose starts are every
// container's blocks; its schema against schema.golden (names, types in
// Arrow's words, which fields and list values may be null); every row as Row
// or Rows gives it against the table's formula (interop.Main, interop.Edge),
// type for type, and the printed form of the first rows against the table's
// golden file; and every column read every way an accessor offers: numbers,
// fixed-size lists and lists with Fill, NullEmpty, both and neither (a null
// is never read silently: without the option that says what it reads as, the
// accessor's error wraps columnar.ErrNull), a column with one null, required
// and optional lists of required and optional values, dictionaries with
// nulls, unsigned integers past the signed range and dates before 1970;
// validity and null counts; the containers against container/containertest's
// contract; and accessors given a column of another type (columnar.ErrType).
// [Damage] reads copies of a file cut short and with bits flipped through
// [ReadAll], which reads a file every way the reader offers. The contract and
// the damage run on the fixtures of at most 1000 rows, which hold every
// writer, codec and kind of column.
//
// Run `go test ./... -update` in the module to write the golden files again
// after a change of the fixtures, and read the diff.
package columnartest

import (
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/columnar/internal/interop"
	"github.com/obskit/obskit/container"
)

var update = flag.Bool("update", false, "write the golden files of package columnartest again")

// Opts says what a null reads as, for an accessor: Fill, when not nil, is the
// value of a null number (of the accessor's element type E); NullEmpty makes
// a null list or string read as empty.
type Opts struct {
	Fill      any
	NullEmpty bool
}

// A Field is a column of a file's schema, as the suite compares it with
// schema.golden.
type Field struct {
	Name string
	Type string // in Arrow's words: "int64", "list<int32>", "fixed_size_list<float32>[4]"
	// Nullable reports whether a row may be null; ElemNullable whether a
	// value inside a list may be.
	Nullable, ElemNullable bool
}

// A File is an open file of the reader under test, with the reader's
// accessors. Each method is the reader's own, the options translated.
type File interface {
	Name() string
	Nobs() int
	// Starts returns the first row of each chunk (record batch, row group)
	// and, last, the number of rows.
	Starts() []int
	Fields() []Field
	// Nulls returns the null rows of a column (the null lists of a list
	// column), as the reader counts them.
	Nulls(name string) (int64, error)
	Valid(name string) (container.Slice[bool], error)
	Strings(name string, o Opts) (*columnar.Strings, error)
	// ChunkRows returns the rows of chunk k as Row (arrowipc) or Rows
	// (parquet) gives them.
	ChunkRows(k int) ([][]any, error)
	// Elem returns the reader's accessors of numbers of the type of zero, a
	// Typed[E] for zero of type E.
	Elem(zero any) any
}

// Typed holds a reader's accessors of numbers of type E.
type Typed[E arraycontainer.Number] interface {
	Numbers(name string, o Opts) (*columnar.Numbers[E], error)
	Scalars(name string, o Opts) (container.Slice[E], error)
	Lists(name string, o Opts) (*columnar.Lists[E], error)
}

// A Reader is a format package under test.
type Reader struct {
	Name string // "arrowipc", "parquet"
	Open func(path string) (File, error)
	// OpenErrors are the sentinels an error of Open about a damaged file
	// may wrap (ErrFormat, ErrUnsupported); Errors those of any other read
	// of one (a column whose damaged type no longer reads as asked, too).
	OpenErrors, Errors []error
	// More, when not nil, makes ReadAll's reads of f that only the format
	// offers, each through try, which collects the error it returns or
	// panics with.
	More func(t *testing.T, f File, try func(read func() error))
	// FixedLists reports a format with fixed-size lists (Arrow): Numbers with
	// Fill reads a null list as Width fills, and Lists refuses the column. In
	// a format without them (Parquet), a fixed-size list is a list whose
	// non-null lists have one length: Numbers refuses its null lists, Lists
	// reads it as any list.
	FixedLists bool
}

// typed returns f's accessors of numbers of type E.
func typed[E arraycontainer.Number](f File) Typed[E] {
	var zero E
	return f.Elem(zero).(Typed[E])
}

// Run runs the suite on the committed fixtures fxs with reader r.
func Run(t *testing.T, r Reader, fxs []interop.Fixture) {
	run(t, r, interop.Dir(), fxs, true)
}

// RunDir runs the suite on the fixtures fxs in directory dir, written again
// by their writers (interop.Regenerate): every check of their rows and
// columns, but not the container contract and the damage, which read the
// same bytes as the committed fixtures'.
func RunDir(t *testing.T, r Reader, dir string, fxs []interop.Fixture) {
	run(t, r, dir, fxs, false)
}

// run runs the suite; all adds the container contract and the damage.
func run(t *testing.T, r Reader, dir string, fxs []interop.Fixture, all bool) {
	for _, fx := range fxs {
		t.Run(fx.Name, func(t *testing.T) {
			path := filepath.Join(dir, fx.Name)
			f, err := r.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			checkFile(t, f, fx)
			for _, c := range fx.Table.Columns {
				t.Run(c.Name, func(t *testing.T) { checkColumn(t, r, f, fx, c, all) })
			}
			if all && fx.Rows <= fullRows {
				t.Run("damage", func(t *testing.T) { runDamage(t, r, path, fx) })
			}
		})
	}
}

// checkFile checks the rows, chunks, schema and rows of a fixture.
func checkFile(t *testing.T, f File, fx interop.Fixture) {
	t.Helper()
	starts := f.Starts()
	if f.Nobs() != fx.Rows || len(starts) != fx.Chunks+1 || starts[0] != 0 || starts[len(starts)-1] != fx.Rows {
		t.Fatalf("Nobs %d, chunk starts %v; want %d rows in %d chunks", f.Nobs(), starts, fx.Rows, fx.Chunks)
	}
	for k := range fx.Chunks {
		if starts[k] > starts[k+1] {
			t.Fatalf("chunk starts %v run backwards", starts)
		}
	}
	checkSchema(t, f, fx)
	checkRows(t, f, fx)
	checkMissing(t, f)
}

// checkMissing checks that every accessor given a column the file does not
// have returns an error wrapping columnar.ErrColumn that names the file and
// the column.
func checkMissing(t *testing.T, f File) {
	t.Helper()
	const name = "no-such-column"
	tp := typed[float32](f)
	// arrowipc's Nulls counts no null of a column it does not have.
	if n, err := f.Nulls(name); err == nil && n != 0 {
		t.Errorf("Nulls of a missing column = %d, nil; want 0 or an error", n)
	} else if err != nil && !errors.Is(err, columnar.ErrColumn) {
		t.Errorf("Nulls of a missing column: error %v, want one wrapping %q", err, columnar.ErrColumn)
	}
	for what, err := range map[string]error{
		"Valid":   errOf(f.Valid(name)),
		"Strings": errOf(f.Strings(name, Opts{NullEmpty: true})),
		"Numbers": errOf(tp.Numbers(name, Opts{Fill: float32(0)})),
		"Scalars": errOf(tp.Scalars(name, Opts{Fill: float32(0)})),
		"Lists":   errOf(tp.Lists(name, Opts{Fill: float32(0), NullEmpty: true})),
	} {
		if !errors.Is(err, columnar.ErrColumn) || !strings.Contains(err.Error(), f.Name()) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s of a missing column: error %v, want one wrapping %q naming the file and the column", what, err, columnar.ErrColumn)
		}
	}
}
