package objstore_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/obskit/obskit/objstore/s3test"
	"github.com/obskit/obskit/shard"
)

// python is Debian's interpreter, which python3-boto3 installs into.
const python = "/usr/bin/python3"

// boto3 runs testdata/boto3_peer.py with the requests and returns its
// answers, one per request. It skips the test when python3-boto3 is not
// installed (fails when OBSKIT_REQUIRE_BOTO3 is set, as make test sets it
// once the Debian packages are in place).
func boto3(t *testing.T, srv *s3test.Server, reqs ...map[string]any) []map[string]any {
	t.Helper()
	if err := exec.Command(python, "-c", "import boto3").Run(); err != nil {
		if os.Getenv("OBSKIT_REQUIRE_BOTO3") != "" {
			t.Fatalf("OBSKIT_REQUIRE_BOTO3 is set and %s cannot import boto3: %v", python, err)
		}
		t.Skipf("%s cannot import boto3 (apt-get install python3-boto3; make test installs it): %v", python, err)
	}
	arg, _ := json.Marshal(reqs)
	cmd := exec.Command(python, "testdata/boto3_peer.py", string(arg))
	cmd.Env = append(os.Environ(), srv.Env()...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("boto3_peer.py: %v: %s", err, stderr.Bytes())
	}
	var answers []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var a map[string]any
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("boto3_peer.py answered %q: %v", sc.Text(), err)
		}
		answers = append(answers, a)
	}
	if len(answers) != len(reqs) {
		t.Fatalf("boto3_peer.py answered %d requests of %d: %s", len(answers), len(reqs), stderr.Bytes())
	}
	return answers
}

func hexSHA(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestBoto3Interop runs Debian's python3-boto3 against the same server as
// the kit: objects boto3 uploads (one of 20 MB, which boto3 sends as a
// multipart upload) are listed and read by the kit, whole and by ranges;
// objects the kit writes (a 20 MB multipart one, a shard set) are listed by
// boto3 with the same names and sizes and read by it with the same
// SHA-256, whole and by ranges; a shard set boto3 uploads from the files
// the kit packed locally is opened from the bucket by the kit, every sample
// as packed.
func TestBoto3Interop(t *testing.T) {
	srv := s3test.Shared(t)
	prefix := s3test.Prefix(t)
	b := srv.NewBucket(t, prefix)
	dir := t.TempDir()

	// boto3 writes, the kit reads.
	small, big := randomBytes(11, 3000), randomBytes(12, 20<<20)
	os.WriteFile(filepath.Join(dir, "small"), small, 0o644)
	os.WriteFile(filepath.Join(dir, "big"), big, 0o644)
	boto3(t, srv,
		map[string]any{"op": "put", "bucket": srv.Bucket, "key": prefix + "/py/small", "file": filepath.Join(dir, "small")},
		map[string]any{"op": "put", "bucket": srv.Bucket, "key": prefix + "/py/big", "file": filepath.Join(dir, "big")})
	var names []string
	for name, err := range b.List("py/") {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	if !slices.Equal(names, []string{"py/big", "py/small"}) {
		t.Fatalf("the kit lists %v under py/, want boto3's py/big and py/small", names)
	}
	for name, want := range map[string][]byte{"py/small": small, "py/big": big} {
		o, err := b.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := readAll(t, o); !bytes.Equal(got, want) {
			t.Fatalf("the kit reads %s, uploaded by boto3, with other bytes", name)
		}
		p := make([]byte, 100)
		if _, err := o.ReadAt(p, int64(len(want)-150)); err != nil || !bytes.Equal(p, want[len(want)-150:len(want)-50]) {
			t.Fatalf("the kit's ranged read of %s: %v", name, err)
		}
		o.Close()
	}

	// The kit writes, boto3 reads.
	put(t, b, "go/big", big)
	m := packSet(t, b, 500, 30_000)
	var kitNames []string
	var kitSizes []float64
	for name, err := range b.List("") {
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(name, "py/") {
			continue
		}
		o, err := b.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		kitNames = append(kitNames, prefix+"/"+name)
		kitSizes = append(kitSizes, float64(o.Size()))
		o.Close()
	}
	reqs := []map[string]any{{"op": "list", "bucket": srv.Bucket, "prefix": prefix + "/go/"}, {"op": "list", "bucket": srv.Bucket, "prefix": prefix + "/set/"},
		{"op": "get", "bucket": srv.Bucket, "key": prefix + "/go/big"},
		{"op": "get", "bucket": srv.Bucket, "key": prefix + "/go/big", "range": []int{17 << 20, 17<<20 + 999}}}
	for _, sh := range m.Shards {
		reqs = append(reqs, map[string]any{"op": "get", "bucket": srv.Bucket, "key": prefix + "/set/" + sh.Files[0].Name})
	}
	ans := boto3(t, srv, reqs...)
	var pyNames []string
	var pySizes []float64
	for _, a := range ans[:2] {
		for i, k := range a["keys"].([]any) {
			pyNames = append(pyNames, k.(string))
			pySizes = append(pySizes, a["sizes"].([]any)[i].(float64))
		}
	}
	if !slices.Equal(pyNames, kitNames) || !slices.Equal(pySizes, kitSizes) {
		t.Fatalf("boto3 lists %d objects the kit wrote, the kit %d, or other sizes:\n%v\n%v", len(pyNames), len(kitNames), pyNames, kitNames)
	}
	if ans[2]["sha256"] != hexSHA(big) || ans[3]["sha256"] != hexSHA(big[17<<20:17<<20+1000]) {
		t.Fatalf("boto3 reads the kit's 20 MB object with another SHA-256, whole or by a range")
	}
	for k, sh := range m.Shards {
		if a := ans[4+k]; a["sha256"] != sh.Files[0].SHA256.String() || a["size"] != float64(sh.Files[0].Bytes) {
			t.Fatalf("boto3 reads shard %s with SHA-256 %v, the manifest says %s", sh.Files[0].Name, a["sha256"], sh.Files[0].SHA256)
		}
	}

	// boto3 uploads a set the kit packed locally; the kit opens it from the
	// bucket.
	local := shard.Dir(filepath.Join(dir, "local"))
	lm := packSet(t, local, 300, 25_000)
	var ups []map[string]any
	for _, sh := range lm.Shards {
		for _, f := range append(sh.Files[:len(sh.Files):len(sh.Files)], sh.Index) {
			ups = append(ups, map[string]any{"op": "put", "bucket": srv.Bucket, "key": prefix + "/up/set/" + f.Name, "file": filepath.Join(dir, "local", "set", f.Name)})
		}
	}
	ups = append(ups, map[string]any{"op": "put", "bucket": srv.Bucket, "key": prefix + "/up/set/manifest.json", "file": filepath.Join(dir, "local", "set", "manifest.json")})
	boto3(t, srv, ups...)
	set, err := shard.Open(srv.NewBucket(t, prefix+"/up"), "set/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	if set.Nobs() != 300 {
		t.Fatalf("the set boto3 uploaded has %d samples, want 300", set.Nobs())
	}
	for i := range set.Nobs() {
		got, want := set.GetObs(i), sampleOf(i)
		if got.Key != want.Key || !bytes.Equal(got.Fields[0].Data, want.Fields[0].Data) {
			t.Fatalf("sample %d of the set boto3 uploaded: %s, not as packed", i, got.Key)
		}
	}
}
