package shard

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"

	"github.com/obskit/obskit/internal/pipeline"
	"github.com/obskit/obskit/recordio"
	"github.com/obskit/obskit/shard/wds"
)

// A Report is what [Verify] found.
type Report struct {
	Shards   int     // the shards checked
	Samples  int     // the samples the manifest lists
	Bytes    int64   // the bytes read: shards and indexes
	Problems []error // one per shard that failed, in order, each naming it
}

// Verify checks every shard of the set whose manifest is name against the
// manifest: each index's size and SHA-256, its sample count and the files it
// lists; each file's size and SHA-256, read whole; and the samples in it
// against the index: a tar shard read as webdataset groups it (its keys,
// fields, offsets, sizes and CRC-32C), a RecordIO shard record by record, an
// Npy shard row by row. A shard that lost whole members so fails its count and
// its checksum. It reads two shards at once and calls progress (when not nil)
// in the caller's goroutine with the bytes read so far, after each shard.
//
// The problems of each shard are one error in Report.Problems, naming the
// shard (errors wrapping [ErrCorrupt], wds.ErrFormat, the store's); the error
// returned is the manifest's ([ReadManifest]).
func Verify(store Store, name string, progress func(bytes int64)) (*Report, error) {
	m, err := ReadManifest(store, name)
	if err != nil {
		return nil, err
	}
	s, err := newSet(store, name, m, nil)
	if err != nil {
		return nil, err
	}
	rep := &Report{Shards: len(m.Shards), Samples: m.Samples}
	type step struct {
		k     int
		bytes int64
		err   error
	}
	next := 0
	pipeline.Run(pipeline.Config{Op: "shard.Verify", Workers: 2}, make([]step, 4),
		func(st *step) bool {
			if next == len(m.Shards) {
				return false
			}
			*st = step{k: next}
			next++
			return true
		},
		func(st *step) { st.bytes, st.err = s.verifyShard(st.k) },
		func(st *step) bool {
			rep.Bytes += st.bytes
			if st.err != nil {
				rep.Problems = append(rep.Problems, st.err)
			}
			if progress != nil {
				progress(rep.Bytes)
			}
			return true
		})
	return rep, nil
}

// verifyShard checks shard k and returns the bytes it read.
func (s *Set) verifyShard(k int) (int64, error) {
	info := &s.m.Shards[k]
	ix, ixErr := s.readIndex(k)
	read := info.Index.Bytes
	var errs []error
	if ixErr != nil {
		errs = append(errs, ixErr)
		ix = nil
	}
	for f, fi := range info.Files {
		n, err := s.verifyFile(k, f, fi, ix)
		read += n
		if err != nil {
			errs = append(errs, err)
		}
	}
	return read, errors.Join(errs...)
}

// verifyFile reads file f of shard k whole, checking its size and SHA-256,
// and, when ix is not nil, the members it holds.
func (s *Set) verifyFile(k, f int, fi FileInfo, ix *index) (int64, error) {
	name := s.path(fi.Name)
	o, err := s.store.Open(name)
	if err != nil {
		return 0, fmt.Errorf("shard: shard %d: %w", k, err)
	}
	defer o.Close()
	sum := &countHash{h: sha256.New()}
	r := io.TeeReader(io.NewSectionReader(o, 0, o.Size()), sum)
	var content error
	if ix != nil {
		switch s.m.Kind {
		case Tar:
			content = verifyTar(r, name, ix)
		case RecordIO:
			content = verifyRecords(r, name, ix)
		case Npy:
			content = verifyRows(bufio.NewReaderSize(r, 1<<16), name, ix, f)
		}
	}
	// Hash what the checks did not read.
	if _, err := io.Copy(io.Discard, r); err != nil {
		return sum.n, fmt.Errorf("shard: %s: %w", name, err)
	}
	var errs []error
	if sum.n != fi.Bytes {
		errs = append(errs, fmt.Errorf("shard: %s: %w: %d bytes, the manifest says %d", name, ErrCorrupt, sum.n, fi.Bytes))
	}
	if d := Digest(sum.h.Sum(nil)); d != fi.SHA256 {
		errs = append(errs, fmt.Errorf("shard: %s: %w: SHA-256 %s, the manifest says %s", name, ErrCorrupt, d, fi.SHA256))
	}
	if content != nil {
		errs = append(errs, content)
	}
	return sum.n, errors.Join(errs...)
}

