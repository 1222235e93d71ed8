package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/obskit/obskit/internal/pypeer"
)

// tarOf returns a tar file of members: a name, its type and its data.
func tarOf(t *testing.T, members ...[3]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, m := range members {
		h := &tar.Header{Name: m[0], Typeflag: m[1][0], Mode: 0o644, Size: int64(len(m[2])), ModTime: time.Unix(1, 0)}
		if h.Typeflag != tar.TypeReg {
			h.Size, h.Linkname = 0, "target"
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			tw.Write([]byte(m[2]))
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// lsExact runs obskit shard ls on path and returns its lines, each checked
// to be exactly {"key": STRING, "fields": {NAME: {"bytes": N, "sha256":
// HEX}, ...}} and nothing more.
func lsExact(t *testing.T, path string) []lsSample {
	t.Helper()
	status, stdout, stderr := run("shard", "ls", path)
	if status != 0 {
		t.Fatalf("shard ls %s: status %d: %s", path, status, stderr)
	}
	var out []lsSample
	for _, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		var top map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &top); err != nil || len(top) != 2 || top["key"] == nil || top["fields"] == nil {
			t.Fatalf("line %q: not an object of key and fields (%v)", line, err)
		}
		var key string
		var fields map[string]map[string]json.RawMessage
		if err := json.Unmarshal(top["key"], &key); err != nil {
			t.Fatalf("line %q: key: %v", line, err)
		}
		if err := json.Unmarshal(top["fields"], &fields); err != nil || len(fields) == 0 {
			t.Fatalf("line %q: fields: %v", line, err)
		}
		s := lsSample{Key: key, Fields: map[string]lsField{}}
		for name, f := range fields {
			var n int64
			var sum string
			if len(f) != 2 || json.Unmarshal(f["bytes"], &n) != nil || json.Unmarshal(f["sha256"], &sum) != nil || n < 0 || !hex64.MatchString(sum) {
				t.Fatalf("line %q: field %q is not {\"bytes\": N, \"sha256\": HEX}", line, name)
			}
			s.Fields[name] = lsField{n, sum}
		}
		out = append(out, s)
	}
	return out
}

// TestShardLsGrouping: obskit shard ls of a tar file that holds what
// webdataset skips or splits prints one line per sample in order, exactly
// {"key", "fields": {NAME: {"bytes", "sha256"}}}, grouped by webdataset's
// rules: regular files only (a directory and a symlink inside a sample do
// not end it), the key up to the first dot of the last element, extensions
// lower-cased, names without a dot in their last element and metadata
// skipped, and only consecutive members sharing a key in one sample. The
// .tar.gz lists the same; with Python, tarfile read as webdataset reads it
// (shard/wds/testdata/tarfile_peer.py) gives the same lines for this shard
// and for the shards tarfile writes (ustar, GNU, PAX, gzip, bzip2).
func TestShardLsGrouping(t *testing.T) {
	const reg, dir, sym = "0", "5", "2"
	jpg := strings.Repeat("j", 2120)
	b := tarOf(t,
		[3]string{"sample/", dir, ""},
		[3]string{"sample/000017.jpg", reg, jpg},
		[3]string{"sample/000017.CLS", reg, "3"},
		[3]string{"sample/link.jpg", sym, ""},
		[3]string{"sample/000017.seg.png", reg, "seg"},
		[3]string{"README", reg, "no dot"},
		[3]string{"v1.2/NOTES", reg, "a dot in the directory only"},
		[3]string{"__meta__", reg, "metadata"},
		[3]string{"sample/000018.Jpg", reg, "x"},
		[3]string{"sample/000017.txt", reg, "again"},
	)
	dirPath := t.TempDir()
	tarPath, gzPath := filepath.Join(dirPath, "g.tar"), filepath.Join(dirPath, "g.tar.gz")
	os.WriteFile(tarPath, b, 0o666)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(b)
	zw.Close()
	os.WriteFile(gzPath, z.Bytes(), 0o666)

	want := []lsSample{
		{"sample/000017", map[string]lsField{"jpg": {2120, hexSum([]byte(jpg))}, "cls": {1, hexSum([]byte("3"))}, "seg.png": {3, hexSum([]byte("seg"))}}},
		{"sample/000018", map[string]lsField{"jpg": {1, hexSum([]byte("x"))}}},
		{"sample/000017", map[string]lsField{"txt": {5, hexSum([]byte("again"))}}},
	}
	for _, p := range []string{tarPath, gzPath} {
		if got := lsExact(t, p); !equalLs(got, want) {
			t.Errorf("shard ls %s:\n got %+v\nwant %+v", p, got, want)
		}
	}

	if err := pypeer.Has("tarfile"); err != nil {
		t.Skipf("no Python with tarfile for the comparison with tarfile: %v", err)
	}
	const peer = "../../shard/wds/testdata/tarfile_peer.py"
	out, err := exec.Command(pypeer.Python(), peer, "write", dirPath).Output()
	if err != nil {
		t.Fatalf("%s write: %v", peer, err)
	}
	paths := []string{tarPath}
	for _, name := range strings.Fields(string(out)) {
		paths = append(paths, filepath.Join(dirPath, name))
	}
	if len(paths) != 6 {
		t.Fatalf("the peer wrote %q", out)
	}
	out, err = exec.Command(pypeer.Python(), append([]string{peer, "read"}, paths...)...).Output()
	if err != nil {
		t.Fatalf("%s read: %v", peer, err)
	}
	py := map[string][]lsSample{}
	var cur string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if p, ok := strings.CutPrefix(line, "== "); ok {
			cur = p
			continue
		}
		var s lsSample
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatal(err)
		}
		py[cur] = append(py[cur], s)
	}
	for _, p := range paths {
		if got := lsExact(t, p); len(got) < 3 || !equalLs(got, py[p]) {
			t.Errorf("%s:\nobskit shard ls %+v\n       tarfile %+v", filepath.Base(p), got, py[p])
		}
	}
}

