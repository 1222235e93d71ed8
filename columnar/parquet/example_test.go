package parquet_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/columnar/parquet"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// A table written by DuckDB in three row groups: two columns as features, u8
// as labels for a stratified split, and an epoch in the two-level order that
// decodes each row group once.
func Example() {
	t, err := parquet.Open("../testdata/interop/duckdb-zstd.parquet")
	if err != nil {
		panic(err)
	}
	x, err := parquet.Numbers[int64](t, []string{"id", "label"}, parquet.Cache(3))
	if err != nil {
		panic(err)
	}
	y, err := parquet.Scalars[uint8](t, "u8")
	if err != nil {
		panic(err)
	}
	data, err := tuples.Zip2(x, y)
	if err != nil {
		panic(err)
	}
	parts, err := subset.StratifiedSplit(data, nil, 0.5)
	if err != nil {
		panic(err)
	}
	fmt.Println(t.Nobs(), "rows,", t.RowGroups(), "row groups; halves of", parts[0].Nobs(), "and", parts[1].Nobs())

	order := columnar.LocalOrder(t.RowGroupStarts(), 3, rand.New(rand.NewPCG(1, 0)))
	seen := 0
	for b := range eachobs.Batches(subset.Of(data, order), 1000) {
		seen += b.Data.X.Nobs()
	}
	fmt.Println(seen, "rows in the epoch")
	// Output:
	// 6000 rows, 3 row groups; halves of 3072 and 2928
	// 6000 rows in the epoch
}
