package parquet_test

import (
	"fmt"

	"github.com/obskit/obskit/columnar/parquet"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// A table written by DuckDB in three row groups: two columns as features, u8
// as labels for a stratified split, and epochs of the first half in the order
// of the row groups, which decodes each row group once per epoch and resumes
// where it stopped.
func Example() {
	t, err := parquet.Open("../testdata/interop/duckdb-zstd.parquet")
	if err != nil {
		panic(err)
	}
	x, err := parquet.Numbers[int64](t, []string{"id", "label"}, parquet.Cache(2))
	if err != nil {
		panic(err)
	}
	y, err := parquet.Labels(t, "u8")
	if err != nil {
		panic(err)
	}
	data, err := tuples.Zip2(x, y)
	if err != nil {
		panic(err)
	}
	parts, err := subset.StratifiedSplit(data, nil, 0.5) // in data order: the row groups stay blocks
	if err != nil {
		panic(err)
	}
	train := parts[0]
	fmt.Println(t.Nobs(), "rows,", t.RowGroups(), "row groups; halves of", train.Nobs(), "and", parts[1].Nobs())

	// The row groups in a random order, the rows of each window of 2 of them
	// shuffled together: a cache of 2 decodes each row group once.
	loader := eachobs.NewLoader(train, 500, eachobs.ShuffleBlocks(1, 2))
	it := loader.Iter()
	seen := 0
	for b := range it.All() {
		seen += b.Real
		if b.Pos.Batch == 2 {
			break // a job stops
		}
	}
	saved, err := it.MarshalBinary()
	if err != nil {
		panic(err)
	}
	it.Close()
	again := loader.Iter() // the job restarts
	if err := again.UnmarshalBinary(saved); err != nil {
		panic(err)
	}
	defer again.Close()
	for b := range again.All() {
		if b.Pos.Epoch > 0 {
			break
		}
		seen += b.Real
	}
	fmt.Println(seen, "rows in epoch 0 of the first half")
	// Output:
	// 6000 rows, 3 row groups; halves of 3072 and 2928
	// 3072 rows in epoch 0 of the first half
}
