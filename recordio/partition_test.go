package recordio

import (
	"bytes"
	"slices"
	"testing"

	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/subset"
)

// mxnetByteParts returns the number of records in each part of f as dmlc-core's
// InputSplitBase partitions a file without an index (ResetPartition and
// SeekRecordBegin): equal byte ranges, rounded up to 4 bytes, each boundary
// moved forward to the next record start.
func mxnetByteParts(f *File, parts int) []int {
	size := f.Size()
	step := (size + int64(parts) - 1) / int64(parts)
	step = (step + 3) / 4 * 4
	seek := func(off int64) int64 { // the first record start at or after off
		i, _ := slices.BinarySearch(f.offs, off)
		if i == len(f.offs) {
			return size
		}
		return f.offs[i]
	}
	counts := make([]int, parts)
	for k := range counts {
		begin, end := min(step*int64(k), size), min(step*int64(k+1), size)
		if begin == end {
			continue
		}
		begin, end = seek(begin), seek(end)
		for _, off := range f.offs {
			if off >= begin && off < end {
				counts[k]++
			}
		}
	}
	return counts
}

// mxnetIndexedParts returns the part sizes of dmlc-core's
// IndexedRecordIOSplitter: ceil(n/parts) records per part.
func mxnetIndexedParts(n, parts int) []int {
	step := (n + parts - 1) / parts
	counts := make([]int, parts)
	for k := range counts {
		counts[k] = max(0, min(step*(k+1), n)-step*k)
	}
	return counts
}

// TestMXNetPartitions checks the example of the package documentation: ten
// records, the first of 1,000 bytes and nine of 10 bytes, in three parts.
func TestMXNetPartitions(t *testing.T) {
	recs := [][]byte{make([]byte, 1000)}
	for range 9 {
		recs = append(recs, make([]byte, 10))
	}
	b, _ := encode(t, recs)
	f, err := NewFile(bytes.NewReader(b), int64(len(b)), "ten", nil)
	if err != nil {
		t.Fatal(err)
	}
	var kit []int
	for k := range 3 {
		p, err := subset.Partition(f, nil, index.Part{Index: k, Parts: 3})
		if err != nil {
			t.Fatal(err)
		}
		kit = append(kit, p.Nobs())
	}
	for _, c := range []struct {
		name      string
		got, want []int
	}{
		{"MXNet without an index", mxnetByteParts(f, 3), []int{1, 0, 9}},
		{"MXNet with an index", mxnetIndexedParts(10, 3), []int{4, 4, 2}},
		{"the kit", kit, []int{4, 3, 3}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: parts of %v records, the package doc says %v", c.name, c.got, c.want)
		}
	}
}
