package arrowipc_test

import (
	"errors"
	"math"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/columnar/arrowipc"
	"github.com/obskit/obskit/columnar/internal/interop"
)

// checkFixture reads every column of an interop fixture and compares each row
// with the formula of gen.mjs.
func checkFixture(t *testing.T, path string, fx interop.Fixture) {
	t.Helper()
	f, err := arrowipc.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Nobs() != fx.Rows || f.Batches() != fx.Chunks {
		t.Fatalf("Nobs, Batches = %d, %d, want %d, %d", f.Nobs(), f.Batches(), fx.Rows, fx.Chunks)
	}
	for k := range f.Batches() {
		if got := f.Batch(k).Codec; got != fx.Codec {
			t.Errorf("batch %d codec %q, want %q", k, got, fx.Codec)
		}
	}
	n := f.Nobs()

	id := must(arrowipc.Numbers[int64](f, "id"))
	label := must(arrowipc.Scalars[int64](f, "label"))
	u8 := must(arrowipc.Numbers[uint8](f, "u8"))
	x := must(arrowipc.Numbers[float32](f, "x"))
	f64 := must(arrowipc.Numbers[float64](f, "f64"))
	ts := must(arrowipc.Numbers[int64](f, "ts"))
	cat := must(arrowipc.Strings(f, "cat"))
	bin := must(arrowipc.Strings(f, "bin"))
	name := must(arrowipc.Strings(f, "name", arrowipc.NullEmpty()))
	nameValid := must(arrowipc.Valid(f, "name"))
	toks := must(arrowipc.Lists[int32](f, "toks", arrowipc.NullEmpty(), arrowipc.Fill(int32(-1))))
	toksValid := must(arrowipc.Valid(f, "toks"))
	if got := x.ObsShape(); !cmp.Equal(got, []int{4}) {
		t.Errorf("x.ObsShape() = %v, want [4]", got)
	}
	for i := range n {
		w := interop.Want(i)
		if got := id.GetObs(i).Item(); got != w.ID {
			t.Fatalf("id[%d] = %d, want %d", i, got, w.ID)
		}
		if got := label[i]; got != w.Label {
			t.Fatalf("label[%d] = %d, want %d", i, got, w.Label)
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
		if got, want := ts.GetObs(i).Item(), w.TS.UnixMilli(); got != want {
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

	// Nulls are never read silently.
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"name", mustErr(arrowipc.Strings(f, "name"))},
		{"toks", mustErr(arrowipc.Lists[int32](f, "toks", arrowipc.Fill(int32(0))))},
		{"toks values", mustErr(arrowipc.Lists[int32](f, "toks", arrowipc.NullEmpty()))},
	} {
		if !errors.Is(tc.err, arrowipc.ErrNull) {
			t.Errorf("%s without a null rule: error %v, want ErrNull", tc.name, tc.err)
		}
	}
	for _, err := range []error{
		mustErr(arrowipc.Numbers[float32](f, "id")),
		mustErr(arrowipc.Numbers[int32](f, "flag")),
		mustErr(arrowipc.Strings(f, "toks")),
		mustErr(arrowipc.Scalars[float32](f, "x")),
	} {
		if !errors.Is(err, arrowipc.ErrType) {
			t.Errorf("error %v, want ErrType", err)
		}
	}
	if err := mustErr(arrowipc.Numbers[int64](f, "nope")); !errors.Is(err, arrowipc.ErrColumn) {
		t.Errorf("missing column: error %v, want ErrColumn", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func mustErr[T any](_ T, err error) error { return err }

func TestInterop(t *testing.T) {
	for _, fx := range interop.Arrow {
		t.Run(fx.Name, func(t *testing.T) { checkFixture(t, interop.Path(fx.Name), fx) })
	}
}

// TestInteropRegenerated writes the fixtures again with the independent
// writers, when node and their packages are installed, and reads them.
func TestInteropRegenerated(t *testing.T) {
	dir := interop.Regenerate(t)
	for _, fx := range interop.Arrow {
		if fx.Writer != "apache-arrow" {
			continue // arrowgo/main.go writes those
		}
		t.Run(fx.Name, func(t *testing.T) { checkFixture(t, filepath.Join(dir, fx.Name), fx) })
	}
}
