package arrowipc_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/obskit/obskit/columnar/arrowipc"
)

// TestLabels: Labels reads an integer column of any width and sign as the
// int labels Scalars of its own type gives, converted (the int64 and uint8
// columns of the JavaScript writer's file, the uint16 and uint32 ones of the
// edge file), and refuses every other column (floats, lists, strings, a
// dictionary, a timestamp, booleans) with ErrType naming it, a uint64 value
// beyond int's range with ErrType naming the row, and a missing column with
// ErrColumn.
func TestLabels(t *testing.T) {
	js, err := arrowipc.Open("../testdata/interop/js.arrow")
	if err != nil {
		t.Fatal(err)
	}
	edge, err := arrowipc.Open("../testdata/interop/edge.arrow")
	if err != nil {
		t.Fatal(err)
	}
	i64 := func(f *arrowipc.File, name string) []int {
		s, err := arrowipc.Scalars[int64](f, name)
		return ints(t, s, err)
	}
	for _, tc := range []struct {
		f    *arrowipc.File
		name string
		want []int
	}{
		{js, "id", i64(js, "id")},
		{js, "label", i64(js, "label")},
		{js, "u8", func() []int { s, err := arrowipc.Scalars[uint8](js, "u8"); return ints(t, s, err) }()},
		{edge, "u16", func() []int { s, err := arrowipc.Scalars[uint16](edge, "u16"); return ints(t, s, err) }()},
		{edge, "u32", func() []int { s, err := arrowipc.Scalars[uint32](edge, "u32"); return ints(t, s, err) }()},
	} {
		got, err := arrowipc.Labels(tc.f, tc.name)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("Labels(%q) = %v, %v; want Scalars' values as ints %v", tc.name, got, err, tc.want)
		}
	}
	for _, name := range []string{"x", "f64", "name", "cat", "toks", "bin", "ts", "flag"} {
		if _, err := arrowipc.Labels(js, name); !errors.Is(err, arrowipc.ErrType) || !strings.Contains(err.Error(), name) {
			t.Errorf("Labels(%q) = %v, want ErrType naming it", name, err)
		}
	}
	u64, err := arrowipc.Scalars[uint64](edge, "u64")
	if err != nil {
		t.Fatal(err)
	}
	big := slices.IndexFunc(u64, func(v uint64) bool { return v > 1<<63-1 })
	if big < 0 {
		t.Fatal("edge.arrow's u64 holds no value beyond int's range")
	}
	if _, err := arrowipc.Labels(edge, "u64"); !errors.Is(err, arrowipc.ErrType) || !strings.Contains(err.Error(), "beyond int's range") {
		t.Errorf("Labels of a uint64 beyond int = %v, want ErrType naming the row", err)
	}
	if _, err := arrowipc.Labels(js, "nope"); !errors.Is(err, arrowipc.ErrColumn) {
		t.Errorf("Labels of a missing column = %v, want ErrColumn", err)
	}
}

func ints[E int64 | uint8 | uint16 | uint32](t *testing.T, s []E, err error) []int {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]int, len(s))
	for i, v := range s {
		out[i] = int(v)
	}
	return out
}
