package objstore

import (
	"container/list"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/obskit/obskit/shard"
)

var _ shard.Store = (*Cache)(nil)

// ErrCacheFull is wrapped by the error of [Cache.Open] when an object that
// must be read whole (a gzip shard) does not fit in the cache beside the
// objects in use, which are never evicted.
var ErrCacheFull = errors.New("objstore: cache full")

// ErrChecksum is wrapped by the error of a whole read whose bytes do not
// have the SHA-256 the manifest gives ([Cache.Expect]).
var ErrChecksum = errors.New("objstore: checksum mismatch")

// ErrCacheDir is wrapped by the error of [NewCache] for a directory it must
// not use: one holding files it did not write, or one another process uses.
var ErrCacheDir = errors.New("objstore: not a cache directory it may use")

// A Cache is a [shard.Store] that reads another store (a [Bucket]) through a
// local directory of whole copies, bounded in bytes, so that a training job
// reads each shard from the object store once per epoch or less, and reads
// what it needs now without waiting for whole shards.
//
// # What is read whole and what by ranges
//
// Open returns an object whose reads come from the local copy when there is
// one. Otherwise an uncompressed shard is read by ranges from the source,
// one request per ReadAt (a sample, without its shard), until a whole copy
// fetched ahead ([Cache.ReadAhead]) lands, and from the copy after. Objects
// that are read whole are fetched whole at Open, into the cache: gzip shards
// (".gz", ".tgz": no random access), and small objects (up to 1 MiB: shard
// indexes, one request either way) when there is room.
//
// # Versions and checksums
//
// A copy is kept under the object's name and its version: the SHA-256 the
// manifest gives for it ([Cache.Expect]), otherwise the store's version (an
// object's ETag, read by Open). A shard rewritten since is another version,
// never served from an old copy; a copy whose name's version is a manifest
// checksum is opened with no request at all, and an object the manifest
// describes is read from a [Bucket] with no HEAD first (its reads are then
// checked by checksums rather than conditional on an ETag). A whole read
// with an expected checksum is verified against it (an error wrapping
// [ErrChecksum] names the object and both checksums); a ranged read is
// checked by its reader (the shard container verifies each member's CRC-32C
// from its index).
//
// # The limit, eviction, and no deadlock
//
// The copies and the downloads in flight use at most the limit's bytes. To
// make room the cache deletes the least recently used copies that are not
// open: an open object is never deleted under its reader, and a copy fetched
// ahead is not deleted for another fetched ahead. When the objects in use
// leave no room, a fetch ahead waits for room (an object closed, the reader
// moving on), a whole read at Open fails at once with [ErrCacheFull], and an
// uncompressed shard is read by ranges: a limit below the working set is
// slower, never a deadlock. The cache deletes only the copies it wrote, in
// its own directory; it never writes to or deletes from its source.
//
// # Crashes
//
// A copy is written under a temporary name and renamed when whole and
// verified, so a copy under its final name is whole. A process that dies
// leaves only temporaries, which the next [NewCache] on the directory
// removes; there is no shared memory. One process uses a directory at a time
// (an flock held until [Cache.Close]; the kernel drops it when the process
// dies): ranks on one machine each have their own directory.
//
// Create and List go to the source. A Cache is safe for any number of
// goroutines at once.
type Cache struct {
	src   shard.Store
	dir   string // objects/ holds copies, tmp/ temporaries
	limit int64
	lock  *os.File

	mu       sync.Mutex
	cond     *sync.Cond // signalled when room may have been made, a fetch ended or a reader moved
	entries  map[string]*entry
	lru      *list.List // copies not open, least recently used at the back
	used     int64      // bytes of copies and of fetches in flight
	expected map[string]expect
	aheads   map[*ReadAhead]struct{}
	closed   bool
	fetches  sync.WaitGroup

	stats CacheStats
}

// CacheStats counts what a [Cache] did; read it with [Cache.Stats]. The
// fields are updated atomically while the cache works.
type CacheStats struct {
	// Hits counts Opens served by a copy, Misses the others.
	Hits, Misses atomic.Int64
	// Fetched counts the whole copies fetched and their bytes.
	Fetched, FetchedBytes atomic.Int64
	// Ranged counts the reads sent to the source by ranges, RangedBytes
	// their bytes.
	Ranged, RangedBytes atomic.Int64
	// Evicted counts the copies deleted to make room.
	Evicted atomic.Int64
	// Waits counts the fetches ahead that waited for room.
	Waits atomic.Int64
}

