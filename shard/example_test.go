package shard_test

import (
	"bytes"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/shard"
	"github.com/obskit/obskit/shard/wds"
)

// tempDir returns a new directory, removed by cleanup.
func tempDir() (string, func()) {
	dir, err := os.MkdirTemp("", "shard-example")
	if err != nil {
		log.Fatal(err)
	}
	return dir, func() { os.RemoveAll(dir) }
}

// animals yields n samples: an "image" and its class.
func animals(n int) func(yield func(shard.Sample, error) bool) {
	return func(yield func(shard.Sample, error) bool) {
		for i := range n {
			s := shard.Sample{Key: fmt.Sprintf("%06d", i), Fields: []shard.Field{
				{Name: "jpg", Data: bytes.Repeat([]byte{byte(i)}, 600)},
				{Name: "cls", Data: []byte(strconv.Itoa(i % 3))},
			}}
			if !yield(s, nil) {
				return
			}
		}
	}
}

// Pack writes samples into tar shards of about 4 KiB and the manifest last.
func ExamplePack() {
	dir, cleanup := tempDir()
	defer cleanup()
	m, err := shard.Pack(shard.Dir(dir), "train/manifest.json", "train/s", animals(7), shard.PackOptions{ShardBytes: 4 << 10})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Kind, m.Samples, "samples, label field", m.Label)
	for _, s := range m.Shards {
		fmt.Println(s.Files[0].Name, s.Files[0].Bytes, "bytes", s.Samples, "samples")
	}
	// Output:
	// tar 7 samples, label field cls
	// s-w00000-000000.tar 6144 bytes 2 samples
	// s-w00000-000001.tar 6144 bytes 2 samples
	// s-w00000-000002.tar 6144 bytes 2 samples
	// s-w00000-000003.tar 3584 bytes 1 samples
}

// Several packers write one set with no coordination, each its own part of
// the samples under its own names; one Commit, once all have closed, writes
// the manifest.
func ExampleNewPacker() {
	dir, cleanup := tempDir()
	defer cleanup()
	store := shard.Dir(dir)
	for w := range 2 { // two processes, or two machines sharing a store
		p, err := shard.NewPacker(store, "s", shard.PackOptions{Writer: w, ShardBytes: 6 << 10})
		if err != nil {
			log.Fatal(err)
		}
		for s := range animals(5) {
			s.Key = fmt.Sprintf("w%d/%s", w, s.Key)
			if err := p.Write(s); err != nil {
				log.Fatal(err)
			}
		}
		if _, err := p.Close(); err != nil {
			log.Fatal(err)
		}
	}
	m, err := shard.Commit(store, "manifest.json", "s", 2)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range m.Shards {
		fmt.Println(s.Files[0].Name, s.Samples)
	}
	// Output:
	// s-w00000-000000.tar 3
	// s-w00000-000001.tar 2
	// s-w00001-000000.tar 3
	// s-w00001-000001.tar 2
}

// A loop in the two-level order reads a window of shards at a time;
// Prefetch reads the next shards whole while it does, following the same
// order (index.Upcoming over the loop's epoch order), one epoch at a time.
func ExampleSet_Prefetch() {
	dir, cleanup := tempDir()
	defer cleanup()
	if _, err := shard.Pack(shard.Dir(dir), "manifest.json", "s", animals(40), shard.PackOptions{ShardBytes: 8 << 10}); err != nil {
		log.Fatal(err)
	}
	set, err := shard.Open(shard.Dir(dir), "manifest.json")
	if err != nil {
		log.Fatal(err)
	}
	defer set.Close()
	const seed, window = 7, 2
	for epoch := range 2 {
		order := index.NewBlocksAt(set.BlockStarts(), window, seed, epoch) // the loop's order
		list := slices.Collect(index.Upcoming(order.At, set.BlockStarts(), 0, 1))
		ahead := set.Prefetch(slices.Values(list), window)
		var reached []int // the shards in the order the loop reaches them
		for b := range eachobs.NewLoader(set, 8, eachobs.ShuffleBlocks(seed, window)).Epoch(epoch) {
			for _, i := range b.Indices {
				if k, _ := set.Locate(i); !slices.Contains(reached, k) {
					reached = append(reached, k)
				}
			}
		}
		ahead.Stop()
		fmt.Printf("epoch %d: prefetched %v, the loop's order: %t\n", epoch, list, slices.Equal(list, reached))
	}
	// Output:
	// epoch 0: prefetched [6 5 7 3 2 8 1 4 0 9], the loop's order: true
	// epoch 1: prefetched [6 9 4 0 8 3 1 5 7 2], the loop's order: true
}

