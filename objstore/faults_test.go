package objstore_test

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/objstore"
	"github.com/obskit/obskit/objstore/s3test"
	"github.com/obskit/obskit/shard"
)

// epochThrough reads an epoch of the set whose manifest is set/manifest.json
// in src through a cache in dir of limit bytes, with a read-ahead of depth
// shards, in the order of ShuffleBlocks(1, 2), batches of 8; after the
// batch numbered at (if at >= 0), it calls fault. It returns the samples
// read, in order, checked against sampleOf, or the first error: a read's
// (delivered by the loop as a *container.PanicError) or the read-ahead's.
func epochThrough(t *testing.T, src shard.Store, dir string, limit int64, depth int, at int, fault func()) (read []int, err error) {
	t.Helper()
	cache, err := objstore.NewCache(src, dir, limit)
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	set, err := shard.Open(cache, "set/manifest.json", shard.MaxOpen(4))
	if err != nil {
		return nil, err
	}
	defer set.Close()
	cache.ExpectSet(set.Manifest(), "set/manifest.json")
	order := index.NewBlocksAt(set.BlockStarts(), 2, 1, 0)
	ra := cache.ReadAheadSet(set.Manifest(), "set/manifest.json", index.Upcoming(order.At, set.BlockStarts(), 0, 1), depth, 2)
	defer ra.Stop()
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(error)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	for b := range eachobs.NewLoader(set, 8, eachobs.ShuffleBlocks(1, 2)).Epoch(0) {
		for j, i := range b.Indices {
			if want := sampleOf(i); b.Data[j].Key != want.Key || !bytes.Equal(b.Data[j].Fields[0].Data, want.Fields[0].Data) {
				t.Fatalf("sample %d: wrong bytes", i)
			}
			read = append(read, i)
		}
		if b.Pos.Batch == at {
			fault()
		}
	}
	return read, nil
}

// TestFaultServerRestart kills the server after the 10th batch of an epoch
// and restarts it 2 s later: the loop's reads and the read-ahead's fetches
// wait through their retries and the epoch ends with every sample read
// once.
func TestFaultServerRestart(t *testing.T) {
	srv, err := s3test.Start("faults")
	if err != nil {
		s3test.Unavailable(t, err)
	}
	defer srv.Stop()
	b := srv.NewBucket(t, "p")
	packSet(t, b, 600, 20_000)
	restarted := make(chan error, 1)
	read, err := epochThrough(t, b, t.TempDir(), 1<<20, 3, 10, func() {
		srv.Kill()
		go func() {
			time.Sleep(2 * time.Second)
			restarted <- srv.Restart()
		}()
	})
	if err != nil {
		t.Fatalf("an epoch across a server restart failed: %v", err)
	}
	if err := <-restarted; err != nil {
		t.Fatal(err)
	}
	slices.Sort(read)
	if !slices.Equal(read, seq(0, 600)) {
		t.Fatalf("the epoch read %d samples, want 600 each once", len(read))
	}
	if b.Stats().Retries.Load() == 0 {
		t.Log("no request was retried: the epoch ran from copies during the outage")
	}
}

