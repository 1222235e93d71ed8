package parquet_test

import (
	"errors"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/columnar/internal/interop"
	"github.com/obskit/obskit/columnar/parquet"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func mustErr[T any](_ T, err error) error { return err }

// checkFixture reads every column of an interop fixture through the package's
// containers and compares each row with the formula of gen.mjs.
func checkFixture(t *testing.T, path string, fx interop.Fixture) {
	t.Helper()
	f, err := parquet.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Nobs() != fx.Rows || f.RowGroups() != fx.Chunks {
		t.Fatalf("Nobs, RowGroups = %d, %d, want %d, %d", f.Nobs(), f.RowGroups(), fx.Rows, fx.Chunks)
	}
	catCol := -1
	for j, c := range f.Columns() {
		if c.Name == "cat" {
			catCol = j
		}
	}
	for k := range f.RowGroups() {
		rg := f.RowGroup(k)
		for _, c := range rg.Codec {
			if c != fx.Codec {
				t.Errorf("row group %d codec %s, want %s", k, c, fx.Codec)
			}
		}
		if !slices.ContainsFunc(rg.Encodings[catCol], func(e string) bool { return strings.Contains(e, "DICTIONARY") }) {
			t.Errorf("row group %d: column cat has encodings %v, want dictionary-encoded text", k, rg.Encodings[catCol])
		}
	}
	id := must(parquet.Numbers[int64](f, []string{"id"}))
	label := must(parquet.Scalars[int64](f, "label"))
	u8 := must(parquet.Numbers[uint8](f, []string{"u8"}))
	x := must(parquet.Numbers[float32](f, []string{"x"}))
	feats := must(parquet.Numbers[int64](f, []string{"label", "id"}, parquet.Cache(1)))
	f64 := must(parquet.Numbers[float64](f, []string{"f64"}))
	ts := must(parquet.Scalars[int64](f, "ts"))
	cat := must(parquet.Strings(f, "cat"))
	bin := must(parquet.Strings(f, "bin"))
	name := must(parquet.Strings(f, "name", parquet.NullEmpty()))
	nameValid := must(parquet.Valid(f, "name"))
	toks := must(parquet.Lists[int32](f, "toks", parquet.NullEmpty(), parquet.Fill(int32(-1))))
	toksValid := must(parquet.Valid(f, "toks"))
	if got := x.ObsShape(); !cmp.Equal(got, []int{4}) {
		t.Errorf("x.ObsShape() = %v, want [4]", got)
	}
	unit := int64(1000) // DuckDB writes microseconds
	if fx.FixedList || filepath.Base(path)[:2] == "rs" {
		unit = 1 // arrow-rs keeps the milliseconds of the Arrow table
	}
	for i := range f.Nobs() {
		w := interop.Want(i)
		if got := id.GetObs(i).Item(); got != w.ID {
			t.Fatalf("id[%d] = %d, want %d", i, got, w.ID)
		}
		if got := label[i]; got != w.Label {
			t.Fatalf("label[%d] = %d, want %d", i, got, w.Label)
		}
		if got := feats.GetObs(i).Data(); !cmp.Equal(got, []int64{w.Label, w.ID}) {
			t.Fatalf("label, id [%d] = %v, want %v", i, got, []int64{w.Label, w.ID})
		}
		if got := u8.GetObs(i).Item(); got != w.U8 {
			t.Fatalf("u8[%d] = %d, want %d", i, got, w.U8)
		}
		if got := x.GetObs(i).Data(); !cmp.Equal(got, w.X[:]) {
			t.Fatalf("x[%d] = %v, want %v", i, got, w.X)
		}
		if got := f64.GetObs(i).Item(); got != w.F64 && !(math.IsNaN(got) && math.IsNaN(w.F64)) {
			t.Fatalf("f64[%d] = %v, want %v", i, got, w.F64)
		}
		if got, want := ts[i], w.TS.UnixMilli()*unit; got != want {
			t.Fatalf("ts[%d] = %d, want %d", i, got, want)
		}
		if got := cat.GetObs(i); got != w.Cat {
			t.Fatalf("cat[%d] = %q, want %q", i, got, w.Cat)
		}
		if got := bin.GetObs(i); got != string(w.Bin) {
			t.Fatalf("bin[%d] = %x, want %x", i, got, w.Bin)
		}
		wantName := w.NameOr()
		if got := name.GetObs(i); got != wantName || nameValid[i] != (w.Name != nil) {
			t.Fatalf("name[%d] = %q valid %v, want %q valid %v", i, got, nameValid[i], wantName, w.Name != nil)
		}
		wantToks := w.TokensFilled(-1)
		if got := toks.GetObs(i); !cmp.Equal(got, wantToks) || toksValid[i] != (w.Toks != nil) {
			t.Fatalf("toks[%d] = %v valid %v, want %v valid %v", i, got, toksValid[i], wantToks, w.Toks != nil)
		}
	}
	for what, err := range map[string]error{
		"name":  mustErr(parquet.Strings(f, "name")),
		"toks":  mustErr(parquet.Lists[int32](f, "toks", parquet.Fill(int32(0)))),
		"toks2": mustErr(parquet.Lists[int32](f, "toks", parquet.NullEmpty())),
	} {
		if !errors.Is(err, parquet.ErrNull) {
			t.Errorf("%s without a null rule: error %v, want ErrNull", what, err)
		}
	}
	for _, err := range []error{
		mustErr(parquet.Numbers[float32](f, []string{"id"})),
		mustErr(parquet.Numbers[int32](f, []string{"flag"})),
		mustErr(parquet.Strings(f, "toks")),
		mustErr(parquet.Scalars[float32](f, "x")),
	} {
		if !errors.Is(err, parquet.ErrType) {
			t.Errorf("error %v, want ErrType", err)
		}
	}
	if err := mustErr(parquet.Numbers[int64](f, []string{"nope"})); !errors.Is(err, parquet.ErrColumn) {
		t.Errorf("missing column: error %v, want ErrColumn", err)
	}
}

func TestInterop(t *testing.T) {
	for _, fx := range interop.Parquet {
		t.Run(fx.Name, func(t *testing.T) { checkFixture(t, interop.Path(fx.Name), fx) })
	}
}

func TestInteropRegenerated(t *testing.T) {
	dir := interop.Regenerate(t)
	for _, fx := range interop.Parquet {
		t.Run(fx.Name, func(t *testing.T) { checkFixture(t, filepath.Join(dir, fx.Name), fx) })
	}
}