type expect struct {
	size int64
	sum  [32]byte
}

// An entry is a copy, whole or being fetched, of one version of an object.
type entry struct {
	key   string // name@version, its path under objects/
	name  string
	size  int64
	ready bool          // the copy is whole, at its final path
	done  chan struct{} // closed when a fetch ends, ready or not
	err   error         // the fetch's failure
	refs  int           // open objects reading the copy
	ahead *ReadAhead    // the read-ahead that fetched it, until opened
	at    int           // its place in ahead's list
	elem  *list.Element // in lru when ready and refs == 0
}

const (
	objectsDir = "objects"
	tmpDir     = "tmp"
	marker     = ".obskit-cache"
	// smallObject is the size up to which an object is fetched whole at Open.
	smallObject = 1 << 20
)

// NewCache returns a cache of src's objects in dir (made when missing), of at
// most limit bytes. It takes the directory for this process (an flock),
// removes the temporaries a dead process left, and keeps the copies that are
// there, deleting the least recently used ones beyond the limit. It returns
// an error wrapping [ErrCacheDir] when dir holds files that are not a
// cache's (the cache would never delete them, and refuses to mix with them)
// or another process holds it, and panics with an error when limit is not
// positive.
func NewCache(src shard.Store, dir string, limit int64) (*Cache, error) {
	if limit <= 0 {
		panic(fmt.Errorf("objstore.NewCache: limit %d bytes, want > 0", limit))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("objstore: cache: %w", err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("objstore: cache: %w", err)
	}
	hasMarker := false
	for _, e := range ents {
		switch e.Name() {
		case marker:
			hasMarker = true
		case objectsDir, tmpDir, ".lock":
		default:
			return nil, fmt.Errorf("%w: %s holds %s, which is not a cache's", ErrCacheDir, dir, e.Name())
		}
	}
	if !hasMarker && len(ents) > 0 {
		return nil, fmt.Errorf("%w: %s is not empty and has no %s", ErrCacheDir, dir, marker)
	}
	if err := os.WriteFile(filepath.Join(dir, marker), []byte("obskit objstore cache: objects/ holds copies of objects, tmp/ temporaries\n"), 0o644); err != nil {
		return nil, fmt.Errorf("objstore: cache: %w", err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	c := &Cache{src: src, dir: dir, limit: limit, lock: lock,
		entries: map[string]*entry{}, lru: list.New(), expected: map[string]expect{}, aheads: map[*ReadAhead]struct{}{}}
	c.cond = sync.NewCond(&c.mu)
	if err := os.RemoveAll(filepath.Join(dir, tmpDir)); err != nil {
		c.Close()
		return nil, fmt.Errorf("objstore: cache: %w", err)
	}
	for _, d := range []string{objectsDir, tmpDir} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			c.Close()
			return nil, fmt.Errorf("objstore: cache: %w", err)
		}
	}
	if err := c.scan(); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// scan adds the copies under objects/ to the cache, most recently used
// (modified) first, and evicts beyond the limit.
func (c *Cache) scan() error {
	type found struct {
		key  string
		size int64
		mod  time.Time
	}
	var all []found
	root := filepath.Join(c.dir, objectsDir)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		key := filepath.ToSlash(rel)
		if _, _, ok := splitKey(key); !ok || !fi.Mode().IsRegular() {
			return nil
		}
		all = append(all, found{key, fi.Size(), fi.ModTime()})
		return nil
	})
	if err != nil {
		return fmt.Errorf("objstore: cache: %w", err)
	}
	// Oldest first: each is pushed to the front.
	slices.SortFunc(all, func(a, b found) int { return a.mod.Compare(b.mod) })
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range all {
		name, _, _ := splitKey(f.key)
		e := &entry{key: f.key, name: name, size: f.size, ready: true, done: closedChan}
		e.elem = c.lru.PushFront(e)
		c.entries[f.key] = e
		c.used += f.size
	}
	c.evictLocked(0, false)
	return nil
}

var closedChan = func() chan struct{} { ch := make(chan struct{}); close(ch); return ch }()

// key returns the path under objects/ of version ver of name.
func key(name, ver string) string { return name + "@" + ver }

// splitKey splits a path under objects/ into its name and version.
func splitKey(k string) (name, ver string, ok bool) {
	i := strings.LastIndexByte(k, '@')
	if i <= 0 || i == len(k)-1 || strings.ContainsRune(k[i:], '/') {
		return "", "", false
	}
	return k[:i], k[i+1:], true
}

