package parquet_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	pq "github.com/parquet-go/parquet-go"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/columnar/parquet"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

var (
	benchBytes = flag.Int64("parquet.bytes", 1<<30, "size of the float32 features of BenchmarkEpoch's table")
	benchDir   = flag.String("parquet.dir", "", "directory that keeps BenchmarkEpoch's table and .npy files between runs (a temporary one when empty)")
)

const (
	benchCols  = 64      // float32 feature columns
	benchGroup = 1 << 16 // rows a row group
	benchBatch = 128
	benchWin   = 4 // row groups a window of the local order
)

// writeTable writes rows of benchCols float32 columns f00.. and an int64
// label (row i: label i, features i+j/100) with snappy, in row groups of
// benchGroup rows, and the same data as x.npy and y.npy.
func writeTable(b *testing.B, dir string, rows int) {
	path := filepath.Join(dir, "t.parquet")
	if _, err := os.Stat(path); err == nil {
		return
	}
	group := pq.Group{"label": pq.Required(pq.Leaf(pq.Int64Type))}
	for j := range benchCols {
		group[fmt.Sprintf("f%02d", j)] = pq.Required(pq.Leaf(pq.FloatType))
	}
	schema := pq.NewSchema("t", group)
	out, err := os.Create(path + ".tmp")
	if err != nil {
		b.Fatal(err)
	}
	w := pq.NewWriter(out, schema, pq.Compression(&pq.Snappy))
	buf := pq.NewBuffer(schema)
	x := make([]float32, rows*benchCols)
	y := make([]int64, rows)
	for lo := 0; lo < rows; lo += benchGroup {
		hi := min(rows, lo+benchGroup)
		buf.Reset()
		col := make([]float32, hi-lo)
		for k, c := range schema.Columns() {
			cb := buf.ColumnBuffers()[k]
			if c[0] == "label" {
				labels := y[lo:hi]
				for i := range labels {
					labels[i] = int64(lo + i)
				}
				cb.(interface{ WriteInt64s([]int64) (int, error) }).WriteInt64s(labels)
				continue
			}
			var j int
			fmt.Sscanf(c[0], "f%d", &j)
			for i := range col {
				col[i] = float32(lo+i) + float32(j)/100
				x[(lo+i)*benchCols+j] = col[i]
			}
			cb.(interface{ WriteFloats([]float32) (int, error) }).WriteFloats(col)
		}
		if _, err := w.WriteRowGroup(buf); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	out.Close()
	xa, _ := arraycontainer.New(x, []int{rows, benchCols}, obsdim.First)
	ya, _ := arraycontainer.New(y, []int{rows}, obsdim.First)
	if err := npy.Save(filepath.Join(dir, "x.npy"), xa); err != nil {
		b.Fatal(err)
	}
	if err := npy.Save(filepath.Join(dir, "y.npy"), ya); err != nil {
		b.Fatal(err)
	}
	os.Rename(path+".tmp", path)
}

// BenchmarkEpoch is issue 18's Parquet target: a table of float32 features
// (64 columns, 1 GiB by default: -parquet.bytes) and an int64 label, in row
// groups of 65,536 rows with snappy, read in batches of 128 as one Numbers
// container of the 64 columns and the label column:
//
//   - local: an epoch in the order of the row groups (index.NewBlocksAt over
//     the row group starts, eachobs.ShuffleBlocks' order: windows of 4 row
//     groups, a cache of 4), local-ms;
//   - npy: the same epoch order from memory-mapped .npy files of the same
//     data, npy-ms, and x-npy = npy time over local time;
//   - full: a full shuffle with the same cache, which decodes a row group for
//     nearly every row: its first 2 batches are timed (full-ms-batch) and the
//     epoch projected from them (full-ms), and x-full = full over local.
func BenchmarkEpoch(b *testing.B) {
	rows := int(*benchBytes / 4 / benchCols)
	dir := *benchDir
	if dir == "" {
		dir = b.TempDir()
	}
	writeTable(b, dir, rows)
	f, err := parquet.Open(filepath.Join(dir, "t.parquet"))
	if err != nil {
		b.Fatal(err)
	}
	names := make([]string, benchCols)
	for j := range names {
		names[j] = fmt.Sprintf("f%02d", j)
	}
	nx, err := npy.Open[float32](filepath.Join(dir, "x.npy"), obsdim.First)
	if err != nil {
		b.Fatal(err)
	}
	ny, err := npy.Open[int64](filepath.Join(dir, "y.npy"), obsdim.First)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var bx *arraycontainer.Array[float32]
	var by *arraycontainer.Array[int64]
	epoch := func(x *columnar.Numbers[float32], y *columnar.Numbers[int64], order []int, batches int) time.Duration {
		t0 := time.Now()
		for k, lo := 0, 0; lo < len(order) && k < batches; k, lo = k+1, lo+benchBatch {
			idx := order[lo:min(len(order), lo+benchBatch)]
			bx = x.GetObsInto(bx, idx)
			by = y.GetObsInto(by, idx)
		}
		return time.Since(t0)
	}
	npyEpoch := func(order []int) time.Duration {
		t0 := time.Now()
		for lo := 0; lo < len(order); lo += benchBatch {
			idx := order[lo:min(len(order), lo+benchBatch)]
			bx = nx.GetObsInto(bx, idx)
			by = ny.GetObsInto(by, idx)
		}
		return time.Since(t0)
	}
	open := func() (*columnar.Numbers[float32], *columnar.Numbers[int64]) {
		x, err := parquet.Numbers[float32](f, names, parquet.Cache(benchWin))
		if err != nil {
			b.Fatal(err)
		}
		y, err := parquet.Numbers[int64](f, []string{"label"}, parquet.Cache(benchWin))
		if err != nil {
			b.Fatal(err)
		}
		return x, y
	}
	nb := (rows + benchBatch - 1) / benchBatch
	npyEpoch(rng.Perm(rows)) // fault the mapping in
	var local, npyT, full time.Duration
	const fullBatches = 2
	b.SetBytes(int64(rows) * (benchCols*4 + 8))
	order := make([]int, rows)
	for e := 0; b.Loop(); e++ {
		blocks := index.NewBlocksAt(f.RowGroupStarts(), benchWin, 3, e)
		blocks.Fill(order, 0)
		x, y := open()
		local += epoch(x, y, order, nb)
		npyT += npyEpoch(order)
		x, y = open()
		full += epoch(x, y, rng.Perm(rows), fullBatches)
	}
	n := float64(b.N)
	fullEpoch := full.Seconds() * float64(nb) / fullBatches
	b.ReportMetric(local.Seconds()*1000/n, "local-ms")
	b.ReportMetric(npyT.Seconds()*1000/n, "npy-ms")
	b.ReportMetric(full.Seconds()*1000/n/fullBatches, "full-ms-batch")
	b.ReportMetric(fullEpoch*1000/n, "full-ms")
	b.ReportMetric(npyT.Seconds()/local.Seconds(), "x-npy")
	b.ReportMetric(fullEpoch/local.Seconds(), "x-full")
}
