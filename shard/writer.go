package shard

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/recordio"
	"github.com/obskit/obskit/shard/wds"
)

// DefaultShardBytes is the size a [Packer] closes a shard at unless told
// otherwise: 256 MiB, large enough that a store serves a shard at its full
// speed and that 10^5 shards hold 25 TiB, small enough that a reader's cache
// holds a window of them.
const DefaultShardBytes = 256 << 20

// PackOptions configure a [Packer].
type PackOptions struct {
	// Format is the shards' format (default Tar).
	Format Format
	// ShardBytes is the size at which a shard is closed: after the sample
	// that brings it to ShardBytes or more (default DefaultShardBytes). A
	// sample is never split, so a shard may be larger by one sample; an Npy
	// shard is held in memory until it is written.
	ShardBytes int64
	// Label names the field that holds each sample's integer label
	// ([ParseLabel]), which the index keeps so that labels are read without
	// reading a shard (default "cls", WebDataset's class field). Labels are
	// kept when the first sample has the field; every sample must then have
	// it. "-" keeps none.
	Label string
	// Writer is the packer's number, which its shards' names hold, so that
	// writers with distinct numbers write distinct names with no
	// coordination (default 0).
	Writer int
}

// A Packer splits samples into shards of about opts.ShardBytes: each shard
// written and committed (its files, then its index) before the next starts,
// and at Close a manifest of the writer's shards, the part [Commit] joins with
// the other writers' parts. Its names, under prefix ("train/s"):
//
//	train/s-w00003-000000.tar         shard 0 of writer 3 (.rec for RecordIO)
//	train/s-w00003-000000.x.npy       field x.npy of an Npy shard
//	train/s-w00003-000000.tar.index   its index (Npy: train/s-w00003-000000.index)
//	train/s-w00003.json               the part: writer 3's manifest
//
// Nothing is visible under a name before it is whole ([Store]), a shard's
// index is committed after its files and the part after every shard, so a
// writer that dies leaves no part and Commit refuses to proceed without it; a
// writer run again with the same number rewrites its names from the start,
// removes temporaries the dead one left ([Cleaner]), and first replaces the
// part of an earlier run that finished with a mark Commit refuses, so that a
// run again that dies leaves no part listing shards it rewrote. A Packer
// belongs to one goroutine.
type Packer struct {
	store  Store
	prefix string // prefix-wNNNNN
	dir    string // the directory names in the part are relative to
	opts   PackOptions
	part   Manifest
	field  map[string]int // into part.Fields
	label  int            // 1: keep labels, -1: none, 0: not decided
	last   string         // the previous sample's key
	cur    *shardBuild
	k      int // the next shard's number
	err    error
	closed bool
	dtypes map[string]npy.Header // an Npy set's fields' dtype and shape
}

// NewPacker returns a Packer of shards named after prefix, a name of store
// (see [Packer]). It panics with a *container.ArgError for a negative
// opts.Writer or opts.ShardBytes, or an unknown format, and returns an error
// for a prefix that is no valid name, a failing Clean, or an error of the
// store replacing an earlier run's part.
func NewPacker(store Store, prefix string, opts PackOptions) (*Packer, error) {
	container.CheckArg(opts.Writer >= 0, "shard.NewPacker", "opts.Writer", opts.Writer, ">= 0")
	container.CheckArg(opts.ShardBytes >= 0, "shard.NewPacker", "opts.ShardBytes", opts.ShardBytes, ">= 0")
	if opts.Format == 0 {
		opts.Format = Tar
	}
	container.CheckArg(opts.Format <= Npy, "shard.NewPacker", "opts.Format", opts.Format, "Tar, RecordIO or Npy")
	if opts.ShardBytes == 0 {
		opts.ShardBytes = DefaultShardBytes
	}
	if opts.Label == "" {
		opts.Label = "cls"
	}
	if !validName(prefix) || strings.HasSuffix(prefix, "/") {
		return nil, fmt.Errorf("shard: writer prefix %q: not a name of a store", prefix)
	}
	w := &Packer{
		store: store, opts: opts,
		prefix: fmt.Sprintf("%s-w%05d", prefix, opts.Writer),
		dir:    path.Dir(prefix),
		part:   Manifest{Format: manifestFormat, Version: manifestVersion, Kind: opts.Format, Fields: []FieldInfo{}, Shards: []ShardInfo{}},
		field:  map[string]int{},
		dtypes: map[string]npy.Header{},
	}
	if opts.Label == "-" {
		w.label = -1
	}
	if c, ok := store.(Cleaner); ok {
		for _, p := range []string{w.prefix + "-", w.prefix + ".json"} {
			if err := c.Clean(p); err != nil {
				return nil, fmt.Errorf("shard: cleaning the temporaries of %s: %w", p, err)
			}
		}
	}
	if err := w.markUnfinished(); err != nil {
		return nil, err
	}
	return w, nil
}

