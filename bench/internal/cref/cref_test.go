package cref

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Every way of copying the rows writes what copy() writes, for rows around
// each routine's width, at every alignment of the destination.
func TestRows(t *testing.T) {
	if !Available {
		t.Skip("the C reference needs cgo: built with CGO_ENABLED=0 or without a C compiler")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 15, 31, 63, 64, 100, 784, 3136, 5000} {
		stride := n + rng.IntN(100)
		src := make([]byte, 50*stride+n)
		for i := range src {
			src[i] = byte(rng.Uint32())
		}
		idx := make([]int, 40)
		for j := range idx {
			idx[j] = rng.IntN(51)
		}
		want := make([]byte, len(idx)*n)
		for j, i := range idx {
			copy(want[j*n:], src[i*stride:i*stride+n])
		}
		runs := map[string]func(dst []byte){
			"Rows":         func(dst []byte) { Rows(dst, src, n, stride, idx, 0) },
			"Rows ahead 2": func(dst []byte) { Rows(dst, src, n, stride, idx, 2) },
		}
		for _, r := range Routines {
			for _, dist := range []int{0, 100, 8 << 10} {
				for _, head := range []int{64, n} {
					if r.Available() {
						runs[fmt.Sprint("Cursor ", r, " ", dist, " ", head)] = func(dst []byte) { Cursor(dst, src, n, stride, idx, dist, head, r) }
					}
				}
			}
		}
		for name, run := range runs {
			off := rng.IntN(32)
			got := make([]byte, off+len(want))
			run(got[off:])
			if !bytes.Equal(got[off:], want) {
				t.Errorf("%s of %d-byte rows differs from copy()", name, n)
			}
		}
	}
}

func TestCheck(t *testing.T) {
	if !Available {
		t.Skip("the C reference needs cgo")
	}
	src, dst := make([]byte, 100), make([]byte, 100)
	for _, idx := range [][]int{{10}, {-1}, {math.MaxInt}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Rows(idx %v) of 10-byte rows with stride 10 from 100 bytes: no panic", idx)
				}
			}()
			Rows(dst, src, 10, 10, idx, 0)
		}()
	}
}

// Every order of the observation-last gather writes what one element at a
// time writes.
func TestColumns(t *testing.T) {
	if !Available {
		t.Skip("the C reference needs cgo: built with CGO_ENABLED=0 or without a C compiler")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	const rows, width = 300, 9
	src := make([]uint32, rows*width)
	for i := range src {
		src[i] = rng.Uint32()
	}
	idx := append(rng.Perm(rows)[:100], 7, 7, 0, rows-1)
	want := make([]uint32, width*len(idx))
	for f := range width {
		for j, i := range idx {
			want[f*len(idx)+j] = src[f*rows+i]
		}
	}
	for _, c := range []struct {
		ahead int
		o     ColumnOrder
	}{{0, RowByRow}, {1, RowByRow}, {4, RowByRow}, {0, RowBurst}, {0, PickByPick}} {
		got := make([]uint32, len(want))
		Columns(got, src, rows, idx, c.ahead, c.o)
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("Columns(ahead %d, order %d): element %d = %d, want %d", c.ahead, c.o, k, got[k], want[k])
			}
		}
	}
}
