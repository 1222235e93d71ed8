package objstore_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/objstore"
	"github.com/obskit/obskit/shard"
)

// Two ranks read their shares of a shard set through caches of their own,
// in the order of eachobs.ShuffleBlocksLocal, each fetching ahead the shards
// it reads next. The source here is a local directory standing for the
// bucket; in a job it is objstore.OpenURL("s3://bucket/prefix"), and the
// rank and world come from objstore.Launched.
func ExampleCache() {
	tmp, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(tmp)
	bucket := shard.Dir(filepath.Join(tmp, "bucket"))
	samples := func(yield func(shard.Sample, error) bool) {
		for i := range 600 {
			s := shard.Sample{Key: fmt.Sprintf("%06d", i), Fields: []shard.Field{{Name: "txt", Data: []byte(strconv.Itoa(i))}}}
			if !yield(s, nil) {
				return
			}
		}
	}
	if _, err := shard.Pack(bucket, "train/manifest.json", "train/s", samples, shard.PackOptions{ShardBytes: 20_000}); err != nil {
		panic(err)
	}

	// runs: the number of ranks, or a multiple of every number the job may
	// restart with (12 for 2, 3, 4 or 6) when shards are many to a run.
	const seed, window, runs = 1, 2, 2
	for rank := range 2 {
		world := objstore.World{Rank: rank, Size: 2}
		cache, err := objstore.NewCache(bucket, filepath.Join(tmp, "cache", strconv.Itoa(rank)), 64<<20)
		if err != nil {
			panic(err)
		}
		set, err := shard.Open(cache, "train/manifest.json", shard.MaxOpen(window*runs/world.Size+2))
		if err != nil {
			panic(err)
		}
		cache.ExpectSet(set.Manifest(), "train/manifest.json")
		order := index.NewLocalBlocks(set.BlockStarts(), window, runs, seed, 0) // epoch 0's order, as the loop computes it
		ahead := cache.ReadAheadSet(set.Manifest(), "train/manifest.json",
			index.Upcoming(order.At, set.BlockStarts(), world.Rank, world.Size), window, 2)

		loader := eachobs.NewLoader(set, 50, eachobs.ShuffleBlocksLocal(seed, window, runs),
			eachobs.Partition(world.Part()), eachobs.Tail(index.Pad))
		batches, samples, shards := 0, 0, map[int]bool{}
		for b := range loader.Epoch(0) {
			batches++
			samples += b.Real
			for _, i := range b.Indices[:b.Real] {
				k, _ := set.Locate(i)
				shards[k] = true
			}
		}
		ahead.Stop()
		fmt.Printf("rank %d of %d: %d batches, %d samples from %d of the %d shards\n", rank, world.Size, batches, samples, len(shards), len(set.Manifest().Shards))
		set.Close()
		cache.Close()
	}
	// Output:
	// rank 0 of 2: 6 batches, 300 samples from 15 of the 29 shards
	// rank 1 of 2: 6 batches, 300 samples from 15 of the 29 shards
}

// A process's rank and world size come from the launcher's variables: here
// torchrun's.
func ExampleLaunched() {
	os.Setenv("RANK", "3")
	os.Setenv("WORLD_SIZE", "8")
	os.Setenv("LOCAL_RANK", "1")
	defer func() {
		for _, v := range []string{"RANK", "WORLD_SIZE", "LOCAL_RANK"} {
			os.Unsetenv(v)
		}
	}()
	w, err := objstore.Launched(-1, 0, 0) // no -rank or -world flag given
	if err != nil {
		panic(err)
	}
	fmt.Printf("rank %d of %d (local rank %d), from %s; %+v\n", w.Rank, w.Size, w.LocalRank, w.From, w.Part())
	// Output:
	// rank 3 of 8 (local rank 1), from torchrun; {Index:3 Parts:8 Strided:true Tail:keep}
}
