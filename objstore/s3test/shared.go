// Package s3test runs a real S3-compatible object store for tests:
// SeaweedFS's weed mini (Apache-2.0, pure Go), built once per version from
// the Go module proxy into a cache directory outside the repository
// ([Build]; `make weed`, part of `make test`), started on 127.0.0.1 with a
// temporary data directory and every port it opens chosen free ([Start]),
// and stopped at the end.
//
// A test package shares one server among its tests:
//
//	func TestMain(m *testing.M) { os.Exit(s3test.Main(m)) }
//
//	func TestX(t *testing.T) {
//		b := s3test.Bucket(t) // a prefix of the shared bucket for this test alone
//		...
//	}
//
// The server starts at the first test that asks for it, so a run of tests
// that need none starts none. Without the binary those tests skip, saying
// how to build it; with OBSKIT_REQUIRE_S3 set (as make test sets it) they
// fail instead. A test that kills or restarts a server ([Server.Kill],
// [Server.Restart]) starts one of its own with [Start].
package s3test

import (
	"fmt"
	"os"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/obskit/obskit/objstore"
)

// SharedBucket is the bucket of the shared server.
const SharedBucket = "obskit-test"

var shared struct {
	once sync.Once
	srv  *Server
	err  error
}

// Main runs a test package's tests (m.Run) and stops the shared server if
// one was started; it returns m.Run's exit code.
func Main(m *testing.M) int {
	code := m.Run()
	if shared.srv != nil {
		if err := shared.srv.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			if code == 0 {
				code = 1
			}
		}
	}
	return code
}

// Shared returns the package's shared server, started at the first call. A
// server that cannot start skips the test, or fails it when the environment
// variable OBSKIT_REQUIRE_S3 is set.
func Shared(tb testing.TB) *Server {
	tb.Helper()
	shared.once.Do(func() { shared.srv, shared.err = Start(SharedBucket) })
	if shared.err != nil {
		Unavailable(tb, shared.err)
	}
	return shared.srv
}

// Unavailable skips the test with err's message, or fails it when
// OBSKIT_REQUIRE_S3 is set: the way a test that needs the server reports
// that it cannot have one.
func Unavailable(tb testing.TB, err error) {
	tb.Helper()
	if os.Getenv("OBSKIT_REQUIRE_S3") != "" {
		tb.Fatalf("OBSKIT_REQUIRE_S3 is set and the S3 server is unavailable: %v", err)
	}
	tb.Skipf("no S3 server: %v", err)
}

var prefixes atomic.Int64

var unsafe = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// Prefix returns a key prefix of the shared bucket that no other test of
// the run uses: the test's name and a counter.
func Prefix(tb testing.TB) string {
	return fmt.Sprintf("%s-%d", unsafe.ReplaceAllString(tb.Name(), "_"), prefixes.Add(1))
}

// Bucket returns a fresh prefix ([Prefix]) of the shared server's bucket as
// a store, reached with the server's [Server.Config].
func Bucket(tb testing.TB) *objstore.Bucket {
	tb.Helper()
	return Shared(tb).NewBucket(tb, Prefix(tb))
}

// NewBucket returns prefix of the server's bucket as a store, with a client
// of its own.
func (s *Server) NewBucket(tb testing.TB, prefix string) *objstore.Bucket {
	tb.Helper()
	c, err := objstore.New(s.Config())
	if err != nil {
		tb.Fatal(err)
	}
	return c.Bucket(s.Bucket, prefix)
}