// unfinishedFormat is the format of the object a Packer writes over the part
// of an earlier run of its number before it writes a shard.
const unfinishedFormat = "obskit-shards-unfinished-part"

// markUnfinished replaces the part an earlier run of this writer left with a
// mark that Commit refuses: that part lists shards this run rewrites, and a
// run that dies before Close would otherwise leave it for Commit to join.
// Nothing is written when there is no part.
func (w *Packer) markUnfinished() error {
	name := w.prefix + ".json"
	o, err := w.store.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("shard: the part of an earlier run: %w", err)
	}
	o.Close()
	mark := struct {
		Format string `json:"format"`
		Writer int    `json:"writer"`
	}{unfinishedFormat, w.opts.Writer}
	if err := putJSON(w.store, name, &mark); err != nil {
		return fmt.Errorf("shard: replacing the part of an earlier run: %w", err)
	}
	return nil
}

// PartName returns the name of the part manifest of writer number n of
// prefix: prefix-wNNNNN.json.
func PartName(prefix string, n int) string { return fmt.Sprintf("%s-w%05d.json", prefix, n) }

// rel returns name relative to the writer's directory.
func (w *Packer) rel(name string) string {
	if w.dir == "." {
		return name
	}
	return name[len(w.dir)+1:]
}

// ErrPacker is wrapped by the error of a Packer used after an error or Close.
var ErrPacker = errors.New("shard: packer failed or closed")

// Write adds a sample, closing the current shard when it reaches the target
// size. s is not retained. It returns an error, and writes nothing of s, for
// a sample that would not read back as written (wds.ErrSample: see
// wds.CheckSample; and the key of the previous sample again), for a label
// field missing or not an integer, and for an Npy sample whose fields are not
// .npy arrays of one dtype and shape per field; the Packer stays usable. An
// error of the store fails the Packer: every later call returns an error
// wrapping [ErrPacker].
func (w *Packer) Write(s Sample) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return fmt.Errorf("%w: Write after Close", ErrPacker)
	}
	if err := wds.CheckSample(s.Key, s.fieldNames); err != nil {
		return err
	}
	if s.Key == w.last {
		return fmt.Errorf("%w: sample %q follows a sample of the same key", wds.ErrSample, s.Key)
	}
	label, hasLabel, err := w.labelOf(&s)
	if err != nil {
		return err
	}
	var dtypes map[string]npy.Header
	if w.opts.Format == Npy {
		if dtypes, err = w.checkNpy(&s); err != nil {
			return err
		}
	}
	if w.cur == nil {
		if err := w.startShard(hasLabel || w.label > 0); err != nil {
			return w.fail(err)
		}
	}
	if err := w.cur.write(&s, label, hasLabel); err != nil {
		return w.fail(err)
	}
	if w.label == 0 {
		// The first sample decides.
		w.label = -1
		if hasLabel {
			w.label, w.part.Label = 1, w.opts.Label
		}
	}
	maps.Copy(w.dtypes, dtypes)
	w.last = s.Key
	for _, f := range s.Fields {
		k, ok := w.field[f.Name]
		if !ok {
			k = len(w.part.Fields)
			w.field[f.Name] = k
			fi := FieldInfo{Name: f.Name}
			if h, ok := w.dtypes[f.Name]; ok {
				fi.Dtype, fi.Shape = h.Dtype.Descr, slices.Clone(h.Shape)
			}
			w.part.Fields = append(w.part.Fields, fi)
		}
		w.part.Fields[k].Samples++
	}
	w.part.Samples++
	if w.cur.bytes() >= w.opts.ShardBytes {
		return w.finishShard()
	}
	return nil
}

