package parquet

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	pq "github.com/parquet-go/parquet-go"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/tuples"
)

// writeGroups writes a table of an int64 column id (row i holds i) and an
// int64 label (i%5) with snappy, in row groups of the given sizes, and returns
// its path.
func writeGroups(t *testing.T, sizes []int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "groups.parquet")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	schema := pq.NewSchema("t", pq.Group{"id": pq.Required(pq.Leaf(pq.Int64Type)), "label": pq.Required(pq.Leaf(pq.Int64Type))})
	w := pq.NewWriter(out, schema, pq.Compression(&pq.Snappy))
	buf := pq.NewBuffer(schema)
	lo := 0
	for _, size := range sizes {
		buf.Reset()
		ids, labels := make([]int64, size), make([]int64, size)
		for i := range ids {
			ids[i], labels[i] = int64(lo+i), int64((lo+i)%5)
		}
		for k, c := range schema.Columns() {
			col := ids
			if c[0] == "label" {
				col = labels
			}
			if _, err := buf.ColumnBuffers()[k].(interface{ WriteInt64s([]int64) (int, error) }).WriteInt64s(col); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := w.WriteRowGroup(buf); err != nil {
			t.Fatal(err)
		}
		lo += size
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestShuffleBlocksEpoch: a table in row groups of unequal sizes is read by
// two ranks (eachobs.Partition) in the two-level order of its row groups
// (eachobs.ShuffleBlocks over the features zipped with labels), each rank with
// a container caching a window of row groups. An epoch of each rank decodes
// every row group once, the same with 3 workers, and the two ranks together
// read every row once. A rank stopped mid-epoch (after 1, 5 and 9 batches) and
// resumed from its saved state in a fresh container (a new process) reads the
// rest of the epoch exactly as the uninterrupted rank does, and decodes each
// row group it still reads once; the first part likewise. A full shuffle with
// the same cache decodes row groups again and again.
func TestShuffleBlocksEpoch(t *testing.T) {
	sizes := []int{40, 95, 17, 60, 33, 80, 5, 70} // 400 rows
	f, err := Open(writeGroups(t, sizes))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.RowGroupStarts(); !slices.Equal(got, []int{0, 40, 135, 152, 212, 245, 325, 330, 400}) {
		t.Fatalf("row groups start at %v", got)
	}
	const window, size, seed, epoch = 3, 16, 7, 1
	labels, err := Scalars[int64](f, "label")
	if err != nil {
		t.Fatal(err)
	}
	type data = tuples.Pair[*arraycontainer.Array[int64], []int64]
	loader := func(rank int, opts ...eachobs.Option) *eachobs.Loader[data] {
		x, err := Numbers[int64](f, []string{"id", "label"}, Cache(window)) // a fresh cache: a new process
		if err != nil {
			t.Fatal(err)
		}
		xy, err := tuples.Zip2(x, labels)
		if err != nil {
			t.Fatal(err)
		}
		return eachobs.NewLoader(xy, size, append(opts, eachobs.ShuffleBlocks(seed, window), eachobs.Partition(index.Part{Index: rank, Parts: 2}))...)
	}
	group := func(i int) int { // the row group of row i
		k, _ := slices.BinarySearch(f.starts, i+1)
		return k - 1
	}
	// rows reads the batches of epoch of seq, checking each row, until stop
	// says so after a batch, and returns the rows and the row groups decoded
	// to gather them (the loops are serial: a batch is gathered when it is
	// asked for, so the count after a batch is that of the batches so far);
	// distinct is the number of row groups the rows come from.
	rows := func(seq func(yield func(eachobs.Batch[data]) bool), stop func(eachobs.Batch[data]) bool) (got []int, decoded, distinct int64) {
		before := decodes.Load()
		seen := map[int]bool{}
		for b := range seq {
			if b.Pos.Epoch > epoch {
				break
			}
			decoded = decodes.Load() - before
			for k, i := range b.Indices[:b.Real] {
				if id, label := b.Data.X.At(k, 0), b.Data.Y[k]; id != int64(i) || b.Data.X.At(k, 1) != int64(i%5) || label != int64(i%5) {
					t.Fatalf("row %d reads id %d, labels %d and %d", i, id, b.Data.X.At(k, 1), label)
				}
				got = append(got, i)
				seen[group(i)] = true
			}
			if stop(b) {
				break
			}
		}
		return got, decoded, int64(len(seen))
	}
	never := func(eachobs.Batch[data]) bool { return false }
	var all []int
	for rank := range 2 {
		whole, decoded, _ := rows(loader(rank).Epoch(epoch), never)
		if decoded != int64(len(sizes)) {
			t.Errorf("rank %d: an epoch decoded %d row groups, want each of the %d once", rank, decoded, len(sizes))
		}
		all = append(all, whole...)
		if parallel, _, _ := rows(loader(rank, eachobs.Workers(3), eachobs.Prefetch(1)).Epoch(epoch), never); !slices.Equal(parallel, whole) {
			t.Errorf("rank %d: the epoch with 3 workers differs from the serial one", rank)
		}

		// Stop after k batches, save, resume in a fresh container.
		for _, k := range []int{1, 5, 9} {
			var saved []byte
			first, decodedA, distinctA := rows(loader(rank).Epoch(epoch), func(b eachobs.Batch[data]) bool {
				if b.Pos.Batch < k-1 {
					return false
				}
				if saved, err = b.Next().MarshalBinary(); err != nil {
					t.Fatal(err)
				}
				return true
			})
			it := loader(rank, eachobs.Workers(1)).Iter()
			if err := it.UnmarshalBinary(saved); err != nil {
				t.Fatalf("rank %d, resumed after %d batches: %v", rank, k, err)
			}
			rest, decodedB, distinctB := rows(it.All(), never)
			it.Close()
			if got := append(first, rest...); !slices.Equal(got, whole) {
				t.Errorf("rank %d, resumed after %d batches: rows\n%v\nwant\n%v", rank, k, got, whole)
			}
			if decodedA != distinctA || decodedB != distinctB {
				t.Errorf("rank %d, resumed after %d batches: decoded %d and %d row groups, want each read once, %d and %d", rank, k, decodedA, decodedB, distinctA, distinctB)
			}
		}
	}
	// The control: a full shuffle with the same cache decodes a row group for
	// most batches.
	x, err := Numbers[int64](f, []string{"id", "label"}, Cache(window))
	if err != nil {
		t.Fatal(err)
	}
	before := decodes.Load()
	for range eachobs.Batches(x, size, eachobs.Shuffle(seed)) {
	}
	if n := decodes.Load() - before; n < 3*int64(len(sizes)) {
		t.Errorf("a full shuffle decoded %d row groups; a cache of %d of %d should miss on most batches", n, window, len(sizes))
	}
	slices.Sort(all)
	if want := seqOf(f.Nobs()); !slices.Equal(all, want) {
		t.Errorf("the ranks read rows %v, want each of 0..%d once", all, f.Nobs()-1)
	}
}

func seqOf(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