// Expect gives the size and SHA-256 of the object name, as a manifest lists
// them: its copy is then kept under that checksum, opened with no request,
// and a whole read is verified against it.
func (c *Cache) Expect(name string, size int64, sum [32]byte) {
	c.mu.Lock()
	c.expected[name] = expect{size, sum}
	c.mu.Unlock()
}

// ExpectSet gives [Cache.Expect] the size and SHA-256 of every file and
// index the manifest m lists, m being the set whose manifest is the object
// manifest (its names are relative to the manifest's directory).
func (c *Cache) ExpectSet(m *shard.Manifest, manifest string) {
	dir := path.Dir(manifest)
	for _, sh := range m.Shards {
		for _, f := range sh.Files {
			c.Expect(path.Join(dir, f.Name), f.Bytes, f.SHA256)
		}
		c.Expect(path.Join(dir, sh.Index.Name), sh.Index.Bytes, sh.Index.SHA256)
	}
}

// Stats returns the cache's counters.
func (c *Cache) Stats() *CacheStats { return &c.stats }

// Used returns the bytes of the copies and the fetches in flight.
func (c *Cache) Used() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

// Create writes to the source.
func (c *Cache) Create(name string) (shard.Writer, error) { return c.src.Create(name) }

// List lists the source.
func (c *Cache) List(prefix string) iter.Seq2[string, error] { return c.src.List(prefix) }

// Close stops the fetches ahead, waits for the fetches in flight and
// releases the directory. The copies stay for the next process. Objects open
// from the cache stay readable until closed.
func (c *Cache) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	aheads := make([]*ReadAhead, 0, len(c.aheads))
	for r := range c.aheads {
		aheads = append(aheads, r)
	}
	c.mu.Unlock()
	for _, r := range aheads {
		r.Stop()
	}
	c.fetches.Wait()
	if c.lock != nil {
		return c.lock.Close()
	}
	return nil
}

// mustWhole reports whether the object can only be read whole: gzip.
func mustWhole(name string) bool {
	return strings.HasSuffix(name, ".gz") || strings.HasSuffix(name, ".tgz")
}

// version returns the version of an open object of the source, "" when the
// store has none (the object is then never kept).
func version(o shard.Object) string {
	if v, ok := o.(interface{ ETag() string }); ok && v.ETag() != "" {
		sum := hashString(v.ETag())
		return "e" + hex.EncodeToString(sum[:8])
	}
	return ""
}

func sumVersion(sum [32]byte) string { return "s" + hex.EncodeToString(sum[:]) }

// Open opens the object name: from its copy when the cache has one, fetched
// whole into the cache first when it is read whole (gzip, small), and
// otherwise by ranges from the source until a copy lands. Its errors are the
// source's (a missing object wraps fs.ErrNotExist and names it), a whole
// read's (a checksum that does not match wraps [ErrChecksum]), or one
// wrapping [ErrCacheFull] when an object read whole does not fit.
func (c *Cache) Open(name string) (shard.Object, error) {
	if !fs.ValidPath(name) || name == "." {
		return nil, fmt.Errorf("objstore: cache: open %q: not a valid object name: %w", name, fs.ErrInvalid)
	}
	c.mu.Lock()
	exp, known := c.expected[name]
	c.mu.Unlock()
	c.moved(name)
	ver, size := "", exp.size
	if known {
		ver = sumVersion(exp.sum)
		if o := c.openCopy(key(name, ver)); o != nil {
			c.stats.Hits.Add(1)
			return o, nil
		}
	}
	remote, err := c.openSrc(name, known, size)
	if err != nil {
		return nil, err
	}
	if !known {
		ver, size = version(remote), remote.Size()
		if ver == "" {
			c.stats.Misses.Add(1)
			return &object{c: c, remote: remote}, nil
		}
		if o := c.openCopy(key(name, ver)); o != nil {
			c.stats.Hits.Add(1)
			remote.Close()
			return o, nil
		}
	}
	if remote.Size() != size {
		remote.Close()
		return nil, fmt.Errorf("objstore: cache: %s is %d bytes, the manifest says %d: %w", name, remote.Size(), size, ErrChecksum)
	}
	k := key(name, ver)
	c.stats.Misses.Add(1)
	must := mustWhole(name)
	if !must && size > smallObject {
		return &object{c: c, key: k, remote: remote, size: size}, nil
	}
	// Read whole: fetch it now, or wait for the fetch in flight.
	for {
		c.mu.Lock()
		e := c.entries[k]
		if e == nil {
			if remote == nil { // the copy was evicted between its fetch and now
				c.mu.Unlock()
				if remote, err = c.openSrc(name, known, size); err != nil {
					return nil, err
				}
				continue
			}
			if err := c.startLocked(k, name, size, known, exp.sum, remote, nil, 0); err != nil {
				c.mu.Unlock()
				if !must && errors.Is(err, ErrCacheFull) {
					// A small object is fetched whole to keep it; read
					// it by ranges when there is no room.
					return &object{c: c, key: k, remote: remote, size: size}, nil
				}
				remote.Close()
				return nil, err
			}
			remote = nil // the fetch owns it
			e = c.entries[k]
		}
		done := e.done
		c.mu.Unlock()
		<-done
		if o := c.openCopy(k); o != nil {
			if remote != nil {
				remote.Close()
			}
			return o, nil
		}
		c.mu.Lock()
		err := e.err
		c.mu.Unlock()
		if err != nil {
			if remote != nil {
				remote.Close()
			}
			return nil, err
		}
	}
}