func (w *Packer) fail(err error) error {
	if w.cur != nil {
		w.cur.abort()
		w.cur = nil
	}
	w.err = fmt.Errorf("%w: %w", ErrPacker, err)
	return w.err
}

// labelOf returns the label of s, and whether s has one to keep.
func (w *Packer) labelOf(s *Sample) (int64, bool, error) {
	if w.label < 0 {
		return 0, false, nil
	}
	data, ok := s.Get(w.opts.Label)
	if !ok {
		if w.label == 0 {
			return 0, false, nil
		}
		return 0, false, fmt.Errorf("shard: sample %q has no label field %q, which the first sample had", s.Key, w.opts.Label)
	}
	v, err := ParseLabel(w.opts.Label, data)
	if err != nil {
		return 0, false, fmt.Errorf("shard: sample %q: %w", s.Key, err)
	}
	return v, true, nil
}

// checkNpy checks that s's fields are .npy arrays of their field's dtype and
// shape, the first sample's, and returns those of fields not seen before.
func (w *Packer) checkNpy(s *Sample) (map[string]npy.Header, error) {
	var first map[string]npy.Header
	for _, f := range s.Fields {
		if !strings.HasSuffix(f.Name, ".npy") {
			return nil, fmt.Errorf("shard: sample %q: field %q of an npy shard: its name must end with .npy", s.Key, f.Name)
		}
		h, err := npy.ReadHeader(bytes.NewReader(f.Data))
		if err != nil {
			return nil, fmt.Errorf("shard: sample %q: field %q: %w", s.Key, f.Name, err)
		}
		if h.Fortran && len(h.Shape) > 1 {
			return nil, fmt.Errorf("shard: sample %q: field %q: a Fortran-ordered array; write it in C order", s.Key, f.Name)
		}
		if size := h.DataSize(); size < 0 || h.DataOffset+size != int64(len(f.Data)) || h.Dtype.Size == 0 {
			return nil, fmt.Errorf("shard: sample %q: field %q: %d bytes for an array of shape %v and dtype %s", s.Key, f.Name, len(f.Data), h.Shape, h.Dtype)
		}
		if want, ok := w.dtypes[f.Name]; !ok {
			if first == nil {
				first = map[string]npy.Header{}
			}
			first[f.Name] = npy.Header{Dtype: h.Dtype, Shape: h.Shape}
		} else if want.Dtype != h.Dtype || !slices.Equal(want.Shape, h.Shape) {
			return nil, fmt.Errorf("shard: sample %q: field %q: shape %v and dtype %s, the field's earlier samples %v and %s", s.Key, f.Name, h.Shape, h.Dtype, want.Shape, want.Dtype)
		}
	}
	return first, nil
}

