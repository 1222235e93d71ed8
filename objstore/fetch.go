package objstore

import (
	"crypto/sha256"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/obskit/obskit/shard"
)

func hashString(s string) [32]byte { return sha256.Sum256([]byte(s)) }

// openSrc opens name in the source: with no request when the source can
// open an object of a known size (a [Bucket]) and the size is known from a
// manifest, whose checksums then check what is read; with Open otherwise.
func (c *Cache) openSrc(name string, known bool, size int64) (shard.Object, error) {
	if k, ok := c.src.(interface {
		OpenKnown(string, int64) (shard.Object, error)
	}); ok && known {
		return k.OpenKnown(name, size)
	}
	return c.src.Open(name)
}

// describe names the object name of the cache's source for messages: its
// URL when the source has one.
func (c *Cache) describe(name string) string {
	if u, ok := c.src.(interface{ URL(string) string }); ok {
		return u.URL(name)
	}
	return name
}

// startLocked reserves size bytes for the copy k of name and starts fetching
// it from remote, which the fetch then owns (and closes). ahead is the
// read-ahead that asks, at its place at; nil for a reader that needs the
// object now, which may evict copies fetched ahead. It returns an error
// wrapping ErrCacheFull when the room cannot be made, and fs.ErrClosed after
// Close; remote is then the caller's still.
func (c *Cache) startLocked(k, name string, size int64, known bool, sum [32]byte, remote shard.Object, ahead *ReadAhead, at int) error {
	if c.closed {
		return fmt.Errorf("objstore: cache: fetch %s: %w", c.describe(name), fs.ErrClosed)
	}
	if !c.reserveLocked(size, ahead == nil) {
		return fmt.Errorf("%w: %s (%d bytes) must be read whole, and the objects in use hold %d of the cache's %d bytes in %s",
			ErrCacheFull, c.describe(name), size, c.used, c.limit, c.dir)
	}
	e := &entry{key: k, name: name, size: size, done: make(chan struct{}), ahead: ahead, at: at}
	c.entries[k] = e
	c.fetches.Add(1)
	go c.fetch(e, remote, known, sum)
	return nil
}

// fetch copies remote whole into the cache as e, and makes the copy ready,
// or forgets e and records why.
func (c *Cache) fetch(e *entry, remote shard.Object, known bool, sum [32]byte) {
	defer c.fetches.Done()
	err := c.download(e, remote, known, sum)
	remote.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		e.err = err
		c.dropLocked(e)
	} else {
		e.ready = true
		if e.refs == 0 {
			e.elem = c.lru.PushFront(e)
		}
		c.stats.Fetched.Add(1)
		c.stats.FetchedBytes.Add(e.size)
	}
	close(e.done)
	c.cond.Broadcast()
}

// download writes remote to a temporary file, checks its size and (when
// known) its SHA-256, and renames it to e's path.
func (c *Cache) download(e *entry, remote shard.Object, known bool, sum [32]byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Join(c.dir, tmpDir), "fetch-*")
	if err != nil {
		return fmt.Errorf("objstore: cache: fetch %s: %w", c.describe(e.name), err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	var h hash.Hash
	var w io.Writer = tmp
	if known {
		h = sha256.New()
		w = io.MultiWriter(tmp, h)
	}
	var n int64
	if wt, ok := remote.(io.WriterTo); ok {
		n, err = wt.WriteTo(w)
	} else {
		n, err = io.CopyBuffer(w, io.NewSectionReader(remote, 0, e.size), make([]byte, 4<<20))
	}
	if err != nil {
		return fmt.Errorf("objstore: cache: fetch %s: %w", c.describe(e.name), err)
	}
	if n != e.size {
		return fmt.Errorf("objstore: cache: fetch %s: %d bytes, want %d", c.describe(e.name), n, e.size)
	}
	if known {
		if got := h.Sum(nil); [32]byte(got) != sum {
			return fmt.Errorf("%w: %s: SHA-256 %x, the manifest says %x", ErrChecksum, c.describe(e.name), got, sum)
		}
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("objstore: cache: fetch %s: %w", c.describe(e.name), err)
	}
	final := c.path(e.key)
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return fmt.Errorf("objstore: cache: fetch %s: %w", c.describe(e.name), err)
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		return fmt.Errorf("objstore: cache: fetch %s: %w", c.describe(e.name), err)
	}
	return nil
}

// An object is an object opened through a [Cache]: it reads a whole copy
// when there is one, and otherwise the source by ranges, switching to the
// copy once one lands.
type object struct {
	c      *Cache
	key    string       // the copy it may read; "" for an object never kept
	remote shard.Object // nil when it read a copy from the start
	size   int64
	mu     sync.Mutex // guards the switch to local
	local  atomic.Pointer[os.File]
	e      *entry // the copy local reads, pinned until Close
	closed atomic.Bool
}

func (o *object) Size() int64 {
	if o.remote != nil {
		return o.remote.Size()
	}
	return o.size
}

func (o *object) ReadAt(p []byte, off int64) (int, error) {
	if o.closed.Load() {
		return 0, fmt.Errorf("objstore: cache: read %s: %w", o.key, fs.ErrClosed)
	}
	if f := o.copy(); f != nil {
		return f.ReadAt(p, off)
	}
	n, err := o.remote.ReadAt(p, off)
	o.c.stats.Ranged.Add(1)
	o.c.stats.RangedBytes.Add(int64(n))
	return n, err
}

// copy returns the file of the object's copy, opening it when it has
// landed since the last read, or nil.
func (o *object) copy() *os.File {
	if f := o.local.Load(); f != nil || o.key == "" {
		return f
	}
	c := o.c
	c.mu.Lock()
	e := c.entries[o.key]
	ready := e != nil && e.ready
	c.mu.Unlock()
	if !ready {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if f := o.local.Load(); f != nil {
		return f
	}
	cp := c.openCopy(o.key)
	if cp == nil {
		return nil
	}
	o.e = cp.e
	o.local.Store(cp.local.Load())
	return o.local.Load()
}

func (o *object) Close() error {
	if o.closed.Swap(true) {
		return nil
	}
	var err error
	o.mu.Lock()
	defer o.mu.Unlock()
	if f := o.local.Load(); f != nil {
		err = f.Close()
		o.c.mu.Lock()
		o.c.unpinLocked(o.e)
		o.c.mu.Unlock()
	}
	if o.remote != nil {
		if e := o.remote.Close(); err == nil {
			err = e
		}
	}
	return err
}