// openCopy returns an object reading the whole copy k, or nil when there is
// none.
func (c *Cache) openCopy(k string) *object {
	c.mu.Lock()
	e := c.entries[k]
	if e == nil || !e.ready {
		c.mu.Unlock()
		return nil
	}
	c.pinLocked(e)
	c.mu.Unlock()
	f, err := os.Open(c.path(k))
	if err != nil {
		// Deleted behind the cache's back: forget it.
		c.mu.Lock()
		c.unpinLocked(e)
		c.dropLocked(e)
		c.mu.Unlock()
		return nil
	}
	now := time.Now()
	os.Chtimes(c.path(k), now, now) // the recency the next process starts from
	o := &object{c: c, key: k, e: e, size: e.size}
	o.local.Store(f)
	return o
}

func (c *Cache) path(k string) string {
	return filepath.Join(c.dir, objectsDir, filepath.FromSlash(k))
}

func (c *Cache) pinLocked(e *entry) {
	if e.refs == 0 && e.elem != nil {
		c.lru.Remove(e.elem)
		e.elem = nil
	}
	e.refs++
	e.ahead = nil
}

func (c *Cache) unpinLocked(e *entry) {
	e.refs--
	if e.refs == 0 && e.ready && c.entries[e.key] == e {
		e.elem = c.lru.PushFront(e)
		c.cond.Broadcast()
	}
}

// aheadLocked reports whether e was fetched ahead for a reader that has
// not reached it yet: such a copy is not evicted to fetch another ahead.
func (c *Cache) aheadLocked(e *entry) bool {
	return e.ahead != nil && !e.ahead.stopped && e.ahead.pos < e.at
}

// dropLocked forgets e and gives back its bytes.
func (c *Cache) dropLocked(e *entry) {
	if c.entries[e.key] != e {
		return
	}
	delete(c.entries, e.key)
	if e.elem != nil {
		c.lru.Remove(e.elem)
		e.elem = nil
	}
	c.used -= e.size
	c.cond.Broadcast()
}

// reserveLocked makes room for n more bytes and counts them as used,
// evicting copies that are not open (and, for a reader's need, copies
// fetched ahead). It returns false, having evicted nothing, when the room
// cannot be made.
func (c *Cache) reserveLocked(n int64, need bool) bool {
	if !c.evictLocked(n, need) {
		return false
	}
	c.used += n
	return true
}

// evictLocked deletes least recently used copies until n more bytes fit,
// and reports whether they do. It deletes nothing when they cannot.
func (c *Cache) evictLocked(n int64, need bool) bool {
	free := c.limit - c.used
	if free >= n {
		return true
	}
	for el := c.lru.Back(); el != nil && free < n; el = el.Prev() {
		if e := el.Value.(*entry); need || !c.aheadLocked(e) {
			free += e.size
		}
	}
	if free < n {
		return false
	}
	for el := c.lru.Back(); el != nil && c.limit-c.used < n; {
		prev := el.Prev()
		if e := el.Value.(*entry); need || !c.aheadLocked(e) {
			c.dropLocked(e)
			os.Remove(c.path(e.key))
			c.stats.Evicted.Add(1)
		}
		el = prev
	}
	return true
}
