package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/obskit/obskit/objstore"
	"github.com/obskit/obskit/objstore/s3test"
)

// TestMain runs the tests with one S3 server (SeaweedFS) shared by the
// tests of s3:// paths, started by the first of them.
func TestMain(m *testing.M) { os.Exit(s3test.Main(m)) }

// s3Env points the command at the shared S3 server (the variables
// objstore.EnvConfig reads) and returns an s3:// URL of a prefix of its
// bucket that no other test uses.
func s3Env(t *testing.T) string {
	t.Helper()
	srv := s3test.Shared(t)
	for _, kv := range srv.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	return "s3://" + srv.Bucket + "/" + s3test.Prefix(t)
}

// TestShardS3: obskit shard put uploads a set written locally to an
// s3:// prefix (shards, then the manifest); ls of the s3:// manifest and of
// an s3:// shard print the lines ls prints locally; verify passes, and
// fails naming the shard after a shard was replaced by a damaged copy; a
// missing object, a bad URL and a missing key are errors naming them.
func TestShardS3(t *testing.T) {
	dest := s3Env(t)
	root, _ := folder(t, 6)
	local := filepath.Join(t.TempDir(), "set")
	if status, _, stderr := run("shard", "write", root, "-o", filepath.Join(local, "m.json"), "-size", "1K", "-prefix", "p/s"); status != 0 {
		t.Fatalf("shard write: %s", stderr)
	}
	status, stdout, stderr := run("shard", "put", filepath.Join(local, "m.json"), dest)
	if status != 0 {
		t.Fatalf("shard put: status %d: %s", status, stderr)
	}
	var sum manifestSummary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || sum.Manifest != dest+"/m.json" || sum.Samples != 12 || sum.Shards < 3 {
		t.Fatalf("shard put printed %q (%v)", stdout, err)
	}
	want := lsLines(t, filepath.Join(local, "m.json"))
	if got := lsLines(t, dest+"/m.json"); !equalLs(got, want) {
		t.Fatalf("shard ls of the s3:// manifest lists %d samples unlike the local one's %d", len(got), len(want))
	}
	shards, _ := filepath.Glob(filepath.Join(local, "p", "s-*.tar"))
	if len(shards) < 3 {
		t.Fatalf("%d shards written", len(shards))
	}
	first := filepath.Base(shards[0])
	if got, want := lsLines(t, dest+"/p/"+first), lsLines(t, shards[0]); !equalLs(got, want) {
		t.Fatalf("shard ls of an s3:// shard differs from the local shard's")
	}
	if status, stdout, stderr := run("shard", "verify", dest+"/m.json"); status != 0 || !strings.Contains(stdout, `"failed":0`) {
		t.Fatalf("shard verify of the s3:// set: status %d: %s %s", status, stdout, stderr)
	}

	// A damaged copy of a shard replaces it: verify names it.
	b, err := os.ReadFile(shards[0])
	if err != nil {
		t.Fatal(err)
	}
	b[700] ^= 1
	damaged := filepath.Join(t.TempDir(), "d")
	os.MkdirAll(filepath.Join(damaged, "p"), 0o777)
	os.WriteFile(filepath.Join(damaged, "p", first), b, 0o666)
	srcM, _ := os.ReadFile(filepath.Join(local, "m.json"))
	os.WriteFile(filepath.Join(damaged, "m.json"), srcM, 0o666)
	// put refuses it (its SHA-256 is not the manifest's), uploading nothing.
	if status, _, stderr := run("shard", "put", filepath.Join(damaged, "m.json"), dest+"/other"); status != 1 || !strings.Contains(stderr, first) || !strings.Contains(stderr, "manifest was not uploaded") {
		t.Fatalf("shard put of a damaged set: status %d: %s", status, stderr)
	}
	if status, _, stderr := run("shard", "ls", dest+"/other/m.json"); status != 1 || !strings.Contains(stderr, dest+"/other/m.json") && !strings.Contains(stderr, "no such object") {
		t.Fatalf("ls of the manifest put refused to write: status %d: %s", status, stderr)
	}
	// The damaged bytes in the bucket: verify names the shard.
	bucket, err := objstore.OpenURL(dest)
	if err != nil {
		t.Fatal(err)
	}
	w, err := bucket.Create("p/" + first)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr = run("shard", "verify", dest+"/m.json")
	if status != 1 || !strings.Contains(stdout, first) || !strings.Contains(stdout, `"failed":1`) {
		t.Fatalf("shard verify with a damaged shard: status %d: %s %s", status, stdout, stderr)
	}

	for _, c := range []struct{ url, want string }{
		{dest + "/nope.json", "no such object"},
		{"s3://Bad_Bucket/x/m.json", "bucket"},
		{"s3://", "not an s3://bucket/prefix/name URL"},
	} {
		if status, _, stderr := run("shard", "ls", c.url); status != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("shard ls %s: status %d: %s; want 1 and %q", c.url, status, stderr, c.want)
		}
	}
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	os.Unsetenv("AWS_SECRET_ACCESS_KEY")
	if status, _, stderr := run("shard", "ls", dest+"/m.json"); status != 1 || !strings.Contains(stderr, "AWS_SECRET_ACCESS_KEY") {
		t.Errorf("shard ls without a secret key: status %d: %s", status, stderr)
	}
}
