package shard

import (
	"crypto/sha256"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/obskit/obskit/internal/pipeline"
	"github.com/obskit/obskit/shard/wds"
)

// IndexOptions configure [IndexTars].
type IndexOptions struct {
	// Label names the field that holds each sample's integer label (see
	// [PackOptions]). By default "cls", kept when every sample has it as an
	// integer and otherwise not; named here, every sample must have it.
	// "-" keeps none.
	Label string
}

// IndexTars makes a shard set of WebDataset tar shards that another tool
// wrote (webdataset's TarWriter, Python's tarfile, tar): it reads each shard
// once, as a stream, grouping its members as webdataset does (package wds),
// writes its index beside it (NAME.index) and then the manifest name listing
// the shards in the order given. The shards' names are names of store in the
// manifest's directory or below. A gzip-compressed shard (.tar.gz) is indexed
// by the offsets of its decompressed stream and read whole ([MaxMemory]).
// Two shards are read at once.
//
// It returns the first shard's error, naming the shard and the offset (a
// shard that is not a whole tar file, a field twice, a bzip2 shard, which
// cannot be read at an offset), and writes no manifest then.
func IndexTars(store Store, name string, shards []string, opts IndexOptions) (*Manifest, error) {
	if !validName(name) {
		return nil, fmt.Errorf("shard: manifest %q: not a name of a store", name)
	}
	dir := path.Dir(name)
	label, required := opts.Label, opts.Label != ""
	if label == "" {
		label = "cls"
	}
	if label == "-" {
		label, required = "", false
	}
	type step struct {
		k    int
		info ShardInfo
		ix   *index
		err  error
	}
	m := &Manifest{Format: manifestFormat, Version: manifestVersion, Kind: Tar, Label: label, Fields: []FieldInfo{}, Shards: make([]ShardInfo, len(shards))}
	for _, s := range shards {
		if !validName(s) || dir != "." && !strings.HasPrefix(s, dir+"/") {
			return nil, fmt.Errorf("shard: shard %q: not a name in the directory of the manifest %s", s, name)
		}
	}
	field := map[string]int{}
	next := 0
	var first error
	pipeline.Run(pipeline.Config{Op: "shard.IndexTars", Workers: 2}, make([]step, 4),
		func(st *step) bool {
			if next == len(shards) {
				return false
			}
			*st = step{k: next}
			next++
			return true
		},
		func(st *step) {
			st.ix, st.info, st.err = indexTar(store, shards[st.k], label, required)
		},
		func(st *step) bool {
			if st.err != nil {
				first = st.err
				return false
			}
			info := st.info
			rel := func(n string) string {
				if dir == "." {
					return n
				}
				return n[len(dir)+1:]
			}
			info.Files[0].Name = rel(info.Files[0].Name)
			info.Index.Name = rel(info.Index.Name)
			m.Shards[st.k] = info
			m.Samples += info.Samples
			if st.ix.labels == nil && info.Samples > 0 {
				m.Label = ""
			}
			for j := range st.ix.n() {
				for _, mb := range st.ix.members(j) {
					f := st.ix.fields[mb.field]
					k, ok := field[f]
					if !ok {
						k = len(m.Fields)
						field[f] = k
						m.Fields = append(m.Fields, FieldInfo{Name: f})
					}
					m.Fields[k].Samples++
				}
			}
			return true
		})
	if first != nil {
		return nil, first
	}
	if m.Label != "" {
		if f, ok := m.Field(m.Label); !ok || f.Samples != m.Samples {
			m.Label = ""
		}
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("shard: manifest %s: %w: %w", name, ErrManifest, err)
	}
	if m.Label == "" {
		// The indexes were written with labels that the set as a whole
		// does not have: write them again without.
		for k, s := range shards {
			if err := rewriteWithoutLabels(store, s, &m.Shards[k]); err != nil {
				return nil, err
			}
		}
	}
	if err := putJSON(store, name, m); err != nil {
		return nil, err
	}
	return m, nil
}

// indexTar reads the tar shard name of store and writes its index.
func indexTar(store Store, name, label string, required bool) (*index, ShardInfo, error) {
	var info ShardInfo
	o, err := store.Open(name)
	if err != nil {
		return nil, info, err
	}
	defer o.Close()
	sum := sha256.New()
	r := io.TeeReader(io.NewSectionReader(o, 0, o.Size()), sum)
	sc := wds.NewScanner(r, name, wds.ScanOptions{Keep: func(f string) bool { return f == label }})
	ix := &index{format: Tar, mstart: []uint32{0}, labels: []int64{}}
	if label == "" {
		ix.labels = nil
	}
	fnum := map[string]uint16{}
	for sc.Next() {
		smp := sc.Sample()
		for _, mb := range smp.Members {
			k, ok := fnum[mb.Field]
			if !ok {
				if len(ix.fields) == 1<<16 {
					return nil, info, fmt.Errorf("shard: %s: more than 65536 fields", name)
				}
				k = uint16(len(ix.fields))
				fnum[mb.Field] = k
				ix.fields = append(ix.fields, mb.Field)
			}
			ix.mem = append(ix.mem, member{off: mb.Offset, size: mb.Size, crc: mb.CRC, field: k})
			if ix.labels != nil && mb.Field == label {
				v, err := ParseLabel(label, mb.Data)
				if err != nil {
					if required {
						return nil, info, fmt.Errorf("shard: %s: offset %d: sample %q: %w", name, mb.Header, smp.Key, err)
					}
					ix.labels = nil
				} else {
					ix.labels = append(ix.labels, v)
				}
			}
		}
		if ix.labels != nil && len(ix.labels) != ix.n()+1 {
			if required {
				return nil, info, fmt.Errorf("shard: %s: sample %q has no label field %q", name, smp.Key, label)
			}
			ix.labels = nil
		}
		ix.keys = append(ix.keys, smp.Key...)
		ix.keyEnd = append(ix.keyEnd, uint32(len(ix.keys)))
		ix.mstart = append(ix.mstart, uint32(len(ix.mem)))
	}
	if err := sc.Err(); err != nil {
		return nil, info, err
	}
	switch sc.Compression() {
	case "gzip":
		ix.gzip, ix.dataSize = true, sc.Offset()
	case "bzip2":
		return nil, info, fmt.Errorf("shard: %s: %w: compressed with bzip2, which cannot be read at an offset: decompress it, or recompress it with gzip", name, wds.ErrFormat)
	}
	fi := FileInfo{Name: name, Bytes: o.Size()}
	sum.Sum(fi.SHA256[:0])
	ix.files = []indexFile{{name: path.Base(name), size: fi.Bytes, sha256: fi.SHA256}}
	enc := ix.encode()
	ixName := name + ".index"
	if err := put(store, ixName, enc); err != nil {
		return nil, info, err
	}
	info = ShardInfo{Samples: ix.n(), Files: []FileInfo{fi}, Index: FileInfo{Name: ixName, Bytes: int64(len(enc)), SHA256: sha256.Sum256(enc)}}
	return ix, info, nil
}

// rewriteWithoutLabels writes the index of shard name again without labels.
func rewriteWithoutLabels(store Store, name string, info *ShardInfo) error {
	ixName := name + ".index"
	b, err := readObject(store, ixName)
	if err != nil {
		return err
	}
	ix, err := decodeIndex(b, ixName)
	if err != nil {
		return err
	}
	if ix.labels == nil {
		return nil
	}
	ix.labels = nil
	enc := ix.encode()
	if err := put(store, ixName, enc); err != nil {
		return err
	}
	info.Index.Bytes, info.Index.SHA256 = int64(len(enc)), sha256.Sum256(enc)
	return nil
}
