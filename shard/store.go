package shard

import (
	"io"
	"iter"
)

// A Store holds the objects of a shard set by name: a local directory ([Dir])
// or a bucket of an object store (the objstore module, which the root module
// does not import). Shards, their indexes and the manifest are read and
// written only through it, so a set is read from a bucket as from a disk.
//
// Names are slash-separated paths relative to the store, as io/fs names them
// (fs.ValidPath: no leading or trailing slash, no empty, "." or ".."
// element), such as "train/shard-w000-000017.tar". A Store refuses other names
// with an error wrapping fs.ErrInvalid. A Store's methods are safe to call from
// any number of goroutines at once.
//
// Open opens a committed object for reading; an object that does not exist is
// an error wrapping fs.ErrNotExist that names it. The Object reads ranges of
// it (io.ReaderAt), so that a reader fetches only the bytes it needs: a
// sample's members at their offsets, an index, a manifest.
//
// Create starts writing the object name. Nothing is visible under name (to
// Open or List, in this process or another) until the [Writer]'s Commit
// returns nil; then the whole object is, replacing any object of that name.
// A writer closed without Commit, or a process that dies before it, leaves no
// object under name (a store may leave a temporary elsewhere, which List never
// yields; see [Cleaner]).
//
// List yields the names of the committed objects whose names start with
// prefix (a string prefix, as an object store's listing takes it: "train/s"
// yields "train/s1.tar" and "train/sub/x"), in increasing byte order, each
// once. An error ends the listing: List yields it with an empty name and
// stops. It returns a single-use iterator.
type Store interface {
	Open(name string) (Object, error)
	Create(name string) (Writer, error)
	List(prefix string) iter.Seq2[string, error]
}

// An Object is an open object of a [Store]. ReadAt follows io.ReaderAt (it
// may be called from any number of goroutines at once, and must not retain
// p); it reads the object as it was when opened, or fails: it never mixes the
// bytes of two versions. A read past Size returns io.EOF as io.ReaderAt says.
// Size is the object's size in bytes. Close releases it; reads after Close
// fail.
type Object interface {
	io.ReaderAt
	Size() int64
	Close() error
}

// A Writer writes one object of a [Store]; it belongs to one goroutine. Write
// appends bytes. Commit makes the bytes written visible under the object's
// name, whole, and releases the writer; it returns an error when the object
// could not be stored, and then nothing is visible. Close discards an object
// not committed (its temporary is removed) and releases the writer; after
// Commit it does nothing and returns nil, so that
//
//	w, err := store.Create(name)
//	if err != nil { ... }
//	defer w.Close()
//	... w.Write(b) ...
//	return w.Commit()
//
// stores the object when every step succeeds and nothing otherwise. Write
// and Commit after Commit or Close return an error.
type Writer interface {
	io.Writer
	Commit() error
	Close() error
}

// A Cleaner is a [Store] whose writers may leave temporaries behind when a
// process dies between Create and Commit (a local file under a temporary
// name, an object store's unfinished multipart upload). Clean removes the
// temporaries of the objects whose names start with prefix. Temporaries are
// never visible (Open and List ignore them), so a crash breaks nothing; Clean
// reclaims their space. A [Writer] of this package calls it for the names it
// owns before it writes, which no other writer writes at the same time.
type Cleaner interface {
	Clean(prefix string) error
}
