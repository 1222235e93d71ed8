package stream_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/stream"
)

// randomSeqs returns n sequences of 0 to maxLen tokens, every token unique
// (sequence i holds i*1000 + position).
func randomSeqs(rng *rand.Rand, n, maxLen int) [][]int {
	out := make([][]int, n)
	for i := range out {
		s := make([]int, rng.IntN(maxLen+1))
		for p := range s {
			s[p] = i*1000 + p
		}
		out[i] = s
	}
	return out
}

// TestPackProperties checks the packers over random inputs: every nonempty
// sequence lands whole, once, in one row, in order within its segment, with
// segment ids 1, 2, ... per row and positions from 0; padding is zero with
// segment 0; only the last batch has rows without a sequence; Padding counts
// the padding.
func TestPackProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 400 {
		length, rows := 1+rng.IntN(40), 1+rng.IntN(4)
		seqs := randomSeqs(rng, rng.IntN(200), length)
		opts := stream.PackOptions{Method: stream.PackMethod(rng.IntN(2)), Window: 1 + rng.IntN(30)}
		what := fmt.Sprintf("trial %d: %d sequences, rows %d of %d, %v window %d", trial, len(seqs), rows, length, opts.Method, opts.Window)
		var got [][]int
		batches, last := 0, false
		for p, err := range stream.Pack(stream.FromSlice(seqs), length, rows, opts).All() {
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if last {
				t.Fatalf("%s: a batch after one with empty rows", what)
			}
			batches++
			last = p.Real < p.Rows
			if p.Rows != rows || p.Length != length || len(p.Tokens) != rows*length {
				t.Fatalf("%s: batch of %d rows of %d (%d tokens)", what, p.Rows, p.Length, len(p.Tokens))
			}
			pad := 0
			for r := range rows {
				seg, pos := p.Segments[r*length:(r+1)*length], p.Positions[r*length:(r+1)*length]
				row := p.Row(r)
				if r >= p.Real && seg[0] != 0 {
					t.Fatalf("%s: row %d past Real %d holds a sequence", what, r, p.Real)
				}
				var cur []int
				for i := range length {
					switch {
					case seg[i] == 0:
						if row[i] != 0 || pos[i] != 0 {
							t.Fatalf("%s: padding slot holds %d at position %d", what, row[i], pos[i])
						}
						pad++
					case i > 0 && seg[i] == seg[i-1]:
						if pos[i] != pos[i-1]+1 {
							t.Fatalf("%s: positions %d then %d in one segment", what, pos[i-1], pos[i])
						}
						cur = append(cur, row[i])
					default:
						if i > 0 && seg[i-1] != 0 && seg[i] != seg[i-1]+1 || i == 0 && seg[i] != 1 || pos[i] != 0 {
							t.Fatalf("%s: a segment starts with id %d at position %d", what, seg[i], pos[i])
						}
						if cur != nil {
							got = append(got, cur)
						}
						cur = []int{row[i]}
					}
					if seg[i] == 0 && i+1 < length && seg[i+1] != 0 {
						t.Fatalf("%s: a sequence after padding in row %d", what, r)
					}
				}
				if cur != nil {
					got = append(got, cur)
				}
			}
			if pad != p.Padding {
				t.Fatalf("%s: Padding %d, counted %d", what, p.Padding, pad)
			}
		}
		var want [][]int
		for _, s := range seqs {
			if len(s) > 0 {
				want = append(want, s)
			}
		}
		order := func(a, b []int) int { return a[0] - b[0] }
		slices.SortFunc(got, order)
		if !slices.EqualFunc(want, got, slices.Equal) { // cmp.Diff only to report: it is slow
			t.Fatalf("%s: packed sequences mismatch (-want +got):\n%s", what, cmp.Diff(want, got))
		}
	}
}

// TestPackPadding compares the packers on one distribution: best-fit-decreasing
// pads less than first-fit, which pads far less than one sequence a row.
func TestPackPadding(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	seqs := randomSeqs(rng, 5000, 100)
	padding := func(m stream.PackMethod, window int) float64 {
		pad, total := 0, 0
		for p, err := range stream.Pack(stream.FromSlice(seqs), 128, 8, stream.PackOptions{Method: m, Window: window}).All() {
			if err != nil {
				t.Fatal(err)
			}
			pad, total = pad+p.Padding, total+len(p.Tokens)
		}
		return float64(pad) / float64(total)
	}
	ff, bfd := padding(stream.FirstFit, 16), padding(stream.BestFitDecreasing, 1024)
	t.Logf("padding: first-fit %.3f, best-fit-decreasing %.3f, one a row %.3f", ff, bfd, 1-50.0/128)
	if !(bfd < ff && ff < 0.3) {
		t.Errorf("padding: first-fit %.3f, best-fit-decreasing %.3f; want bfd < ff < 0.3", ff, bfd)
	}
}

