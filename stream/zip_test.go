package stream_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/stream"
	"github.com/obskit/obskit/tuples"
)

func TestZip(t *testing.T) {
	letters := stream.FromSlice([]string{"a", "b", "c"})
	got, err := collect(t, stream.Zip(ints(3), letters, stream.Strict))
	if err != nil {
		t.Fatal(err)
	}
	want := []tuples.Pair[int, string]{{X: 0, Y: "a"}, {X: 1, Y: "b"}, {X: 2, Y: "c"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Zip mismatch (-want +got):\n%s", d)
	}
	tests := []struct {
		name      string
		a, b      int
		align     stream.Align
		wantN     int
		wantErr   bool
		errSubstr string
	}{
		{"equal", 4, 4, stream.Strict, 4, false, ""},
		{"first shorter strict", 2, 4, stream.Strict, 2, true, "reader 0 ended after 2 values, reader 1 has more"},
		{"second shorter strict", 4, 1, stream.Strict, 1, true, "reader 1 ended after 1 values, reader 0 has more"},
		{"first shorter truncate", 2, 4, stream.Truncate, 2, false, ""},
		{"second shorter truncate", 4, 1, stream.Truncate, 1, false, ""},
		{"empty", 0, 0, stream.Strict, 0, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := collect(t, stream.Zip(ints(tc.a), ints(tc.b), tc.align))
			if len(got) != tc.wantN {
				t.Errorf("%d pairs, want %d", len(got), tc.wantN)
			}
			if tc.wantErr != (err != nil) || err != nil && (!errors.Is(err, stream.ErrNotAligned) || !strings.Contains(err.Error(), tc.errSubstr)) {
				t.Errorf("error %v, want ErrNotAligned saying %q: %v", err, tc.errSubstr, tc.wantErr)
			}
		})
	}
}

func TestZipN(t *testing.T) {
	got, err := collect(t, stream.ZipN(stream.Strict, ints(3), stream.Map(ints(3), func(v int) int { return 10 * v })))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([][]int{{0, 0}, {1, 10}, {2, 20}}, got); d != "" {
		t.Errorf("ZipN mismatch (-want +got):\n%s", d)
	}
	_, err = collect(t, stream.ZipN(stream.Strict, ints(3), ints(3), ints(2)))
	if !errors.Is(err, stream.ErrNotAligned) || !strings.Contains(err.Error(), "reader 2 ended after 2 values") {
		t.Errorf("ZipN of unequal lengths: error %v, want ErrNotAligned naming reader 2 after 2 values", err)
	}
	got, err = collect(t, stream.ZipN(stream.Truncate, ints(3), ints(3), ints(2)))
	if err != nil || len(got) != 2 {
		t.Errorf("ZipN Truncate = %v, %v; want 2 rows", got, err)
	}
	got, err = collect(t, stream.ZipN[int](stream.Strict))
	if err != nil || got != nil {
		t.Errorf("ZipN() = %v, %v; want nothing", got, err)
	}
}