// Open reads the manifest alone; a sample's shard index is read when the
// sample is.
func ExampleOpen() {
	dir, cleanup := tempDir()
	defer cleanup()
	if _, err := shard.Pack(shard.Dir(dir), "manifest.json", "s", animals(7), shard.PackOptions{ShardBytes: 4 << 10}); err != nil {
		log.Fatal(err)
	}
	set, err := shard.Open(shard.Dir(dir), "manifest.json")
	if err != nil {
		log.Fatal(err)
	}
	defer set.Close()
	fmt.Println(set.Nobs(), "samples in shards starting at", set.BlockStarts())
	s := set.GetObs(5)
	k, j := set.Locate(5)
	cls, _ := s.Get("cls")
	fmt.Printf("sample 5: key %s, %d fields, cls %s, in shard %d at %d\n", s.Key, len(s.Fields), cls, k, j)
	fmt.Println(set.Where(5))
	// Output:
	// 7 samples in shards starting at [0 2 4 6 7]
	// sample 5: key 000005, 2 fields, cls 2, in shard 2 at 1
	// s-w00000-000002.tar: sample "000005" (1 of the shard)
}

// A field is a container of its bytes, read at its offset into a buffer the
// caller reuses; labels come from the indexes, without reading a shard; the
// shards are blocks, read a window at a time by eachobs.ShuffleBlocks.
func ExampleLabeledField() {
	dir, cleanup := tempDir()
	defer cleanup()
	if _, err := shard.Pack(shard.Dir(dir), "manifest.json", "s", animals(7), shard.PackOptions{ShardBytes: 4 << 10}); err != nil {
		log.Fatal(err)
	}
	set, err := shard.Open(shard.Dir(dir), "manifest.json")
	if err != nil {
		log.Fatal(err)
	}
	defer set.Close()
	data, err := shard.LabeledField(set, "jpg")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("labels:", data.Y())
	jpg := data.X()
	buf, err := jpg.AppendObs(nil, 3)
	fmt.Println(len(buf), "bytes,", jpg.Where(3), err)
	for b := range eachobs.Batches(data, 4, eachobs.ShuffleBlocks(1, 2)) {
		fmt.Println("batch", b.Indices, "labels", b.Data.Y)
	}
	// Output:
	// labels: [0 1 2 0 1 2 0]
	// 600 bytes, s-w00000-000001.tar: sample "000003" (1 of the shard): field "jpg" at offset 3072 <nil>
	// batch [0 3 1 2] labels [0 0 1 2]
	// batch [6 4 5] labels [0 1 2]
}

// Npy shards hold numeric fields as rows of one .npy file per field, which
// ArraysOf reads straight into a batch.
func ExampleArraysOf() {
	dir, cleanup := tempDir()
	defer cleanup()
	rows := func(yield func(shard.Sample, error) bool) {
		for i := range 5 {
			x, _ := arraycontainer.New([]float32{float32(i), float32(i) / 2}, []int{2}, obsdim.First)
			var buf bytes.Buffer
			npy.Write(&buf, x)
			if !yield(shard.Sample{Key: fmt.Sprint(i), Fields: []shard.Field{{Name: "x.npy", Data: buf.Bytes()}}}, nil) {
				return
			}
		}
	}
	m, err := shard.Pack(shard.Dir(dir), "manifest.json", "s", rows, shard.PackOptions{Format: shard.Npy, ShardBytes: 16})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Shards[0].Files[0].Name, m.Fields[0].Dtype, m.Fields[0].Shape)
	set, err := shard.Open(shard.Dir(dir), "manifest.json")
	if err != nil {
		log.Fatal(err)
	}
	defer set.Close()
	x, err := shard.ArraysOf[float32](set, "x.npy")
	if err != nil {
		log.Fatal(err)
	}
	batch := x.GetObsInto(nil, []int{4, 0, 2})
	fmt.Println(batch.Shape(), batch.Data())
	// Output:
	// s-w00000-000000.x.npy <f4 [2]
	// [3 2] [4 2 0 0 2 1]
}

