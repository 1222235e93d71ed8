package parquet_test

import (
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/columnar/internal/columnartest"
	"github.com/obskit/obskit/columnar/internal/interop"
	"github.com/obskit/obskit/columnar/parquet"
	"github.com/obskit/obskit/container"
)

// reader is package parquet under columnartest's suite.
var reader = columnartest.Reader{
	Name: "parquet",
	Open: func(path string) (columnartest.File, error) {
		f, err := parquet.Open(path)
		return file{f}, err
	},
	OpenErrors: []error{parquet.ErrFormat, parquet.ErrUnsupported},
	Errors:     []error{parquet.ErrFormat, parquet.ErrUnsupported, parquet.ErrType, parquet.ErrNull, parquet.ErrColumn, parquet.ErrFault},
	More: func(t *testing.T, cf columnartest.File, try func(func() error)) {
		f := cf.(file).File
		for g := range f.RowGroups() {
			_ = f.RowGroup(g)
		}
	},
}

// TestConformance runs columnartest's suite on the Parquet fixtures of every
// writer.
func TestConformance(t *testing.T) {
	columnartest.Run(t, reader, interop.Parquet)
}

// file adapts a *parquet.File to columnartest.File.
type file struct{ *parquet.File }

func (f file) Starts() []int { return f.RowGroupStarts() }

func (f file) Fields() []columnartest.Field {
	var out []columnartest.Field
	for _, c := range f.Columns() {
		out = append(out, columnartest.Field{Name: c.Name, Type: c.Type, Nullable: c.Nullable, ElemNullable: c.ElemNullable})
	}
	return out
}

func (f file) Valid(name string) (container.Slice[bool], error) { return parquet.Valid(f.File, name) }

func (f file) Strings(name string, o columnartest.Opts) (*columnar.Strings, error) {
	return parquet.Strings(f.File, name, options[uint8](columnartest.Opts{NullEmpty: o.NullEmpty})...)
}

func (f file) ChunkRows(k int) ([][]any, error) { return f.Rows(k) }

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
type typed[E arraycontainer.Number] struct{ f *parquet.File }

// options returns the options of o, with a cache of every row group of the
// fixtures (4 at most), so that the random reads of the container contract
// decode each once.
func options[E arraycontainer.Number](o columnartest.Opts) []parquet.Option {
	opts := []parquet.Option{parquet.Cache(4)}
	if o.Fill != nil {
		opts = append(opts, parquet.Fill(o.Fill.(E)))
	}
	if o.NullEmpty {
		opts = append(opts, parquet.NullEmpty())
	}
	return opts
}

func (a typed[E]) Numbers(name string, o columnartest.Opts) (*columnar.Numbers[E], error) {
	return parquet.Numbers[E](a.f, []string{name}, options[E](o)...)
}

func (a typed[E]) Scalars(name string, o columnartest.Opts) (container.Slice[E], error) {
	return parquet.Scalars[E](a.f, name, options[E](o)...)
}

func (a typed[E]) Lists(name string, o columnartest.Opts) (*columnar.Lists[E], error) {
	return parquet.Lists[E](a.f, name, options[E](o)...)
}