// TestShardLsBrokenOffsets: a tar shard cut inside a member's data, cut
// inside a header, or with a header whose checksum fails is exit status 1
// with a message naming the shard and the exact offset, after the lines of
// the samples before it; so is a shard of a set listed through its manifest
// cut inside a member, or cut where a tar reader sees the end of the archive
// (the manifest's size and sample count tell).
func TestShardLsBrokenOffsets(t *testing.T) {
	dir := t.TempDir()
	// a.txt: header 0, data 512 (700 bytes); a.cls: header 1536, data 2048;
	// b.txt: header 2560, data 3072; b.cls: header 4096.
	b := tarOf(t,
		[3]string{"a.txt", "0", strings.Repeat("a", 700)}, [3]string{"a.cls", "0", "1"},
		[3]string{"b.txt", "0", strings.Repeat("b", 700)}, [3]string{"b.cls", "0", "2"})
	bad := slices.Clone(b)
	bad[4096+100]++ // b.cls's mode: its header's checksum fails
	for _, tc := range []struct {
		name  string
		data  []byte
		lines int
		want  []string
	}{
		{"member.tar", b[:3500], 1, []string{"member.tar: offset 3500", `sample "b"`, `inside member "b.txt"`}},
		{"header.tar", b[:2600], 1, []string{"header.tar: offset 2560", "inside the header"}},
		{"checksum.tar", bad, 2, []string{"checksum.tar: offset 4096", "bad tar header"}}, // b without its cls
	} {
		p := filepath.Join(dir, tc.name)
		os.WriteFile(p, tc.data, 0o666)
		status, stdout, stderr := run("shard", "ls", p)
		for _, w := range append(tc.want, p) {
			if !strings.Contains(stderr, w) {
				t.Errorf("shard ls %s: stderr %q does not say %q", tc.name, stderr, w)
			}
		}
		if status != 1 || strings.Count(stdout, "\n") != tc.lines {
			t.Errorf("shard ls %s: status %d, %q; want 1 after %d lines", tc.name, status, stdout, tc.lines)
		}
	}

	// A set of one sample a shard whose second shard is cut inside its png
	// (data at 512) and inside the padding after it, which a tar reader
	// takes for the end of the shard: the manifest's size and count tell.
	root, _ := folder(t, 3)
	m := filepath.Join(dir, "set", "m.json")
	if status, _, stderr := run("shard", "write", "-size", "1", "-o", m, root); status != 0 {
		t.Fatalf("shard write: %s", stderr)
	}
	shard1 := filepath.Join(dir, "set", "shard-w00000-000001.tar")
	sb, err := os.ReadFile(shard1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cut   int
		lines int
		want  string
	}{
		{550, 1, `: offset 550: sample "000001": the shard ends inside member "000001.png"`},
		{600, 2, ": offset 600: the shard ends there, after 1 samples; the manifest says"},
	} {
		os.WriteFile(shard1, sb[:tc.cut], 0o666)
		status, stdout, stderr := run("shard", "ls", m)
		if status != 1 || strings.Count(stdout, "\n") != tc.lines || !strings.Contains(stderr, shard1+tc.want) {
			t.Errorf("shard ls of a set with a shard cut at %d: status %d, %q, %q; want 1 after %d lines, naming %s and %q", tc.cut, status, stdout, stderr, tc.lines, shard1, tc.want)
		}
	}
}