func TestPackErrors(t *testing.T) {
	seqs := [][]int{{1, 2}, {3, 4, 5, 6, 7}}
	for _, m := range []stream.PackMethod{stream.FirstFit, stream.BestFitDecreasing} {
		_, err := read(t, stream.Pack(stream.FromSlice(seqs), 4, 1, stream.PackOptions{Method: m}))
		if !errors.Is(err, stream.ErrTooLong) || err.Error() != "stream.Pack: a sequence of 5 tokens in rows of 4: sequence longer than a row" {
			t.Errorf("%v: a sequence of 5 in rows of 4: error %v, want ErrTooLong naming both", m, err)
		}
	}
	if got := fmt.Sprint(stream.FirstFit, " ", stream.BestFitDecreasing); got != "first-fit best-fit-decreasing" {
		t.Errorf("PackMethod strings %q", got)
	}
}

// TestPackAllocs pins the reused buffers: the allocations of a pass (the pass,
// the rows of one window, buffers growing to their size) do not grow with the
// number of sequences: a pass over 40,000 sequences allocates at most 10% more
// than one over 20,000.
func TestPackAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	seqs := randomSeqs(rng, 40000, 60)
	for _, m := range []stream.PackMethod{stream.FirstFit, stream.BestFitDecreasing} {
		allocs := func(n int) float64 {
			s := stream.Pack(stream.FromSlice(seqs[:n]), 128, 8, stream.PackOptions{Method: m})
			return testing.AllocsPerRun(3, func() {
				for _, err := range s.All() {
					if err != nil {
						t.Fatal(err)
					}
				}
			})
		}
		half, full := allocs(20000), allocs(40000)
		t.Logf("%v: %.0f allocations for 20,000 sequences, %.0f for 40,000", m, half, full)
		if full > 1.1*half {
			t.Errorf("%v: %.0f allocations for 20,000 sequences, %.0f for 40,000: the packer allocates per batch", m, half, full)
		}
	}
}

func TestPackedClone(t *testing.T) {
	seqs := [][]int{{1, 2}, {3}, {4, 5, 6}}
	var kept []*stream.Packed[int]
	for p, err := range stream.Map(stream.Pack(stream.FromSlice(seqs), 3, 1, stream.PackOptions{}), (*stream.Packed[int]).Clone).All() {
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, p)
	}
	var got [][]int
	for _, p := range kept {
		got = append(got, p.Tokens)
	}
	if diff := cmp.Diff([][]int{{1, 2, 3}, {4, 5, 6}}, got); diff != "" {
		t.Errorf("cloned batches mismatch (-want +got):\n%s", diff)
	}
	defer func() {
		var ie *container.IndexError
		if err, ok := recover().(error); !ok || !errors.As(err, &ie) || ie.Index != 1 || ie.Nobs != 1 {
			t.Errorf("Row(1) of 1 row: panic %v, want *container.IndexError for index 1 of 1", err)
		}
	}()
	kept[0].Row(1)
}

// TestPackResume restores both packers at every batch: the open rows, the
// closed rows not yet yielded and the window being read are in the state, at
// most a window and a batch of rows.
func TestPackResume(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	seqs := randomSeqs(rng, 300, 20)
	for _, m := range []stream.PackMethod{stream.FirstFit, stream.BestFitDecreasing} {
		s := stream.Map(stream.Pack(stream.FromSlice(seqs), 24, 3, stream.PackOptions{Method: m, Window: 10}), (*stream.Packed[int]).Clone)
		want, err := read(t, s)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k <= len(want); k += 1 + k/4 {
			got, err := rest(restored(t, s, savedAfter(t, s, k)))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want[k:], got, cmpEmptyPacked); d != "" {
				t.Fatalf("%v restored after %d batches mismatch (-want +got):\n%s", m, k, d)
			}
		}
	}
}

var cmpEmptyPacked = cmp.Comparer(func(a, b []*stream.Packed[int]) bool {
	return slices.EqualFunc(a, b, func(p, q *stream.Packed[int]) bool { return cmp.Equal(p, q) })
})
