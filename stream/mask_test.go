package stream_test

import (
	"cmp"
	"errors"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/stream"
)

func rows[E any](p stream.Masked[E]) (data [][]E, mask [][]float32) {
	for i := range p.Len() {
		data = append(data, p.Row(i))
		mask = append(mask, p.MaskRow(i))
	}
	return data, mask
}

// TestMaskBatch includes the must-hold case: [[1,2,3],[4,5]] pads to
// [[1,2,3],[4,5,0]] with mask [[1,1,1],[1,1,0]].
func TestMaskBatch(t *testing.T) {
	tests := []struct {
		name     string
		in       [][]int
		pad      int
		data     [][]int
		mask     [][]float32
		lens     []int
		width    int
		flatData []int
	}{
		{"must hold", [][]int{{1, 2, 3}, {4, 5}}, 0, [][]int{{1, 2, 3}, {4, 5, 0}}, [][]float32{{1, 1, 1}, {1, 1, 0}}, []int{3, 2}, 3, []int{1, 2, 3, 4, 5, 0}},
		{"pad value", [][]int{{7}, {}, {8, 9}}, -1, [][]int{{7, -1}, {-1, -1}, {8, 9}}, [][]float32{{1, 0}, {0, 0}, {1, 1}}, []int{1, 0, 2}, 2, []int{7, -1, -1, -1, 8, 9}},
		{"equal lengths", [][]int{{1, 2}, {3, 4}}, 0, [][]int{{1, 2}, {3, 4}}, [][]float32{{1, 1}, {1, 1}}, []int{2, 2}, 2, []int{1, 2, 3, 4}},
		{"all empty", [][]int{{}, {}}, 0, [][]int{{}, {}}, [][]float32{{}, {}}, []int{0, 0}, 0, []int{}},
		{"no sequences", nil, 0, nil, nil, []int{}, 0, []int{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := stream.MaskBatch(tc.in, tc.pad)
			data, mask := rows(p)
			if d := gocmp.Diff(tc.data, data, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("rows mismatch (-want +got):\n%s", d)
			}
			if d := gocmp.Diff(tc.mask, mask, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("mask rows mismatch (-want +got):\n%s", d)
			}
			if d := gocmp.Diff(tc.lens, p.Lens); d != "" {
				t.Errorf("Lens mismatch (-want +got):\n%s", d)
			}
			if d := gocmp.Diff(tc.flatData, p.Data); d != "" {
				t.Errorf("Data mismatch (-want +got):\n%s", d)
			}
			if p.Width != tc.width || len(p.Mask) != len(p.Data) {
				t.Errorf("Width %d with %d data and %d mask values, want width %d", p.Width, len(p.Data), len(p.Mask), tc.width)
			}
		})
	}
}

func TestMaskBatchCopies(t *testing.T) {
	in := [][]int{{1, 2}, {3}}
	p := stream.MaskBatch(in, 0)
	p.Row(0)[0] = 99
	if in[0][0] != 1 {
		t.Error("MaskBatch aliases its input")
	}
	if r := p.Row(1); cap(r) != len(r) {
		t.Errorf("Row has cap %d, want %d", cap(r), len(r))
	}
	if r := p.MaskRow(1); cap(r) != len(r) {
		t.Errorf("MaskRow has cap %d, want %d", cap(r), len(r))
	}
	for name, f := range map[string]func(){"Row": func() { p.Row(2) }, "MaskRow": func() { p.MaskRow(-1) }} {
		func() {
			defer func() {
				var ie *container.IndexError
				if err, ok := recover().(error); !ok || !errors.As(err, &ie) || ie.Nobs != 2 {
					t.Errorf("%s out of 2 rows: panic %v, want *container.IndexError of 2", name, err)
				}
			}()
			f()
		}()
	}
}

func TestMaskStream(t *testing.T) {
	s := stream.Mask(stream.Batches(stream.FromSlice([][]float32{{1}, {2, 3}, {4, 5, 6}}), 2, index.Keep), 0)
	got, err := read(t, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Width != 2 || got[1].Width != 3 {
		t.Fatalf("Mask gave %d batches of widths %v", len(got), got)
	}
	if d := gocmp.Diff([]float32{1, 0, 2, 3}, got[0].Data); d != "" {
		t.Errorf("first padded batch mismatch (-want +got):\n%s", d)
	}
	if d := gocmp.Diff([]float32{1, 0, 1, 1}, got[0].Mask); d != "" {
		t.Errorf("first mask mismatch (-want +got):\n%s", d)
	}
	_, err = read(t, stream.Mask(stream.Batches(stream.Map(failing(t, 3), func(v int) []int { return seqOf(v, v) }), 2, index.Keep), 0))
	if !errors.Is(err, errSource) {
		t.Errorf("Mask of a failing stream: error %v, want %v", err, errSource)
	}
}

func TestSortWindow(t *testing.T) {
	words := []string{"ccc", "a", "bb", "dddd", "e", "ff", "g"}
	byLen := func(a, b string) int { return cmp.Compare(len(a), len(b)) }
	got, err := read(t, stream.SortWindow(stream.FromSlice(words), 4, byLen))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a", "bb", "ccc", "dddd", "e", "g", "ff"}
	if d := gocmp.Diff(want, got); d != "" {
		t.Errorf("SortWindow mismatch (-want +got):\n%s", d)
	}
	rng := seeded(8)
	for range 100 {
		n, size := rng.IntN(50), 1+rng.IntN(10)
		in := make([]int, n)
		for i := range in {
			in[i] = rng.IntN(5)
		}
		s := stream.SortWindow(stream.FromSlice(in), size, cmp.Compare[int])
		got, _ := read(t, s)
		var want []int
		for lo := 0; lo < n; lo += size {
			w := slices.Clone(in[lo:min(n, lo+size)])
			slices.Sort(w)
			want = append(want, w...)
		}
		if d := gocmp.Diff(want, got); d != "" {
			t.Fatalf("SortWindow(n=%d, size=%d) mismatch (-want +got):\n%s", n, size, d)
		}
		k := rng.IntN(n + 1)
		after, err := rest(restored(t, s, savedAfter(t, s, k)))
		if err != nil {
			t.Fatal(err)
		}
		if d := gocmp.Diff(want[k:], after, cmpEmpty); d != "" {
			t.Fatalf("SortWindow(n=%d, size=%d) restored after %d values mismatch (-want +got):\n%s", n, size, k, d)
		}
	}
}
