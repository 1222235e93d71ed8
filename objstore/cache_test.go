package objstore_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/obskit/obskit/objstore"
	"github.com/obskit/obskit/objstore/s3test"
	"github.com/obskit/obskit/shard"
)

// objects stores n objects of size bytes named name-0 ... (with suffix) and
// returns their names and contents.
func objects(t *testing.T, b *objstore.Bucket, name, suffix string, n, size int) ([]string, [][]byte) {
	t.Helper()
	names := make([]string, n)
	data := make([][]byte, n)
	for i := range n {
		names[i] = fmt.Sprintf("%s-%d%s", name, i, suffix)
		data[i] = randomBytes(uint64(100+i), size)
		put(t, b, names[i], data[i])
	}
	return names, data
}

func newCache(t *testing.T, src shard.Store, dir string, limit int64) *objstore.Cache {
	t.Helper()
	c, err := objstore.NewCache(src, dir, limit)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// readAll reads o whole by ReadAt in pieces of 100,000 bytes.
func readAll(t *testing.T, o shard.Object) []byte {
	t.Helper()
	b := make([]byte, o.Size())
	for off := 0; off < len(b); off += 100_000 {
		end := min(off+100_000, len(b))
		if _, err := o.ReadAt(b[off:end], int64(off)); err != nil {
			t.Fatalf("ReadAt(%d bytes at %d): %v", end-off, off, err)
		}
	}
	return b
}

func waitLanded(t *testing.T, c *objstore.Cache, n int64) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for c.Stats().Fetched.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d copies fetched after a minute, want %d", c.Stats().Fetched.Load(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestCacheRangedThenCopy: an uncompressed shard not in the cache is read
// by ranges (one GET per read, no whole fetch); once a read-ahead lands its
// copy, the same open object reads the copy; opened again it is a hit that
// sends no request at all, its checksum known from Expect.
func TestCacheRangedThenCopy(t *testing.T) {
	b := s3test.Bucket(t)
	names, data := objects(t, b, "s", ".tar", 1, 3_000_000)
	c := newCache(t, b, t.TempDir(), 100<<20)
	c.Expect(names[0], int64(len(data[0])), sha256.Sum256(data[0]))

	o, err := c.Open(names[0])
	if err != nil {
		t.Fatal(err)
	}
	p := make([]byte, 1000)
	if _, err := o.ReadAt(p, 12345); err != nil || !bytes.Equal(p, data[0][12345:13345]) {
		t.Fatalf("ranged read: %v", err)
	}
	if got := c.Stats().Ranged.Load(); got != 1 || c.Stats().Fetched.Load() != 0 {
		t.Fatalf("after one read: %d ranged reads, %d fetched; want 1, 0", got, c.Stats().Fetched.Load())
	}
	ra := c.ReadAhead(slices.Values(names), 1, 1)
	waitLanded(t, c, 1)
	ra.Stop()
	if !bytes.Equal(readAll(t, o), data[0]) {
		t.Fatal("reads after the copy landed: wrong bytes")
	}
	if got := c.Stats().Ranged.Load(); got != 1 {
		t.Fatalf("reads after the copy landed went to the store: %d ranged reads, want 1", got)
	}
	o.Close()

	gets, heads := b.Stats().Gets.Load(), b.Stats().Heads.Load()
	o, err = c.Open(names[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readAll(t, o), data[0]) {
		t.Fatal("copy: wrong bytes")
	}
	o.Close()
	if g, h := b.Stats().Gets.Load()-gets, b.Stats().Heads.Load()-heads; g != 0 || h != 0 {
		t.Fatalf("a hit sent %d GETs and %d HEADs, want none", g, h)
	}
	if c.Stats().Hits.Load() != 1 {
		t.Fatalf("%d hits, want 1", c.Stats().Hits.Load())
	}
}

// TestCacheWhole: a gzip shard and a small object are fetched whole at Open
// (one GET each), without Expect (kept under their ETag: a second Open is a
// hit after one HEAD); an object replaced in the store is another version,
// fetched again, never the old copy.
func TestCacheWhole(t *testing.T) {
	b := s3test.Bucket(t)
	gz, gzData := objects(t, b, "g", ".tar.gz", 1, 2_500_000)
	small, smallData := objects(t, b, "x", ".index", 1, 5000)
	c := newCache(t, b, t.TempDir(), 100<<20)
	for i, name := range []string{gz[0], small[0]} {
		want := [][]byte{gzData[0], smallData[0]}[i]
		for round := range 2 {
			gets := b.Stats().Gets.Load()
			o, err := c.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(readAll(t, o), want) {
				t.Fatalf("%s: wrong bytes", name)
			}
			o.Close()
			wantGets := int64(1 - round)
			if g := b.Stats().Gets.Load() - gets; g != wantGets {
				t.Fatalf("%s, open %d: %d GETs, want %d", name, round+1, g, wantGets)
			}
		}
	}
	if f, h := c.Stats().Fetched.Load(), c.Stats().Hits.Load(); f != 2 || h != 2 {
		t.Fatalf("%d fetched, %d hits; want 2, 2", f, h)
	}
	newer := randomBytes(55, 5000)
	put(t, b, small[0], newer)
	o, err := c.Open(small[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readAll(t, o), newer) {
		t.Fatal("a replaced object was served from the old copy")
	}
	o.Close()
}

// TestCacheChecksum: a shard whose bytes do not have the manifest's SHA-256
// is an error naming the object and both checksums, from Open for a gzip
// shard and from the read-ahead for an uncompressed one; no copy and no
// temporary is left.
func TestCacheChecksum(t *testing.T) {
	b := s3test.Bucket(t)
	gz, gzData := objects(t, b, "g", ".tar.gz", 1, 2_000_000)
	tar, tarData := objects(t, b, "t", ".tar", 1, 2_000_000)
	dir := t.TempDir()
	c := newCache(t, b, dir, 100<<20)
	var wrong [32]byte
	wrong[0] = 1
	c.Expect(gz[0], int64(len(gzData[0])), wrong)
	c.Expect(tar[0], int64(len(tarData[0])), wrong)
	_, err := c.Open(gz[0])
	if !errors.Is(err, objstore.ErrChecksum) || !strings.Contains(err.Error(), b.URL(gz[0])) ||
		!strings.Contains(err.Error(), fmt.Sprintf("%x", sha256.Sum256(gzData[0]))) || !strings.Contains(err.Error(), fmt.Sprintf("%x", wrong)) {
		t.Fatalf("Open of a gzip shard with a wrong checksum = %v, want ErrChecksum naming the object and both sums", err)
	}
	ra := c.ReadAhead(slices.Values(tar), 1, 1)
	<-ra.Done()
	deadline := time.Now().Add(time.Minute)
	for ra.Err() == nil && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if err := ra.Err(); !errors.Is(err, objstore.ErrChecksum) || !strings.Contains(err.Error(), b.URL(tar[0])) {
		t.Fatalf("read-ahead of a shard with a wrong checksum: Err() = %v, want ErrChecksum naming it", err)
	}
	ra.Stop()
	if n := files(t, dir); n != 0 {
		t.Fatalf("%d files left in objects/ and tmp/, want 0", n)
	}
	if c.Used() != 0 {
		t.Fatalf("Used() = %d after failed fetches, want 0", c.Used())
	}
	// Another size than the manifest's: the 17 bytes it says are read
	// (small: whole, at Open), and their SHA-256 is not the manifest's.
	c.Expect(tar[0], 17, sha256.Sum256(tarData[0]))
	if _, err := c.Open(tar[0]); !errors.Is(err, objstore.ErrChecksum) || !strings.Contains(err.Error(), b.URL(tar[0])) {
		t.Fatalf("Open of a shard of another size = %v, want ErrChecksum naming it", err)
	}
}

// files counts the regular files under dir's objects/ and tmp/.
func files(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	for _, d := range []string{"objects", "tmp"} {
		filepath.WalkDir(filepath.Join(dir, d), func(p string, e os.DirEntry, err error) error {
			if err == nil && e.Type().IsRegular() {
				n++
			}
			return nil
		})
	}
	return n
}

// dirBytes adds up the sizes of the files under dir's objects/ and tmp/.
func dirBytes(dir string) int64 {
	var n int64
	for _, d := range []string{"objects", "tmp"} {
		filepath.WalkDir(filepath.Join(dir, d), func(p string, e os.DirEntry, err error) error {
			if err == nil && e.Type().IsRegular() {
				if fi, err := e.Info(); err == nil {
					n += fi.Size()
				}
			}
			return nil
		})
	}
	return n
}

// TestCacheEviction: 8 shards of 1 MB through a cache of 3.5 MB, a reader
// that holds 2 open at a time, and a read-ahead of depth 2: every byte
// read is right, the directory never holds more than the limit, copies are
// evicted, an open copy is never deleted under its reader, and the
// read-ahead waited for room rather than failing or evicting ahead.
func TestCacheEviction(t *testing.T) {
	b := s3test.Bucket(t)
	names, data := objects(t, b, "s", ".tar", 8, 1_000_000)
	dir := t.TempDir()
	const limit = 3_500_000
	c := newCache(t, b, dir, limit)
	for i, n := range names {
		c.Expect(n, int64(len(data[i])), sha256.Sum256(data[i]))
	}
	stop := make(chan struct{})
	var over error
	var watch sync.WaitGroup
	watch.Add(1)
	go func() {
		defer watch.Done()
		for {
			if used, disk := c.Used(), dirBytes(dir); (used > limit || disk > limit) && over == nil {
				over = fmt.Errorf("cache holds %d bytes (%d on disk), limit %d", used, disk, limit)
			}
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	for epoch := range 2 {
		ra := c.ReadAhead(slices.Values(names), 2, 2)
		var prev shard.Object
		for i, n := range names {
			o, err := c.Open(n)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(readAll(t, o), data[i]) {
				t.Fatalf("epoch %d, %s: wrong bytes", epoch, n)
			}
			if prev != nil {
				// Still open while the read-ahead moved on: still readable.
				if !bytes.Equal(readAll(t, prev), data[i-1]) {
					t.Fatalf("epoch %d, %s: wrong bytes from the object kept open", epoch, names[i-1])
				}
				prev.Close()
			}
			prev = o
		}
		prev.Close()
		ra.Stop()
		if err := ra.Err(); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	watch.Wait()
	if over != nil {
		t.Fatal(over)
	}
	s := c.Stats()
	t.Logf("fetched %d, evicted %d, ranged reads %d, hits %d, waits %d", s.Fetched.Load(), s.Evicted.Load(), s.Ranged.Load(), s.Hits.Load(), s.Waits.Load())
	if s.Evicted.Load() == 0 || s.Fetched.Load() < 8 {
		t.Fatalf("fetched %d, evicted %d: the cache did not work under its limit", s.Fetched.Load(), s.Evicted.Load())
	}
}

// TestCacheFull: gzip shards must be read whole; with the cache's room held
// by an open one, opening another fails at once with ErrCacheFull (naming
// the object, the bytes in use and the limit), no wait, no partial file;
// once the first is closed, the second opens.
func TestCacheFull(t *testing.T) {
	b := s3test.Bucket(t)
	names, data := objects(t, b, "g", ".tar.gz", 2, 1_200_000)
	dir := t.TempDir()
	c := newCache(t, b, dir, 2_000_000)
	o1, err := c.Open(names[0])
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = c.Open(names[1])
	if !errors.Is(err, objstore.ErrCacheFull) || !strings.Contains(err.Error(), b.URL(names[1])) || !strings.Contains(err.Error(), "2000000") {
		t.Fatalf("Open with the cache held = %v, want ErrCacheFull naming the object and the limit", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("ErrCacheFull took %v", d)
	}
	if n := files(t, dir); n != 1 {
		t.Fatalf("%d files in the cache, want the 1 copy in use", n)
	}
	o1.Close()
	o2, err := c.Open(names[1])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readAll(t, o2), data[1]) {
		t.Fatal("wrong bytes")
	}
	o2.Close()
}

// TestCacheRestart: the copies of one process serve the next, with no
// request; the temporaries a dead process left are removed; a directory
// holding other files, or in use by another cache, is refused and left as
// it is.
func TestCacheRestart(t *testing.T) {
	b := s3test.Bucket(t)
	names, data := objects(t, b, "s", ".tar.gz", 2, 1_100_000)
	dir := t.TempDir()
	c, err := objstore.NewCache(b, dir, 10<<20)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		c.Expect(n, int64(len(data[i])), sha256.Sum256(data[i]))
		o, err := c.Open(n)
		if err != nil {
			t.Fatal(err)
		}
		o.Close()
	}
	if _, err := objstore.NewCache(b, dir, 10<<20); !errors.Is(err, objstore.ErrCacheDir) || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("a second cache on a directory in use = %v, want ErrCacheDir", err)
	}
	// What a fetch cut by a crash leaves.
	if err := os.WriteFile(filepath.Join(dir, "tmp", "fetch-123"), []byte("half a shard"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.Close()

	c = newCache(t, b, dir, 10<<20)
	if _, err := os.Stat(filepath.Join(dir, "tmp", "fetch-123")); !os.IsNotExist(err) {
		t.Fatalf("the temporary of a dead fetch is still there: %v", err)
	}
	gets, heads := b.Stats().Gets.Load(), b.Stats().Heads.Load()
	for i, n := range names {
		c.Expect(n, int64(len(data[i])), sha256.Sum256(data[i]))
		o, err := c.Open(n)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(readAll(t, o), data[i]) {
			t.Fatal("wrong bytes")
		}
		o.Close()
	}
	if g, h := b.Stats().Gets.Load()-gets, b.Stats().Heads.Load()-heads; g != 0 || h != 0 {
		t.Fatalf("the next process sent %d GETs, %d HEADs for copies it had", g, h)
	}

	other := t.TempDir()
	mine := filepath.Join(other, "shard-000.tar")
	if err := os.WriteFile(mine, []byte("a shard that exists only here"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := objstore.NewCache(b, other, 10); !errors.Is(err, objstore.ErrCacheDir) || !strings.Contains(err.Error(), "shard-000.tar") {
		t.Fatalf("NewCache on a directory of other files = %v, want ErrCacheDir naming the file", err)
	}
	if got, err := os.ReadFile(mine); err != nil || string(got) != "a shard that exists only here" {
		t.Fatalf("the file is gone or changed: %q, %v", got, err)
	}
}

// TestCacheConcurrent: 6 goroutines open, read at random and close 12
// shards (some gzip) through a cache of 4 shards with a read-ahead running,
// under -race: every read is right and the limit holds when they are done.
func TestCacheConcurrent(t *testing.T) {
	b := s3test.Bucket(t)
	tars, tarData := objects(t, b, "t", ".tar", 8, 700_000)
	gzs, gzData := objects(t, b, "g", ".tar.gz", 4, 700_000)
	names, data := append(tars, gzs...), append(tarData, gzData...)
	dir := t.TempDir()
	c := newCache(t, b, dir, 4*700_000)
	for i, n := range names {
		if i%2 == 0 {
			c.Expect(n, int64(len(data[i])), sha256.Sum256(data[i]))
		}
	}
	ra := c.ReadAhead(slices.Values(names), 3, 2)
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 0))
			for range 25 {
				i := r.IntN(len(names))
				o, err := c.Open(names[i])
				if errors.Is(err, objstore.ErrCacheFull) {
					continue // gzip shards with the room held by the others' open ones
				}
				if err != nil {
					errs <- err
					return
				}
				for range 5 {
					off := r.IntN(len(data[i]) - 100)
					p := make([]byte, 100)
					if _, err := o.ReadAt(p, int64(off)); err != nil || !bytes.Equal(p, data[i][off:off+100]) {
						errs <- fmt.Errorf("%s at %d: %v or wrong bytes", names[i], off, err)
						o.Close()
						return
					}
				}
				o.Close()
			}
		}()
	}
	wg.Wait()
	ra.Stop()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if used := c.Used(); used > 4*700_000 || dirBytes(dir) > 4*700_000 {
		t.Fatalf("cache holds %d bytes (%d on disk), limit %d", used, dirBytes(dir), 4*700_000)
	}
}