func (w *Packer) startShard(labels bool) error {
	name := fmt.Sprintf("%s-%06d", w.prefix, w.k)
	b := &shardBuild{w: w, name: name, ix: index{format: w.opts.Format, mstart: []uint32{0}}, fnum: map[string]uint16{}}
	if labels {
		b.ix.labels = []int64{}
	}
	switch w.opts.Format {
	case Tar, RecordIO:
		ext := ".tar"
		if w.opts.Format == RecordIO {
			ext = ".rec"
		}
		f, err := w.store.Create(name + ext)
		if err != nil {
			return err
		}
		b.file = name + ext
		b.obj = f
		b.hw = &hashWriter{w: f, h: sha256.New()}
		if w.opts.Format == Tar {
			b.tw = wds.NewWriter(b.hw)
		} else {
			b.rw = recordio.NewWriter(b.hw)
		}
	case Npy:
		b.npy = map[string]*npyBuf{}
	}
	w.cur = b
	w.k++
	return nil
}

func (w *Packer) finishShard() error {
	info, err := w.cur.finish()
	w.cur = nil
	if err != nil {
		return w.fail(err)
	}
	w.part.Shards = append(w.part.Shards, info)
	return nil
}

// Close finishes the last shard, writes the writer's part manifest and
// returns it. A Packer that failed removes its unfinished shard and returns
// its error. Close may be called more than once.
func (w *Packer) Close() (*Manifest, error) {
	if w.err != nil {
		return nil, w.err
	}
	if w.closed {
		return &w.part, nil
	}
	w.closed = true
	if w.cur != nil {
		if err := w.finishShard(); err != nil {
			return nil, err
		}
	}
	if err := putJSON(w.store, w.prefix+".json", &w.part); err != nil {
		return nil, w.fail(err)
	}
	return &w.part, nil
}

// putJSON writes v as indented JSON to the object name.
func putJSON(store Store, name string, v any) error {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	return put(store, name, append(b, '\n'))
}

// put writes b to the object name.
func put(store Store, name string, b []byte) error {
	o, err := store.Create(name)
	if err != nil {
		return err
	}
	defer o.Close()
	if _, err := o.Write(b); err != nil {
		return err
	}
	return o.Commit()
}

// hashWriter counts and hashes what it writes.
type hashWriter struct {
	w io.Writer
	h hash.Hash
	n int64
}

func (h *hashWriter) Write(p []byte) (int, error) {
	n, err := h.w.Write(p)
	h.h.Write(p[:n])
	h.n += int64(n)
	return n, err
}

func (h *hashWriter) info(name string) FileInfo {
	fi := FileInfo{Name: name, Bytes: h.n}
	h.h.Sum(fi.SHA256[:0])
	return fi
}

// shardBuild is a shard being written.
type shardBuild struct {
	w    *Packer
	name string // the shard's name without extension
	ix   index
	fnum map[string]uint16 // field numbers in ix.fields
	// Tar and RecordIO: the file being written.
	file string
	obj  Writer
	hw   *hashWriter
	tw   *wds.Writer
	rw   *recordio.Writer
	// Npy: each field's rows.
	npy map[string]*npyBuf
}

// npyBuf holds an Npy shard's rows of one field.
type npyBuf struct {
	hdr  npy.Header // dtype and the shape of one row
	rows int
	data []byte
}

func (b *shardBuild) bytes() int64 {
	if b.hw != nil {
		return b.hw.n
	}
	var n int64
	for _, f := range b.npy {
		n += int64(len(f.data)) + 128
	}
	return n
}

// fieldNum returns the number of field name in the shard's index.
func (b *shardBuild) fieldNum(name string) uint16 {
	k, ok := b.fnum[name]
	if !ok {
		k = uint16(len(b.ix.fields))
		b.fnum[name] = k
		b.ix.fields = append(b.ix.fields, name)
	}
	return k
}

