package wds

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/obskit/obskit/internal/pypeer"
)

// pySample is a sample as tarfile_peer.py prints it (and as obskit shard ls
// prints it).
type pySample struct {
	Key    string                  `json:"key"`
	Fields map[string]pyFieldStats `json:"fields"`
}

type pyFieldStats struct {
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// peer runs testdata/tarfile_peer.py with args, or skips the test without
// Python.
func peer(t *testing.T, args ...string) []byte {
	t.Helper()
	if err := pypeer.Has("tarfile"); err != nil {
		t.Skipf("no Python with tarfile: %v", err)
	}
	out, err := exec.Command(pypeer.Python(), append([]string{"testdata/tarfile_peer.py"}, args...)...).Output()
	if err != nil {
		if e, ok := err.(*exec.ExitError); ok {
			t.Fatalf("tarfile_peer.py %v: %v\n%s", args, err, e.Stderr)
		}
		t.Fatal(err)
	}
	return out
}

// pyRead returns the samples Python's tarfile reads from each of paths,
// grouped by webdataset's rules.
func pyRead(t *testing.T, paths ...string) map[string][]pySample {
	t.Helper()
	out := map[string][]pySample{}
	var cur string
	for _, line := range strings.Split(strings.TrimSpace(string(peer(t, append([]string{"read"}, paths...)...))), "\n") {
		if p, ok := strings.CutPrefix(line, "== "); ok {
			cur = p
			continue
		}
		var s pySample
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatal(err)
		}
		out[cur] = append(out[cur], s)
	}
	return out
}

// goRead returns the samples a Scanner reads from path.
func goRead(t *testing.T, path string) []pySample {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := NewScanner(f, filepath.Base(path), ScanOptions{SHA256: true})
	var out []pySample
	for s.Next() {
		smp := pySample{Key: s.Sample().Key, Fields: map[string]pyFieldStats{}}
		for _, m := range s.Sample().Members {
			smp.Fields[m.Field] = pyFieldStats{Bytes: m.Size, SHA256: hex.EncodeToString(m.SHA256[:])}
		}
		out = append(out, smp)
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func equalSamples(a, b []pySample) bool {
	return slices.EqualFunc(a, b, func(x, y pySample) bool {
		if x.Key != y.Key || len(x.Fields) != len(y.Fields) {
			return false
		}
		for k, v := range x.Fields {
			if y.Fields[k] != v {
				return false
			}
		}
		return true
	})
}

// TestTarfileInterop: shards Python's tarfile writes (ustar, GNU long names,
// PAX long and non-ASCII names with a global header, gzip, bzip2), with
// directories, symlinks, metadata and names without an extension between the
// samples, read by the Scanner as tarfile and webdataset's rules read them;
// and shards the Writer writes (long and non-ASCII keys) read by tarfile as
// the Scanner reads them.
func TestTarfileInterop(t *testing.T) {
	dir := t.TempDir()
	names := strings.Fields(string(peer(t, "write", dir)))
	if len(names) != 5 {
		t.Fatalf("the peer wrote %q", names)
	}

	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, key := range []string{"000000", "sample/" + strings.Repeat("k", 200), "caf\u00e9/\u00e9t\u00e9", "x/y/z"} {
		if _, err := w.WriteSample(key, pairs([][2]string{{"jpg", "image of " + key}, {"cls", "3"}, {"seg.png", strings.Repeat("s", 1000)}})); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "kit.tar"), buf.Bytes(), 0o666)
	paths := []string{filepath.Join(dir, "kit.tar")}
	for _, name := range names {
		paths = append(paths, filepath.Join(dir, name))
	}
	py := pyRead(t, paths...)
	for k, path := range paths {
		want := 5 // the peer's shards
		if k == 0 {
			want = 4 // the kit's
		}
		if got := goRead(t, path); len(got) != want || !equalSamples(py[path], got) {
			t.Errorf("%s (%d samples):\ntarfile: %+v\n    wds: %+v", path, want, py[path], got)
		}
	}
}
