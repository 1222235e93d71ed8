package arrowipc_test

import (
	"os"
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/columnar/arrowipc"
	"github.com/obskit/obskit/columnar/internal/columnartest"
	"github.com/obskit/obskit/columnar/internal/interop"
	"github.com/obskit/obskit/container"
)

// reader is package arrowipc under columnartest's suite.
var reader = columnartest.Reader{
	Name:       "arrowipc",
	Open:       func(path string) (columnartest.File, error) { return open(path) },
	OpenErrors: []error{arrowipc.ErrFormat, arrowipc.ErrUnsupported},
	Errors:     []error{arrowipc.ErrFormat, arrowipc.ErrUnsupported, arrowipc.ErrType, arrowipc.ErrNull, arrowipc.ErrColumn},
	FixedLists: true,
	More: func(t *testing.T, cf columnartest.File, try func(func() error)) {
		f := cf.(file).File
		// Every column of the fixtures holds bytes for each row: a count of
		// rows that the file's size does not bound is a damaged count that
		// Open let through (before a reader allocates by it, as Valid does).
		if st, err := os.Stat(f.Name()); err == nil && int64(f.Nobs()) > 8*st.Size() {
			t.Fatalf("Open accepted %d rows in a file of %d bytes", f.Nobs(), st.Size())
		}
		for k := range f.Batches() {
			_ = f.Batch(k)
		}
		for _, fd := range f.Fields() {
			_ = f.Nulls(fd.Name)
		}
	},
}

func open(path string) (file, error) {
	f, err := arrowipc.Open(path)
	return file{f}, err
}

// TestConformance runs columnartest's suite on the Arrow fixtures of every
// writer.
func TestConformance(t *testing.T) {
	columnartest.Run(t, reader, interop.Arrow)
}

// file adapts an *arrowipc.File to columnartest.File.
type file struct{ *arrowipc.File }

func (f file) Starts() []int {
	starts := []int{0}
	for k := range f.Batches() {
		starts = append(starts, starts[k]+f.Batch(k).Rows)
	}
	return starts
}

func (f file) Fields() []columnartest.Field {
	var out []columnartest.Field
	for _, fd := range f.File.Fields() {
		out = append(out, columnartest.Field{
			Name: fd.Name, Type: fd.TypeString(), Nullable: fd.Nullable,
			ElemNullable: fd.Type.Elem != nil && fd.Type.Elem.Nullable,
		})
	}
	return out
}

func (f file) Nulls(name string) (int64, error) { return f.File.Nulls(name), nil }

func (f file) Valid(name string) (container.Slice[bool], error) { return arrowipc.Valid(f.File, name) }

func (f file) Strings(name string, o columnartest.Opts) (*columnar.Strings, error) {
	return arrowipc.Strings(f.File, name, options[uint8](columnartest.Opts{NullEmpty: o.NullEmpty})...)
}

func (f file) ChunkRows(k int) ([][]any, error) {
	lo := 0
	for j := range k {
		lo += f.Batch(j).Rows
	}
	var rows [][]any
	for i := lo; i < lo+f.Batch(k).Rows; i++ {
		row, err := f.Row(i, nil)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func (f file) Elem(zero any) any {
	switch zero.(type) {
	case int8:
		return typed[int8]{f.File}
	case int16:
		return typed[int16]{f.File}
	case int32:
		return typed[int32]{f.File}
	case int64:
		return typed[int64]{f.File}
	case uint8:
		return typed[uint8]{f.File}
	case uint16:
		return typed[uint16]{f.File}
	case uint32:
		return typed[uint32]{f.File}
	case uint64:
		return typed[uint64]{f.File}
	case float32:
		return typed[float32]{f.File}
	case float64:
		return typed[float64]{f.File}
	}
	panic("no accessors of numbers of this type")
}

// typed is the accessors of numbers of type E.
type typed[E arraycontainer.Number] struct{ f *arrowipc.File }

func options[E arraycontainer.Number](o columnartest.Opts) []arrowipc.Option {
	var opts []arrowipc.Option
	if o.Fill != nil {
		opts = append(opts, arrowipc.Fill(o.Fill.(E)))
	}
	if o.NullEmpty {
		opts = append(opts, arrowipc.NullEmpty())
	}
	return opts
}

func (a typed[E]) Numbers(name string, o columnartest.Opts) (*columnar.Numbers[E], error) {
	return arrowipc.Numbers[E](a.f, name, options[E](o)...)
}

func (a typed[E]) Scalars(name string, o columnartest.Opts) (container.Slice[E], error) {
	return arrowipc.Scalars[E](a.f, name, options[E](o)...)
}

func (a typed[E]) Lists(name string, o columnartest.Opts) (*columnar.Lists[E], error) {
	return arrowipc.Lists[E](a.f, name, options[E](o)...)
}
