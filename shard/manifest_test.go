package shard

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

const goodManifest = `{"format": "obskit-shards", "version": 1, "kind": "tar", "samples": 3,
 "fields": [{"name": "jpg", "samples": 3}, {"name": "cls", "samples": 3}], "label": "cls",
 "shards": [
  {"samples": 2, "files": [{"name": "a.tar", "bytes": 10, "sha256": "0000000000000000000000000000000000000000000000000000000000000000"}],
   "index": {"name": "a.tar.index", "bytes": 5, "sha256": "0000000000000000000000000000000000000000000000000000000000000000"}},
  {"samples": 0, "files": [{"name": "sub/b.tar", "bytes": 10, "sha256": "0000000000000000000000000000000000000000000000000000000000000000"}],
   "index": {"name": "sub/b.tar.index", "bytes": 5, "sha256": "0000000000000000000000000000000000000000000000000000000000000000"}},
  {"samples": 1, "files": [{"name": "c.tar", "bytes": 10, "sha256": "0000000000000000000000000000000000000000000000000000000000000000"}],
   "index": {"name": "c.tar.index", "bytes": 5, "sha256": "0000000000000000000000000000000000000000000000000000000000000000"}}]}`

// TestManifestChecks: a manifest whose counts do not add up, whose names
// leave its directory or repeat, of another format or version, is refused
// naming what is wrong.
func TestManifestChecks(t *testing.T) {
	m, err := decodeManifest([]byte(goodManifest), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := newSet(nil, "d/m.json", m, nil)
	if err != nil || s.Nobs() != 3 || len(s.BlockStarts()) != 4 {
		t.Fatalf("newSet: %v", err)
	}
	if k, j := s.locate(2); k != 2 || j != 0 {
		t.Errorf("locate(2) = %d, %d, want shard 2 (after an empty one), 0", k, j)
	}
	for name, tc := range map[string][2]string{
		"format":        {`"obskit-shards"`, `"other"`},
		"version":       {`"version": 1`, `"version": 2`},
		"kind":          {`"kind": "tar"`, `"kind": "zip"`},
		"total":         {`"samples": 3,`, `"samples": 4,`},
		"negative":      {`"samples": 0,`, `"samples": -1,`},
		"escape":        {`"sub/b.tar"`, `"../b.tar"`},
		"absolute":      {`"sub/b.tar"`, `"/b.tar"`},
		"twice":         {`"c.tar"`, `"a.tar"`},
		"label":         {`"label": "cls"`, `"label": "seg"`},
		"field samples": {`{"name": "cls", "samples": 3}`, `{"name": "cls", "samples": 9}`},
		"sha":           {`"bytes": 10, "sha256": "00`, `"bytes": 10, "sha256": "zz`},
		"bytes":         {`"bytes": 10`, `"bytes": -10`},
		"not json":      {`{"format"`, `["format"`},
	} {
		bad := strings.Replace(goodManifest, tc[0], tc[1], 1)
		if bad == goodManifest {
			t.Fatalf("%s: the replacement changed nothing", name)
		}
		if _, err := decodeManifest([]byte(bad), "m.json"); !errors.Is(err, ErrManifest) || !strings.Contains(err.Error(), "m.json") {
			t.Errorf("%s: %v, want an error wrapping ErrManifest naming m.json", name, err)
		}
	}
}

// FuzzManifest: any bytes decode without a panic into a manifest whose set
// opens with the counts it says, or an error wrapping ErrManifest.
func FuzzManifest(f *testing.F) {
	f.Add([]byte(goodManifest))
	f.Add([]byte(`{"format": "obskit-shards", "version": 1, "kind": "npy", "samples": 1, "fields": [{"name": "x.npy", "samples": 1, "dtype": "<f4", "shape": [2, 3]}], "shards": [{"samples": 1, "files": [{"name": "a.x.npy", "bytes": 1, "sha256": "0000000000000000000000000000000000000000000000000000000000000000"}], "index": {"name": "a.index", "bytes": 1, "sha256": "0000000000000000000000000000000000000000000000000000000000000000"}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decodeManifest(b, "fuzz.json")
		if err != nil {
			if !errors.Is(err, ErrManifest) {
				t.Fatalf("error %v does not wrap ErrManifest", err)
			}
			return
		}
		s, err := newSet(nil, "fuzz.json", m, nil)
		if err != nil {
			if !errors.Is(err, ErrManifest) {
				t.Fatalf("newSet: %v does not wrap ErrManifest", err)
			}
			return
		}
		if s.Nobs() != m.Samples || len(s.BlockStarts()) != len(m.Shards)+1 {
			t.Fatalf("Nobs %d, starts %d for %d samples in %d shards", s.Nobs(), len(s.BlockStarts()), m.Samples, len(m.Shards))
		}
		if _, err := json.Marshal(m); err != nil {
			t.Fatalf("a manifest read does not write: %v", err)
		}
	})
}