type countHash struct {
	h hash.Hash
	n int64
}

func (c *countHash) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.h.Write(p)
}

// verifyTar scans a tar shard as webdataset groups it and compares its
// samples with the index's.
func verifyTar(r io.Reader, name string, ix *index) error {
	sc := wds.NewScanner(r, name, wds.ScanOptions{})
	j := 0
	for sc.Next() {
		smp := sc.Sample()
		if j >= ix.n() {
			return fmt.Errorf("shard: %s: %w: sample %q at offset %d: more samples than the index's %d", name, ErrCorrupt, smp.Key, smp.Members[0].Header, ix.n())
		}
		ms := ix.members(j)
		if smp.Key != ix.key(j) || len(smp.Members) != len(ms) {
			return fmt.Errorf("shard: %s: %w: sample %d at offset %d is %q with %d fields, the index says %q with %d", name, ErrCorrupt, j, smp.Members[0].Header, smp.Key, len(smp.Members), ix.key(j), len(ms))
		}
		for f, mb := range smp.Members {
			m := ms[f]
			if mb.Field != ix.fields[m.field] || mb.Offset != m.off || mb.Size != m.size || mb.CRC != m.crc {
				return fmt.Errorf("shard: %s: %w: sample %q: member %q at offset %d (%d bytes, CRC-32C %08x), the index says field %q at %d (%d bytes, %08x)", name, ErrCorrupt, smp.Key, mb.Name, mb.Offset, mb.Size, mb.CRC, ix.fields[m.field], m.off, m.size, m.crc)
			}
		}
		j++
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if j != ix.n() {
		return fmt.Errorf("shard: %s: %w: %d samples, the index and the manifest say %d", name, ErrCorrupt, j, ix.n())
	}
	return nil
}

// verifyRecords reads a RecordIO shard record by record and compares each
// with its member.
func verifyRecords(r io.Reader, name string, ix *index) error {
	rr := recordio.NewReader(r)
	for k, m := range ix.mem {
		rec, err := rr.Next()
		if err == io.EOF {
			return fmt.Errorf("shard: %s: %w: %d records, the index says %d", name, ErrCorrupt, k, len(ix.mem))
		}
		if err != nil {
			return fmt.Errorf("shard: %s: %w", name, err)
		}
		if rr.Offset() != m.off || int64(len(rec)) != m.size || crc32.Checksum(rec, castagnoli) != m.crc {
			return fmt.Errorf("shard: %s: %w: record %d at offset %d (%d bytes), the index says %d bytes at %d with another CRC-32C", name, ErrCorrupt, k, rr.Offset(), len(rec), m.size, m.off)
		}
	}
	if _, err := rr.Next(); err != io.EOF {
		return fmt.Errorf("shard: %s: %w: more than the index's %d records (%v)", name, ErrCorrupt, len(ix.mem), err)
	}
	return nil
}

// verifyRows reads file f of an Npy shard and checks the CRC-32C of each of
// its rows.
func verifyRows(r *bufio.Reader, name string, ix *index, f int) error {
	var off int64
	buf := make([]byte, 1<<16)
	for _, m := range ix.mem {
		if int(m.field) != f {
			continue
		}
		if _, err := r.Discard(int(m.off - off)); err != nil {
			return fmt.Errorf("shard: %s: %w: the file ends before the row at offset %d", name, ErrCorrupt, m.off)
		}
		crc := uint32(0)
		for left := m.size; left > 0; {
			n, err := io.ReadFull(r, buf[:min(left, int64(len(buf)))])
			crc = crc32.Update(crc, castagnoli, buf[:n])
			left -= int64(n)
			if err != nil {
				return fmt.Errorf("shard: %s: %w: the file ends inside the row at offset %d", name, ErrCorrupt, m.off)
			}
		}
		if crc != m.crc {
			return fmt.Errorf("shard: %s: %w: the row at offset %d: CRC-32C %08x, the index says %08x", name, ErrCorrupt, m.off, crc, m.crc)
		}
		off = m.off + m.size
	}
	return nil
}
