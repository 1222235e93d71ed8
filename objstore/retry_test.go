package objstore_test

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/obskit/obskit/objstore"
	"github.com/obskit/obskit/objstore/s3test"
)

// TestRetryCutConnections reads a 24 MB object through a proxy that cuts
// every connection after 1 MB of response: each read completes with the
// right bytes, resumed from where each cut left it (no try is wasted: the
// count of tries restarts with progress), and the retries are counted.
func TestRetryCutConnections(t *testing.T) {
	srv := s3test.Shared(t)
	data := randomBytes(7, 24<<20)
	prefix := s3test.Prefix(t)
	put(t, srv.NewBucket(t, prefix), "big", data)

	p, err := s3test.NewProxy(strings.TrimPrefix(srv.Endpoint, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cfg := srv.Config()
	cfg.Endpoint = p.Endpoint
	cfg.Retry = objstore.Retry{Base: time.Millisecond, Max: 5 * time.Millisecond}
	c, err := objstore.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b := c.Bucket(srv.Bucket, prefix)
	o, err := b.Open("big")
	if err != nil {
		t.Fatal(err)
	}
	p.CutAfter(1 << 20)
	var whole bytes.Buffer
	_, err = o.(io.WriterTo).WriteTo(&whole)
	got := make([]byte, 5<<20)
	_, err2 := o.ReadAt(got, 3<<20)
	if err != nil || err2 != nil {
		t.Fatalf("reads through a cutting proxy failed: %v, %v", err, err2)
	}
	if !bytes.Equal(whole.Bytes(), data) || !bytes.Equal(got, data[3<<20:8<<20]) {
		t.Fatal("reads through a cutting proxy gave wrong bytes")
	}
	// 29 MB in cuts of 1 MB less headers: at least 29 responses cut.
	if r := b.Stats().Retries.Load(); r < 29 {
		t.Fatalf("%d retries, want at least 29: the proxy did not cut as the test expects", r)
	}
	t.Logf("%d GETs, %d retries", b.Stats().Gets.Load(), b.Stats().Retries.Load())
}

// TestRetryServerRestart kills the server under an open object and
// restarts it 1.5 s later: a read during the outage waits and succeeds. With
// the server down for good, a read fails after its tries, naming the object.
func TestRetryServerRestart(t *testing.T) {
	srv, err := s3test.Start("restart")
	if err != nil {
		s3test.Unavailable(t, err)
	}
	defer srv.Stop()
	b := srv.NewBucket(t, "p")
	data := randomBytes(3, 100_000)
	put(t, b, "x", data)
	o, err := b.Open("x")
	if err != nil {
		t.Fatal(err)
	}
	srv.Kill()
	restarted := make(chan error, 1)
	go func() {
		time.Sleep(1500 * time.Millisecond)
		restarted <- srv.Restart()
	}()
	got := make([]byte, 1000)
	if _, err := o.ReadAt(got, 5000); err != nil {
		t.Fatalf("read across a restart: %v", err)
	}
	if err := <-restarted; err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data[5000:6000]) {
		t.Fatal("read across a restart gave wrong bytes")
	}

	srv.Kill()
	cfg := srv.Config()
	cfg.Retry = objstore.Retry{Attempts: 3, Base: time.Millisecond}
	c, err := objstore.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Bucket(srv.Bucket, "p").Open("x")
	if err == nil || !strings.Contains(err.Error(), "s3://restart/p/x") || !strings.Contains(err.Error(), "after 3 tries") || errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Open with the server down = %v, want an error naming s3://restart/p/x after 3 tries", err)
	}
}
