package main

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path"
	"sync"

	"github.com/obskit/obskit/cmd/internal/progress"
	"github.com/obskit/obskit/shard"
)

func init() {
	register(command{
		group: "shard", name: "put", args: "MANIFEST DEST",
		summary: "upload the shard set of MANIFEST to DEST (s3://bucket/prefix, or a local directory), keeping its names: every shard's files, then its index, then the manifest last, so that a reader of DEST never finds a manifest naming a shard that is not there whole; each file's size and SHA-256 are checked against the manifest as it is read; print the manifest's summary as one JSON object",
		flags: func(fs *flag.FlagSet) func(*env, []string) error {
			parallel := fs.Int("parallel", 4, "shards uploaded at once")
			return func(e *env, args []string) error { return shardPut(e, args, *parallel) }
		},
	})
}

func shardPut(e *env, args []string, parallel int) error {
	if len(args) != 2 {
		return usageErrorf("want MANIFEST and DEST, got %d arguments", len(args))
	}
	if parallel < 1 {
		return usageErrorf("-parallel %d, want at least 1", parallel)
	}
	src, name, err := openStore(args[0])
	if err != nil {
		return err
	}
	m, err := shard.ReadManifest(src, name)
	if err != nil {
		return err
	}
	dst, err := openDir(args[1])
	if err != nil {
		return err
	}
	dir := path.Dir(name)
	var total int64
	for _, sh := range m.Shards {
		for _, f := range sh.Files {
			total += f.Bytes
		}
		total += sh.Index.Bytes
	}
	p := progress.New(progress.Output(e.stderr, !terminal(e.stdout)))
	defer p.Stop()
	bar := p.Bar(name, total, "bytes")
	defer bar.Done()

	// Shards to the workers; the first error stops the handing out.
	work := make(chan shard.ShardInfo)
	var mu sync.Mutex
	var first error
	failed := func() bool { mu.Lock(); defer mu.Unlock(); return first != nil }
	var wg sync.WaitGroup
	for range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for sh := range work {
				for _, f := range append(sh.Files[:len(sh.Files):len(sh.Files)], sh.Index) {
					if err := putFile(src, dst, dir, f, bar); err != nil {
						mu.Lock()
						first = errors.Join(first, err)
						mu.Unlock()
						break
					}
				}
			}
		}()
	}
	for _, sh := range m.Shards {
		if failed() {
			break
		}
		work <- sh
	}
	close(work)
	wg.Wait()
	if first != nil {
		return fmt.Errorf("%w (the manifest was not uploaded)", first)
	}
	// The manifest as it is, byte for byte.
	mo, err := src.Open(name)
	if err != nil {
		return err
	}
	b := make([]byte, mo.Size())
	_, err = mo.ReadAt(b, 0)
	mo.Close()
	if err != nil && err != io.EOF {
		return fmt.Errorf("%s: %w", args[0], err)
	}
	if err := putBytes(dst, path.Base(name), b); err != nil {
		return err
	}
	return json.NewEncoder(e.stdout).Encode(summary(args[1]+"/"+path.Base(name), m))
}

// putFile copies the file f of a set (relative to dir in src) to its name in
// dst, checking its size and SHA-256 on the way; nothing is visible in dst
// unless they match.
func putFile(src, dst shard.Store, dir string, f shard.FileInfo, bar *progress.Bar) error {
	o, err := src.Open(path.Join(dir, f.Name))
	if err != nil {
		return err
	}
	defer o.Close()
	w, err := dst.Create(f.Name)
	if err != nil {
		return err
	}
	defer w.Close()
	h := sha256.New()
	n, err := io.CopyBuffer(io.MultiWriter(w, h, barWriter{bar}), io.NewSectionReader(o, 0, o.Size()), make([]byte, 1<<20))
	if err != nil {
		return fmt.Errorf("%s: %w", f.Name, err)
	}
	if sum := h.Sum(nil); n != f.Bytes || shard.Digest(sum) != f.SHA256 {
		return fmt.Errorf("%s: %d bytes of SHA-256 %x, the manifest says %d bytes of %s: %w", f.Name, n, sum, f.Bytes, f.SHA256, shard.ErrCorrupt)
	}
	return w.Commit()
}

// putBytes stores b as the object name of dst.
func putBytes(dst shard.Store, name string, b []byte) error {
	w, err := dst.Create(name)
	if err != nil {
		return err
	}
	defer w.Close()
	if _, err := w.Write(b); err != nil {
		return err
	}
	return w.Commit()
}

// barWriter adds what is written to a progress bar.
type barWriter struct{ bar *progress.Bar }

func (b barWriter) Write(p []byte) (int, error) {
	b.bar.Add(len(p))
	return len(p), nil
}
