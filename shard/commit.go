package shard

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"path"
	"slices"
	"strings"

	"github.com/obskit/obskit/container"
)

// Commit writes the manifest name of the shards that writers packers
// (numbers 0 to writers-1) wrote under prefix: their parts ([Packer.Close])
// joined in the packers' order, each packer's shards in the order written. It
// reads one part per packer and no shard or index, and writes the manifest
// last, as one object, so that a reader sees every shard or none. It returns
// an error, writing nothing, when a part is missing or is the mark of a run
// that has not closed (a packer that has not finished or died: run it again),
// damaged, or disagrees with the others (the
// format, the label field, an Npy field's dtype or shape), or when the
// manifest's directory does not hold prefix's. It panics with a
// *container.ArgError when writers < 1.
func Commit(store Store, name, prefix string, writers int) (*Manifest, error) {
	container.CheckArg(writers >= 1, "shard.Commit", "writers", writers, ">= 1")
	if !validName(name) {
		return nil, fmt.Errorf("shard: manifest %q: not a name of a store", name)
	}
	// The parts' names are relative to prefix's directory; the manifest's
	// to its own, which must hold it.
	sub := path.Dir(prefix)
	if dir := path.Dir(name); dir != "." {
		if sub != dir && !strings.HasPrefix(sub, dir+"/") {
			return nil, fmt.Errorf("shard: manifest %s: its directory does not hold the shards of %s", name, prefix)
		}
		sub = strings.TrimPrefix(strings.TrimPrefix(sub, dir), "/")
	}
	if sub == "." {
		sub = ""
	}
	m := &Manifest{Format: manifestFormat, Version: manifestVersion, Fields: []FieldInfo{}, Shards: []ShardInfo{}}
	field := map[string]int{}
	for w := range writers {
		pname := PartName(prefix, w)
		b, err := readObject(store, pname)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("shard: packer %d of %s has not finished: no part %s", w, prefix, pname)
		}
		if err != nil {
			return nil, err
		}
		if unfinished(b) {
			return nil, fmt.Errorf("shard: packer %d of %s has not finished: %s marks a run that started after an earlier one finished and has not closed (it died, or is still writing): run it again", w, prefix, pname)
		}
		p, err := decodeManifest(b, pname)
		if err != nil {
			return nil, err
		}
		if w == 0 {
			m.Kind, m.Label = p.Kind, p.Label
		}
		if p.Kind != m.Kind || p.Label != m.Label && p.Samples > 0 && m.Samples > 0 {
			return nil, fmt.Errorf("shard: part %s: format %s and label field %q, the parts before %s and %q", pname, p.Kind, p.Label, m.Kind, m.Label)
		}
		if m.Samples == 0 {
			m.Label = p.Label
		}
		for _, f := range p.Fields {
			k, ok := field[f.Name]
			if !ok {
				field[f.Name] = len(m.Fields)
				m.Fields = append(m.Fields, f)
				continue
			}
			g := &m.Fields[k]
			if g.Dtype != f.Dtype || !slices.Equal(g.Shape, f.Shape) {
				return nil, fmt.Errorf("shard: part %s: field %q of dtype %s and shape %v, the parts before %s and %v", pname, f.Name, f.Dtype, f.Shape, g.Dtype, g.Shape)
			}
			g.Samples += f.Samples
		}
		for _, s := range p.Shards {
			if sub != "" {
				for k := range s.Files {
					s.Files[k].Name = sub + "/" + s.Files[k].Name
				}
				s.Index.Name = sub + "/" + s.Index.Name
			}
			m.Shards = append(m.Shards, s)
		}
		m.Samples += p.Samples
	}
	if m.Label != "" {
		// A part of no samples says no label: the set keeps labels when all
		// its samples have them.
		if f, ok := m.Field(m.Label); !ok || f.Samples != m.Samples {
			m.Label = ""
		}
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("shard: manifest %s: %w: %w", name, ErrManifest, err)
	}
	if err := putJSON(store, name, m); err != nil {
		return nil, err
	}
	return m, nil
}

// unfinished reports whether the part b is the mark a Packer writes over an
// earlier run's part (markUnfinished).
func unfinished(b []byte) bool {
	var m struct {
		Format string `json:"format"`
	}
	return json.Unmarshal(b, &m) == nil && m.Format == unfinishedFormat
}

// ReadManifest reads and checks the manifest name of store, in O(shards): the
// format and version, names that stay inside the manifest's directory, no
// name twice, sample counts that add up. Its errors wrap [ErrManifest] or the
// store's (fs.ErrNotExist for a manifest that does not exist).
func ReadManifest(store Store, name string) (*Manifest, error) {
	b, err := readObject(store, name)
	if err != nil {
		return nil, err
	}
	return decodeManifest(b, name)
}

// readObject reads the whole object name.
func readObject(store Store, name string) ([]byte, error) {
	o, err := store.Open(name)
	if err != nil {
		return nil, err
	}
	defer o.Close()
	b := make([]byte, o.Size())
	if _, err := o.ReadAt(b, 0); err != nil && !(err == io.EOF) {
		return nil, fmt.Errorf("shard: reading %s: %w", name, err)
	}
	return b, nil
}

// Pack packs the samples seq yields into shards under prefix with one
// Packer (see [NewPacker]; opts.Writer is its number and must be 0) and
// commits the manifest name: the whole of a one-writer job. seq's error ends
// it with that error, and no manifest.
func Pack(store Store, name, prefix string, seq iter.Seq2[Sample, error], opts PackOptions) (*Manifest, error) {
	container.CheckArg(opts.Writer == 0, "shard.Pack", "opts.Writer", opts.Writer, "0 (use NewPacker and Commit for several)")
	p, err := NewPacker(store, prefix, opts)
	if err != nil {
		return nil, err
	}
	for s, err := range seq {
		if err == nil {
			err = p.Write(s)
		}
		if err != nil {
			p.fail(err)
			return nil, err
		}
	}
	if _, err := p.Close(); err != nil {
		return nil, err
	}
	return Commit(store, name, prefix, 1)
}