// IndexTars makes a set of tar shards another tool wrote, indexing each.
func ExampleIndexTars() {
	dir, cleanup := tempDir()
	defer cleanup()
	var buf bytes.Buffer
	w := wds.NewWriter(&buf) // or webdataset's TarWriter, or tar
	for _, key := range []string{"cat/1", "dog/2"} {
		w.WriteSample(key, func(yield func(string, []byte) bool) {
			_ = yield("jpg", []byte("image of "+key)) && yield("cls", []byte{key[0]%3 + '0'})
		})
	}
	w.Close()
	os.WriteFile(filepath.Join(dir, "a.tar"), buf.Bytes(), 0o666)
	m, err := shard.IndexTars(shard.Dir(dir), "manifest.json", []string{"a.tar"}, shard.IndexOptions{})
	if err != nil {
		log.Fatal(err)
	}
	set, _ := shard.Open(shard.Dir(dir), "manifest.json")
	defer set.Close()
	jpg, _ := set.Field("jpg")
	fmt.Println(m.Samples, m.Shards[0].Index.Name, m.Label)
	fmt.Printf("%s\n", jpg.GetObs(1))
	// Output:
	// 2 a.tar.index cls
	// image of dog/2
}

// Verify reads every shard whole and checks it against the manifest.
func ExampleVerify() {
	dir, cleanup := tempDir()
	defer cleanup()
	m, err := shard.Pack(shard.Dir(dir), "manifest.json", "s", animals(7), shard.PackOptions{ShardBytes: 4 << 10})
	if err != nil {
		log.Fatal(err)
	}
	rep, _ := shard.Verify(shard.Dir(dir), "manifest.json", nil)
	fmt.Println(rep.Shards, "shards,", rep.Samples, "samples,", len(rep.Problems), "problems")

	// A byte of the second shard's second sample's jpg changes.
	name := filepath.Join(dir, m.Shards[1].Files[0].Name)
	b, _ := os.ReadFile(name)
	b[3072] ^= 1
	os.WriteFile(name, b, 0o666)
	rep, _ = shard.Verify(shard.Dir(dir), "manifest.json", nil)
	fmt.Println(len(rep.Problems), "problem:", errors.Is(rep.Problems[0], shard.ErrCorrupt))
	set, _ := shard.Open(shard.Dir(dir), "manifest.json")
	defer set.Close()
	var s shard.Sample
	fmt.Println(set.ReadSample(&s, 3))
	// Output:
	// 4 shards, 7 samples, 0 problems
	// 1 problem: true
	// shard: s-w00000-000001.tar: sample "000003" (1 of the shard): field "jpg" at offset 3072: shard does not match its manifest: CRC-32C 4459bbe3, the index says d7fc4cd3
}

// A Store's objects appear whole at Commit; List yields names in byte order,
// as an object store lists them.
func ExampleDir() {
	dir, cleanup := tempDir()
	defer cleanup()
	store := shard.Dir(dir)
	for _, name := range []string{"train/b.tar", "train/a.tar", "train.json"} {
		w, err := store.Create(name)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Fprintf(w, "contents of %s", name)
		if err := w.Commit(); err != nil {
			log.Fatal(err)
		}
	}
	w, _ := store.Create("train/c.tar") // never committed: never seen
	w.Close()
	for name, err := range store.List("train") {
		fmt.Println(name, err)
	}
	o, _ := store.Open("train/a.tar")
	defer o.Close()
	b := make([]byte, 8)
	o.ReadAt(b, 12)
	fmt.Printf("%d bytes, %q at 12\n", o.Size(), b)
	// Output:
	// train.json <nil>
	// train/a.tar <nil>
	// train/b.tar <nil>
	// 23 bytes, "train/a." at 12
}
