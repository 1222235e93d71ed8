package parquet_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/obskit/obskit/columnar/parquet"
)

// TestLabels: Labels reads an integer column of any width and sign as the
// int labels Scalars of its own type gives, converted (u8 and int64 columns
// of DuckDB's file), and refuses a column of floats or lists with ErrType
// naming it, and a missing one with ErrColumn.
func TestLabels(t *testing.T) {
	f, err := parquet.Open("../testdata/interop/duckdb-zstd.parquet")
	if err != nil {
		t.Fatal(err)
	}
	u8, err := parquet.Scalars[uint8](f, "u8")
	if err != nil {
		t.Fatal(err)
	}
	i64, err := parquet.Scalars[int64](f, "label")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		want []int
	}{{"u8", toInts(u8)}, {"label", toInts(i64)}} {
		got, err := parquet.Labels(f, tc.name)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("Labels(%q) = %v..., %v; want Scalars' values as ints", tc.name, got[:min(5, len(got))], err)
		}
	}
	refused := 0
	for _, c := range f.Columns() {
		if _, err := parquet.Scalars[int64](f, c.Name); err == nil {
			continue
		}
		if _, err := parquet.Scalars[uint8](f, c.Name); err == nil {
			continue
		}
		_, err := parquet.Labels(f, c.Name)
		if strings.Contains(c.Type, "int") && !strings.Contains(c.Type, "list") {
			continue // an integer type of another width
		}
		if !errors.Is(err, parquet.ErrType) || !strings.Contains(err.Error(), c.Name) {
			t.Errorf("Labels(%q) of %s = %v, want ErrType naming it", c.Name, c.Type, err)
		}
		refused++
	}
	if refused == 0 {
		t.Error("the file has no column Labels must refuse")
	}
	if _, err := parquet.Labels(f, "nope"); !errors.Is(err, parquet.ErrColumn) {
		t.Errorf("Labels of a missing column = %v, want ErrColumn", err)
	}
}

func toInts[E int64 | uint8](s []E) []int {
	out := make([]int, len(s))
	for i, v := range s {
		out[i] = int(v)
	}
	return out
}
