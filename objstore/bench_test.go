package objstore_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/objstore"
	"github.com/obskit/obskit/objstore/s3test"
	"github.com/obskit/obskit/shard"
)

var benchBytes = flag.Int64("objstore.bytes", 1<<30, "the bytes of the shard set of the epoch benchmarks")

// benchSet is the benchmarks' shard set, written once per run: samples of
// 100 KB ("bin") in tar shards of 64 MiB, on local disk and in the shared
// server's bucket.
var benchSet struct {
	once  sync.Once
	dir   string // the local copy, a shard.Dir
	srv   *s3test.Server
	pre   string // its prefix in the bucket
	bytes int64  // the samples' bytes
	n     int
	err   error
}

func benchSample(i int) shard.Sample {
	data := make([]byte, 100_000)
	for j := 0; j < len(data); j += 8 {
		data[j] = byte(i >> (j % 24))
	}
	return shard.Sample{Key: fmt.Sprintf("s%08d", i), Fields: []shard.Field{{Name: "bin", Data: data}}}
}

// setUp packs the set locally and uploads it (the kit's Bucket writer).
func setUp(b *testing.B) {
	b.Helper()
	srv := s3test.Shared(b)
	benchSet.once.Do(func() {
		benchSet.srv = srv
		benchSet.dir = filepath.Join(os.TempDir(), fmt.Sprintf("obskit-objstore-bench-%d", os.Getpid()))
		benchSet.n = int(*benchBytes / 100_000)
		benchSet.bytes = int64(benchSet.n) * 100_000
		seq := func(yield func(shard.Sample, error) bool) {
			for i := range benchSet.n {
				if !yield(benchSample(i), nil) {
					return
				}
			}
		}
		local := shard.Dir(benchSet.dir)
		m, err := shard.Pack(local, "set/manifest.json", "set/s", seq, shard.PackOptions{ShardBytes: 64 << 20})
		if err != nil {
			benchSet.err = err
			return
		}
		benchSet.pre = "bench"
		dst := srv.NewBucket(b, benchSet.pre)
		copyObj := func(name string) error {
			o, err := local.Open(name)
			if err != nil {
				return err
			}
			defer o.Close()
			w, err := dst.Create(name)
			if err != nil {
				return err
			}
			defer w.Close()
			if _, err := io.Copy(w, io.NewSectionReader(o, 0, o.Size())); err != nil {
				return err
			}
			return w.Commit()
		}
		for _, sh := range m.Shards {
			for _, f := range append(sh.Files[:len(sh.Files):len(sh.Files)], sh.Index) {
				if benchSet.err = copyObj("set/" + f.Name); benchSet.err != nil {
					return
				}
			}
		}
		benchSet.err = copyObj("set/manifest.json")
	})
	if benchSet.err != nil {
		b.Fatal(benchSet.err)
	}
}

// dropCacheOf asks the kernel to drop the page cache of the files under dir
// (posix_fadvise DONTNEED), so that a local epoch reads the disk.
func dropCacheOf(dir string) {
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		f.Sync()
		syscall.Syscall6(syscall.SYS_FADVISE64, f.Fd(), 0, 0, 4 /* POSIX_FADV_DONTNEED */, 0, 0)
		return nil
	})
}

// memStore holds objects in memory.
type memStore map[string][]byte

type memObject struct{ *bytes.Reader }

func (m memStore) Open(name string) (shard.Object, error) {
	b, ok := m[name]
	if !ok {
		return nil, os.ErrNotExist
	}
	return memObject{bytes.NewReader(b)}, nil
}
func (memObject) Close() error                              { return nil }
func (memStore) Create(string) (shard.Writer, error)        { return nil, os.ErrPermission }
func (memStore) List(string) iter.Seq2[string, error]       { return func(func(string, error) bool) {} }
func (o memObject) ReadAt(p []byte, off int64) (int, error) { return o.Reader.ReadAt(p, off) }
func (o memObject) Size() int64                             { return o.Reader.Size() }

// epoch reads an epoch of the set in store (ShuffleBlocks(1, 2), batches
// of 32, workers readers) and returns its time and the time to its first
// batch; cache, when not nil, gets the manifest's checksums and a
// read-ahead of 4 shards.
func epoch(b *testing.B, store shard.Store, cache *objstore.Cache, workers int) (total, first time.Duration) {
	start := time.Now()
	set, err := shard.Open(store, "set/manifest.json", shard.MaxOpen(8))
	if err != nil {
		b.Fatal(err)
	}
	defer set.Close()
	if cache != nil {
		cache.ExpectSet(set.Manifest(), "set/manifest.json")
		order := index.NewBlocksAt(set.BlockStarts(), 2, 1, 0)
		ra := cache.ReadAheadSet(set.Manifest(), "set/manifest.json", index.Upcoming(order.At, set.BlockStarts(), 0, 1), 4, 4)
		defer ra.Stop()
	}
	n := 0
	for bt := range eachobs.NewLoader(set, 32, eachobs.ShuffleBlocks(1, 2), eachobs.Workers(workers)).Epoch(0) {
		if n == 0 {
			first = time.Since(start)
		}
		n += bt.Real
	}
	if n != benchSet.n {
		b.Fatalf("an epoch of %d samples, want %d", n, benchSet.n)
	}
	return time.Since(start), first
}

