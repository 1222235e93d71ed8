package parquet_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/columnar/internal/columnartest"
	"github.com/obskit/obskit/columnar/internal/interop"
	"github.com/obskit/obskit/columnar/parquet"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestInterop checks what the Parquet fixtures hold beyond columnartest's
// suite (TestConformance): each row group's codec, the dictionary encoding
// of the text columns of few values, and the numbers of several columns side
// by side, read as features.
func TestInterop(t *testing.T) {
	for _, fx := range interop.Parquet {
		t.Run(fx.Name, func(t *testing.T) {
			f, err := parquet.Open(interop.Path(fx.Name))
			if err != nil {
				t.Fatal(err)
			}
			dict := slices.IndexFunc(f.Columns(), func(c parquet.Column) bool { return c.Name == "cat" || c.Name == "dcat" })
			for k := range f.RowGroups() {
				rg := f.RowGroup(k)
				for _, c := range rg.Codec {
					if c != fx.Codec {
						t.Errorf("row group %d codec %s, want %s", k, c, fx.Codec)
					}
				}
				if !slices.ContainsFunc(rg.Encodings[dict], func(e string) bool { return strings.Contains(e, "DICTIONARY") }) {
					t.Errorf("row group %d: column %s has encodings %v, want dictionary-encoded text", k, f.Columns()[dict].Name, rg.Encodings[dict])
				}
			}
			// Two columns side by side, in the order asked, with a null
			// filled, in the smallest cache.
			if fx.Table == interop.Main {
				features[int64](t, f, fx, "label", "id")
			} else {
				features[int32](t, f, fx, "i32n", "day")
			}
		})
	}
}

// TestInteropRegenerated writes the fixtures again with the independent
// writers, under make interop (interop.Regenerate says when), and runs the
// suite on them.
func TestInteropRegenerated(t *testing.T) {
	columnartest.RunDir(t, reader, interop.Regenerate(t), interop.Parquet)
}

// features reads columns a and b of fx as features of type E and checks each
// row against the formula, a null read as -1 and a date as its days.
func features[E int32 | int64](t *testing.T, f *parquet.File, fx interop.Fixture, a, b string) {
	t.Helper()
	x := must(parquet.Numbers[E](f, []string{a, b}, parquet.Cache(1), parquet.Fill(E(-1))))
	if got := x.ObsShape(); !cmp.Equal(got, []int{2}) {
		t.Fatalf("ObsShape() = %v, want [2]", got)
	}
	ca, _ := fx.Table.Col(a)
	cb, _ := fx.Table.Col(b)
	num := func(v any) E {
		switch v := v.(type) {
		case int64:
			return E(v)
		case time.Time:
			return E(v.Unix() / 86400)
		}
		return -1
	}
	for i := range f.Nobs() {
		if got, want := x.GetObs(i).Data(), []E{num(ca.Value(i)), num(cb.Value(i))}; !cmp.Equal(got, want) {
			t.Fatalf("%s, %s [%d] = %v, want %v", a, b, i, got, want)
		}
	}
}
