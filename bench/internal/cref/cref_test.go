package cref

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
)

func TestRows(t *testing.T) {
	if !Available {
		t.Skip("the C reference needs cgo: built with CGO_ENABLED=0 or without a C compiler")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 63, 64, 784, 3136, 5000} {
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
		for _, f := range []struct {
			name string
			run  func(dst []byte)
		}{
			{"Rows", func(dst []byte) { Rows(dst, src, n, stride, idx, 0) }},
			{"Rows ahead 2", func(dst []byte) { Rows(dst, src, n, stride, idx, 2) }},
			{"RowsDist 8 KiB", func(dst []byte) { RowsDist(dst, src, n, stride, idx, 8<<10) }},
		} {
			got := make([]byte, len(want))
			f.run(got)
			if !bytes.Equal(got, want) {
				t.Errorf("%s of %d-byte rows differs from copy()", f.name, n)
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
