package shard

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"strings"
)

// manifestFormat and manifestVersion name what a manifest file is.
const (
	manifestFormat  = "obskit-shards"
	manifestVersion = 1
)

// ErrManifest is wrapped by the error of a manifest that is not one: not
// JSON, another format or version, counts that do not add up, a name outside
// the set's directory, a shard twice.
var ErrManifest = errors.New("not a valid shard manifest")

// A Manifest lists the shards of a set, in order: it is the one file a
// reader reads to open the set, and the last a writer writes. Its JSON form:
//
//	{"format": "obskit-shards", "version": 1, "kind": "tar", "samples": 2000,
//	 "fields": [{"name": "cls", "samples": 2000}, {"name": "jpg", "samples": 2000}],
//	 "label": "cls",
//	 "shards": [{"samples": 1000,
//	             "files": [{"name": "train-w00000-000000.tar", "bytes": 1234, "sha256": "..."}],
//	             "index": {"name": "train-w00000-000000.tar.index", "bytes": 56, "sha256": "..."}},
//	            ...]}
//
// Names are relative to the manifest's directory, slash-separated, and stay
// inside it.
type Manifest struct {
	Format  string      `json:"format"`  // "obskit-shards"
	Version int         `json:"version"` // 1
	Kind    Format      `json:"kind"`    // the shards' format
	Samples int         `json:"samples"` // the samples of all shards
	Fields  []FieldInfo `json:"fields"`  // every field any sample has, by name
	// Label is the field whose value every sample's index entry holds as
	// its label (an integer), or "" when the indexes hold none.
	Label  string      `json:"label,omitempty"`
	Shards []ShardInfo `json:"shards"`
}

// FieldInfo describes one field of a set.
type FieldInfo struct {
	Name    string `json:"name"`
	Samples int    `json:"samples"` // how many samples have it
	// Dtype and Shape are an Npy set's field's element type (NumPy's descr,
	// such as "<f4") and the shape of one sample's array.
	Dtype string `json:"dtype,omitempty"`
	Shape []int  `json:"shape,omitempty"`
}

// ShardInfo describes one shard.
type ShardInfo struct {
	Samples int        `json:"samples"`
	Files   []FileInfo `json:"files"` // one, or an Npy shard's one per field in the order of the set's fields it has
	Index   FileInfo   `json:"index"`
}

// FileInfo is a file's name, size and SHA-256.
type FileInfo struct {
	Name   string `json:"name"`
	Bytes  int64  `json:"bytes"`
	SHA256 Digest `json:"sha256"`
}

// A Digest is a SHA-256, written in JSON as 64 hexadecimal digits.
type Digest [32]byte

// MarshalText returns the digest in hexadecimal.
func (d Digest) MarshalText() ([]byte, error) { return hex.AppendEncode(nil, d[:]), nil }

// UnmarshalText reads 64 hexadecimal digits.
func (d *Digest) UnmarshalText(b []byte) error {
	if len(b) != 64 {
		return fmt.Errorf("sha256 of %d characters, want 64 hexadecimal digits", len(b))
	}
	_, err := hex.Decode(d[:], b)
	return err
}

// String returns the digest in hexadecimal.
func (d Digest) String() string { return hex.EncodeToString(d[:]) }

// MarshalText returns the format's name.
func (f Format) MarshalText() ([]byte, error) {
	if f < Tar || f > Npy {
		return nil, fmt.Errorf("shard: no format %d", f)
	}
	return []byte(f.String()), nil
}

// UnmarshalText reads a format's name.
func (f *Format) UnmarshalText(b []byte) error {
	v, err := ParseFormat(string(b))
	*f = v
	return err
}

// Field returns the FieldInfo of the field name, and whether the set has it.
func (m *Manifest) Field(name string) (FieldInfo, bool) {
	for _, f := range m.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return FieldInfo{}, false
}

// decodeManifest reads and checks a manifest's JSON; name names it in
// errors.
func decodeManifest(b []byte, name string) (*Manifest, error) {
	m := new(Manifest)
	if err := json.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("shard: manifest %s: %w: %w", name, ErrManifest, err)
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("shard: manifest %s: %w: %w", name, ErrManifest, err)
	}
	return m, nil
}

// check checks what a manifest says against itself, in O(shards + fields).
func (m *Manifest) check() error {
	if m.Format != manifestFormat {
		return fmt.Errorf("format %q, want %q", m.Format, manifestFormat)
	}
	if m.Version != manifestVersion {
		return fmt.Errorf("version %d, want %d", m.Version, manifestVersion)
	}
	if m.Kind < Tar || m.Kind > Npy {
		return errors.New("no kind")
	}
	if m.Samples < 0 {
		return fmt.Errorf("samples %d", m.Samples)
	}
	for k, f := range m.Fields {
		if f.Name == "" || f.Samples < 0 || f.Samples > m.Samples {
			return fmt.Errorf("field %d (%q): %d samples of %d", k, f.Name, f.Samples, m.Samples)
		}
		for _, g := range m.Fields[:k] {
			if g.Name == f.Name {
				return fmt.Errorf("field %q twice", f.Name)
			}
		}
		if m.Kind == Npy && (f.Dtype == "" || !strings.HasSuffix(f.Name, ".npy")) {
			return fmt.Errorf("field %q of an npy set: no dtype, or a name without .npy", f.Name)
		}
		for _, d := range f.Shape {
			if d < 0 {
				return fmt.Errorf("field %q: shape %v", f.Name, f.Shape)
			}
		}
	}
	if m.Label != "" {
		if f, ok := m.Field(m.Label); !ok || f.Samples != m.Samples {
			return fmt.Errorf("label field %q: not a field of every sample", m.Label)
		}
	}
	total := 0
	names := make(map[string]int, len(m.Shards)*2)
	for k, s := range m.Shards {
		if s.Samples < 0 || s.Samples > math.MaxInt-total {
			return fmt.Errorf("shard %d: samples %d", k, s.Samples)
		}
		total += s.Samples
		want := 1
		if m.Kind == Npy {
			want = len(s.Files)
			if want < 1 || want > len(m.Fields) {
				return fmt.Errorf("shard %d: %d files for %d fields", k, want, len(m.Fields))
			}
		}
		if len(s.Files) != want {
			return fmt.Errorf("shard %d: %d files, want %d", k, len(s.Files), want)
		}
		for _, f := range append(s.Files[:len(s.Files):len(s.Files)], s.Index) {
			if !validName(f.Name) || f.Bytes < 0 {
				return fmt.Errorf("shard %d: file %q of %d bytes: not a name inside the set's directory", k, f.Name, f.Bytes)
			}
			if j, ok := names[f.Name]; ok {
				return fmt.Errorf("shards %d and %d both name %q", j, k, f.Name)
			}
			names[f.Name] = k
		}
	}
	if total != m.Samples {
		return fmt.Errorf("the shards hold %d samples, the manifest says %d", total, m.Samples)
	}
	return nil
}

// validName reports whether name is a slash-separated path that stays in its
// directory.
func validName(name string) bool {
	return fs.ValidPath(name) && name != "." && path.Clean(name) == name
}
