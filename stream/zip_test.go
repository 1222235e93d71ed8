package stream_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/stream"
	"github.com/obskit/obskit/tuples"
)

func TestZip(t *testing.T) {
	letters := stream.FromSlice([]string{"a", "b", "c"})
	got, err := read(t, stream.Zip(ints(3), letters, stream.Strict))
	if err != nil {
		t.Fatal(err)
	}
	want := []tuples.Pair[int, string]{{X: 0, Y: "a"}, {X: 1, Y: "b"}, {X: 2, Y: "c"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Zip mismatch (-want +got):\n%s", d)
	}
	tests := []struct {
		name    string
		a, b    int
		align   stream.Align
		wantN   int
		wantErr string
	}{
		{"equal", 4, 4, stream.Strict, 4, ""},
		{"first shorter strict", 2, 4, stream.Strict, 2, "stream.Zip: stream 0 ended after 2 values, stream 1 has more: streams have different lengths"},
		{"second shorter strict", 4, 1, stream.Strict, 1, "stream.Zip: stream 1 ended after 1 values, stream 0 has more: streams have different lengths"},
		{"first shorter truncate", 2, 4, stream.Truncate, 2, ""},
		{"second shorter truncate", 4, 1, stream.Truncate, 1, ""},
		{"empty", 0, 0, stream.Strict, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := read(t, stream.Zip(ints(tc.a), ints(tc.b), tc.align))
			if len(got) != tc.wantN {
				t.Errorf("%d pairs, want %d", len(got), tc.wantN)
			}
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (!errors.Is(err, stream.ErrNotAligned) || err.Error() != tc.wantErr) {
				t.Errorf("error %v, want %q", err, tc.wantErr)
			}
		})
	}
}

func TestZipN(t *testing.T) {
	got, err := read(t, stream.ZipN(stream.Strict, ints(3), stream.Map(ints(3), func(v int) int { return 10 * v })))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([][]int{{0, 0}, {1, 10}, {2, 20}}, got); d != "" {
		t.Errorf("ZipN mismatch (-want +got):\n%s", d)
	}
	_, err = read(t, stream.ZipN(stream.Strict, ints(3), ints(3), ints(2)))
	if !errors.Is(err, stream.ErrNotAligned) || !strings.Contains(err.Error(), "stream.ZipN: stream 2 ended after 2 values, stream 1 has more") {
		t.Errorf("ZipN of unequal lengths: error %v, want ErrNotAligned naming stream 2 after 2 values", err)
	}
	got, err = read(t, stream.ZipN(stream.Truncate, ints(3), ints(3), ints(2)))
	if err != nil || len(got) != 2 {
		t.Errorf("ZipN Truncate = %v, %v; want 2 rows", got, err)
	}
	got, err = read(t, stream.ZipN[int](stream.Strict))
	if err != nil || got != nil {
		t.Errorf("ZipN() = %v, %v; want nothing", got, err)
	}
	got, _ = read(t, stream.ZipN(stream.Strict, ints(2), ints(2)))
	got[0][0] = 99
	if got[1][0] != 1 {
		t.Error("ZipN rows share memory")
	}
}

// TestZipResume restores zipped passes, of a shuffled stream with a plain
// one, at every step; a state of another alignment or number of streams is
// refused, naming it.
func TestZipResume(t *testing.T) {
	a := stream.ShuffleBuffer(ints(30), 5, 7)
	b := stream.Map(ints(30), func(v int) int { return -v })
	zip := stream.Zip(a, b, stream.Strict)
	zipN := stream.ZipN(stream.Strict, a, b, a)
	wantZip, _ := read(t, zip)
	wantN, _ := read(t, zipN)
	for k := 0; k <= 30; k += 7 {
		got, err := rest(restored(t, zip, savedAfter(t, zip, k)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(wantZip[k:], got); d != "" {
			t.Errorf("Zip restored after %d mismatch (-want +got):\n%s", k, d)
		}
		gotN, err := rest(restored(t, zipN, savedAfter(t, zipN, k)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(wantN[k:], gotN); k < 30 && d != "" {
			t.Errorf("ZipN restored after %d mismatch (-want +got):\n%s", k, d)
		}
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"Zip alignment", stream.Zip(a, b, stream.Truncate).Iter().UnmarshalBinary(savedAfter(t, zip, 3)), "stage 0 (zip): alignment is 0 in the state and 1 here"},
		{"ZipN streams", stream.ZipN(stream.Strict, a, b).Iter().UnmarshalBinary(savedAfter(t, zipN, 3)), "stage 0 (zipn): number of streams is 3 in the state and 2 here"},
		{"ZipN alignment", stream.ZipN(stream.Truncate, a, b, a).Iter().UnmarshalBinary(savedAfter(t, zipN, 3)), "stage 0 (zipn): alignment is 0 in the state and 1 here"},
	} {
		if !errors.Is(tc.err, container.ErrState) || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrState saying %q", tc.name, tc.err, tc.want)
		}
	}
}