// TestFaultCorruptShard flips a byte of a sample's member in a shard stored
// in the bucket (same size). Whole reads check the shard's SHA-256: the
// read-ahead's copy fails with ErrChecksum naming the object and both sums,
// and so does the loop's Open of a shard small enough to be fetched whole
// (up to 1 MiB). Ranged reads check each member's CRC-32C: over a shard of
// 1.5 MB the loop fails with shard.ErrCorrupt naming the shard, the sample's
// key, the field and the checksum. The loop delivers both as a
// *container.PanicError.
func TestFaultCorruptShard(t *testing.T) {
	for _, c := range []struct {
		what       string
		n          int
		shardBytes int64
		want       error
		names      func(name, key string) []string
	}{
		{"a small shard, read whole", 300, 20_000, objstore.ErrChecksum,
			func(name, key string) []string { return []string{name, "SHA-256"} }},
		{"a large shard, read by ranges", 4000, 1_500_000, shard.ErrCorrupt,
			func(name, key string) []string { return []string{name, key, `field "bin"`, "CRC-32C"} }},
	} {
		t.Run(c.what, func(t *testing.T) {
			b := s3test.Bucket(t)
			m := packSet(t, b, c.n, c.shardBytes)
			const k = 1
			name := "set/" + m.Shards[k].Files[0].Name
			o, err := b.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			data := readAll(t, o)
			o.Close()
			data[1000] ^= 0x40 // inside the shard's first sample's bin member (after its 512-byte header)
			put(t, b, name, data)

			cache, err := objstore.NewCache(b, t.TempDir(), 10<<20)
			if err != nil {
				t.Fatal(err)
			}
			defer cache.Close()
			set, err := shard.Open(cache, "set/manifest.json")
			if err != nil {
				t.Fatal(err)
			}
			defer set.Close()
			cache.ExpectSet(set.Manifest(), "set/manifest.json")
			if c.want == objstore.ErrChecksum {
				ra := cache.ReadAheadSet(set.Manifest(), "set/manifest.json", slices.Values([]int{k}), 1, 1)
				<-ra.Done()
				deadline := time.Now().Add(time.Minute)
				for ra.Err() == nil && time.Now().Before(deadline) {
					time.Sleep(5 * time.Millisecond)
				}
				if err := ra.Err(); !errors.Is(err, objstore.ErrChecksum) || !strings.Contains(err.Error(), b.URL(name)) || !strings.Contains(err.Error(), m.Shards[k].Files[0].SHA256.String()) {
					t.Fatalf("the copy of a corrupted shard: %v, want ErrChecksum naming %s and the manifest's SHA-256", err, b.URL(name))
				}
				ra.Stop()
			}
			var perr *container.PanicError
			func() {
				defer func() {
					if r := recover(); r != nil {
						perr, _ = r.(*container.PanicError)
						if perr == nil {
							panic(r)
						}
					}
				}()
				for range eachobs.NewLoader(set, 10).Epoch(0) {
				}
			}()
			if perr == nil {
				t.Fatal("an epoch over a corrupted shard ended without an error")
			}
			msg := strings.SplitN(perr.Error(), "\n", 2)[0]
			for _, want := range c.names(name, sampleOf(m.Shards[0].Samples).Key) {
				if !strings.Contains(msg, want) {
					t.Errorf("the error %q does not name %s", msg, want)
				}
			}
			if !errors.Is(perr, c.want) {
				t.Errorf("the error %q does not wrap %v", msg, c.want)
			}
		})
	}
}

// TestFaultMissingShard removes a shard from the bucket: its first read is
// an error wrapping fs.ErrNotExist that names the object.
func TestFaultMissingShard(t *testing.T) {
	b := s3test.Bucket(t)
	m := packSet(t, b, 300, 20_000)
	name := "set/" + m.Shards[2].Files[0].Name
	if err := b.Remove(name); err != nil {
		t.Fatal(err)
	}
	_, err := epochThrough(t, b, t.TempDir(), 1<<20, 2, -1, nil)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), b.URL(name)) {
		t.Fatalf("an epoch with a shard missing: %v, want fs.ErrNotExist naming %s", err, b.URL(name))
	}
}

// TestFaultSmallCache reads an epoch through a cache of 2 shards while the
// set keeps 4 open and the read-ahead asks for 4 ahead: the loop ends, with
// every sample once, reading by ranges what the cache cannot hold; the
// directory stays under its limit and holds no temporary.
func TestFaultSmallCache(t *testing.T) {
	b := s3test.Bucket(t)
	m := packSet(t, b, 600, 20_000)
	limit := 2 * (m.Shards[0].Files[0].Bytes + m.Shards[0].Index.Bytes)
	dir := t.TempDir()
	done := make(chan struct{})
	var read []int
	var err error
	go func() {
		defer close(done)
		read, err = epochThrough(t, b, dir, limit, 4, -1, nil)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("an epoch through a cache of 2 shards did not end in 2 minutes: deadlock")
	}
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(read)
	if !slices.Equal(read, seq(0, 600)) {
		t.Fatalf("the epoch read %d samples, want 600 each once", len(read))
	}
	if got := dirBytes(dir); got > limit {
		t.Fatalf("the cache holds %d bytes, limit %d", got, limit)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, "tmp", "*")); len(tmp) != 0 {
		t.Fatalf("temporaries left: %v", tmp)
	}
}