// BenchmarkEpoch reads an epoch of raw samples (bytes, each member's
// CRC-32C checked) of a set of -objstore.bytes (1 GiB) in 64 MiB tar shards
// with 1, 2 and 4 reader goroutines, in the two-level order of
// ShuffleBlocks, from: memory; the local disk (page cache dropped); the S3
// server on loopback through a cache, cold (an empty directory, the shards
// fetched ahead) and warm (the copies of the cold epoch); and cold again
// through a proxy adding 20 ms to every request. It reports each one's MB/s
// and time to the first batch, and the ratios to the local disk and of the
// 20 ms epoch to the epoch without, all from one run.
func BenchmarkEpoch(b *testing.B) {
	setUp(b)
	b.Cleanup(func() { os.RemoveAll(benchSet.dir) })
	mem := memStore{}
	filepath.WalkDir(benchSet.dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(benchSet.dir, p)
			data, err := os.ReadFile(p)
			if err == nil {
				mem[filepath.ToSlash(rel)] = data
			}
			return err
		}
		return err
	})
	proxy, err := s3test.NewProxy(strings.TrimPrefix(benchSet.srv.Endpoint, "http://"))
	if err != nil {
		b.Fatal(err)
	}
	defer proxy.Close()
	proxy.SetLatency(20 * time.Millisecond)
	slowCfg := benchSet.srv.Config()
	slowCfg.Endpoint = proxy.Endpoint
	slowClient, err := objstore.New(slowCfg)
	if err != nil {
		b.Fatal(err)
	}
	for _, workers := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("readers=%d", workers), func(b *testing.B) {
			b.SetBytes(benchSet.bytes)
			var tMem, tDisk, tCold, tWarm, tSlow, fDisk, fCold, fWarm, fSlow time.Duration
			for b.Loop() {
				t, _ := epoch(b, mem, nil, workers)
				tMem += t
				dropCacheOf(benchSet.dir)
				t, f := epoch(b, shard.Dir(benchSet.dir), nil, workers)
				tDisk, fDisk = tDisk+t, fDisk+f
				bucket := benchSet.srv.NewBucket(b, benchSet.pre)
				cache, err := objstore.NewCache(bucket, b.TempDir(), 4<<30)
				if err != nil {
					b.Fatal(err)
				}
				t, f = epoch(b, cache, cache, workers)
				tCold, fCold = tCold+t, fCold+f
				t, f = epoch(b, cache, cache, workers)
				tWarm, fWarm = tWarm+t, fWarm+f
				cache.Close()
				slow, err := objstore.NewCache(slowClient.Bucket(benchSet.srv.Bucket, benchSet.pre), b.TempDir(), 4<<30)
				if err != nil {
					b.Fatal(err)
				}
				t, f = epoch(b, slow, slow, workers)
				tSlow, fSlow = tSlow+t, fSlow+f
				slow.Close()
			}
			mbs := func(t time.Duration) float64 { return float64(benchSet.bytes) * float64(b.N) / 1e6 / t.Seconds() }
			per := func(t time.Duration) float64 { return t.Seconds() * 1e3 / float64(b.N) }
			b.ReportMetric(mbs(tMem), "MB/s-mem")
			b.ReportMetric(mbs(tDisk), "MB/s-disk")
			b.ReportMetric(mbs(tCold), "MB/s-s3cold")
			b.ReportMetric(mbs(tWarm), "MB/s-s3warm")
			b.ReportMetric(mbs(tSlow), "MB/s-s3cold20ms")
			b.ReportMetric(tDisk.Seconds()/tCold.Seconds(), "x-cold/disk")
			b.ReportMetric(tDisk.Seconds()/tWarm.Seconds(), "x-warm/disk")
			b.ReportMetric(tCold.Seconds()/tSlow.Seconds(), "x-20ms/0ms")
			b.ReportMetric(per(fDisk), "ms-first-disk")
			b.ReportMetric(per(fCold), "ms-first-s3cold")
			b.ReportMetric(per(fWarm), "ms-first-s3warm")
			b.ReportMetric(per(fSlow), "ms-first-s3cold20ms")
		})
	}
}

// BenchmarkOpenManifest opens a set of 100,000 shards from the S3 server:
// one GET of its manifest (about 30 MB of JSON) and its checks, what every
// rank does at start; it reports the manifest's bytes and the heap the
// open set holds.
func BenchmarkOpenManifest(b *testing.B) {
	srv := s3test.Shared(b)
	bucket := srv.NewBucket(b, s3test.Prefix(b))
	m := shard.Manifest{Format: "obskit-shards", Version: 1, Kind: shard.Tar, Samples: 100_000 * 1000}
	for k := range 100_000 {
		var d shard.Digest
		d[0], d[1], d[2] = byte(k), byte(k>>8), byte(k>>16)
		m.Shards = append(m.Shards, shard.ShardInfo{Samples: 1000,
			Files: []shard.FileInfo{{Name: fmt.Sprintf("s-w00000-%06d.tar", k), Bytes: 256 << 20, SHA256: d}},
			Index: shard.FileInfo{Name: fmt.Sprintf("s-w00000-%06d.tar.index", k), Bytes: 40_000, SHA256: d}})
	}
	data, err := json.Marshal(m)
	if err != nil {
		b.Fatal(err)
	}
	put(b, bucket, "set/manifest.json", data)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var heap uint64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		set, err := shard.Open(bucket, "set/manifest.json")
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap = after.HeapAlloc - before.HeapAlloc
		if set.Nobs() != 100_000_000 {
			b.Fatal(set.Nobs())
		}
		set.Close()
	}
	b.ReportMetric(float64(len(data))/1e6, "MB-manifest")
	b.ReportMetric(float64(heap)/1e6, "MB-heap-held")
}