func (b *shardBuild) write(s *Sample, label int64, hasLabel bool) error {
	if len(b.ix.fields)+len(s.Fields) > 1<<16 {
		return fmt.Errorf("shard %s: more than 65536 fields", b.name)
	}
	switch {
	case b.tw != nil:
		ms, err := b.tw.WriteSample(s.Key, s.fieldPairs)
		if err != nil {
			return err
		}
		for _, m := range ms {
			b.ix.mem = append(b.ix.mem, member{off: m.Offset, size: m.Size, crc: m.CRC, field: b.fieldNum(m.Field)})
		}
	case b.rw != nil:
		for _, f := range s.Fields {
			off, err := b.rw.Write(f.Data)
			if err != nil {
				return err
			}
			b.ix.mem = append(b.ix.mem, member{off: off, size: int64(len(f.Data)), crc: crc32.Checksum(f.Data, castagnoli), field: b.fieldNum(f.Name)})
		}
	default:
		for _, f := range s.Fields {
			h, _ := npy.ReadHeader(bytes.NewReader(f.Data)) // checked by checkNpy
			row := f.Data[h.DataOffset:]
			nb := b.npy[f.Name]
			if nb == nil {
				nb = &npyBuf{hdr: npy.Header{Dtype: h.Dtype, Shape: h.Shape}}
				b.npy[f.Name] = nb
			}
			// Offsets from the start of the data: finish adds the header's
			// length.
			b.ix.mem = append(b.ix.mem, member{off: int64(len(nb.data)), size: int64(len(row)), crc: crc32.Checksum(row, castagnoli), field: b.fieldNum(f.Name)})
			nb.data = append(nb.data, row...)
			nb.rows++
		}
	}
	b.ix.keys = append(b.ix.keys, s.Key...)
	b.ix.keyEnd = append(b.ix.keyEnd, uint32(len(b.ix.keys)))
	if hasLabel {
		b.ix.labels = append(b.ix.labels, label)
	}
	b.ix.mstart = append(b.ix.mstart, uint32(len(b.ix.mem)))
	return nil
}

// finish commits the shard's files, then its index, and returns its entry.
func (b *shardBuild) finish() (ShardInfo, error) {
	info := ShardInfo{Samples: b.ix.n()}
	switch {
	case b.tw != nil || b.rw != nil:
		if b.tw != nil {
			if err := b.tw.Close(); err != nil {
				b.abort()
				return info, err
			}
		}
		fi := b.hw.info(b.w.rel(b.file))
		if err := b.obj.Commit(); err != nil {
			return info, err
		}
		info.Files = []FileInfo{fi}
		b.ix.files = []indexFile{{name: path.Base(b.file), size: fi.Bytes, sha256: fi.SHA256}}
	default:
		headers := make([]int64, len(b.ix.fields))
		for k, field := range b.ix.fields {
			nb := b.npy[field]
			h := nb.hdr
			h.Shape = append([]int{nb.rows}, nb.hdr.Shape...)
			hdr := npy.AppendHeader(nil, h)
			headers[k] = int64(len(hdr))
			name := b.name + "." + field
			o, err := b.w.store.Create(name)
			if err != nil {
				return info, err
			}
			hw := &hashWriter{w: o, h: sha256.New()}
			_, err = hw.Write(hdr)
			if err == nil {
				_, err = hw.Write(nb.data)
			}
			if err == nil {
				err = o.Commit()
			}
			if err != nil {
				o.Close()
				return info, err
			}
			fi := hw.info(b.w.rel(name))
			info.Files = append(info.Files, fi)
			b.ix.files = append(b.ix.files, indexFile{name: path.Base(name), size: fi.Bytes, sha256: fi.SHA256})
		}
		for k := range b.ix.mem {
			b.ix.mem[k].off += headers[b.ix.mem[k].field]
		}
	}
	ixName := b.name + ".index"
	if b.tw != nil || b.rw != nil {
		ixName = b.file + ".index"
	}
	enc := b.ix.encode()
	if err := put(b.w.store, ixName, enc); err != nil {
		return info, err
	}
	info.Index = FileInfo{Name: b.w.rel(ixName), Bytes: int64(len(enc)), SHA256: sha256.Sum256(enc)}
	return info, nil
}

func (b *shardBuild) abort() {
	if b.obj != nil {
		b.obj.Close()
	}
}
