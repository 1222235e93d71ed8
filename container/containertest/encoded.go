package containertest

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/obskit/obskit/container"
)

// checkEncoded checks an Encoded container: AppendObs appends GetObs's bytes
// after what dst holds, into a reused buffer too, without aliasing the
// container; AppendObs and Where panic with an *IndexError out of range; and
// concurrent readers agree.
func checkEncoded(t *testing.T, c container.Encoded, visit []int) {
	t.Helper()
	n := c.Nobs()
	prefix := []byte("prefix:")
	var buf []byte
	for _, i := range visit {
		want := c.GetObs(i)
		got, err := c.AppendObs(nil, i)
		if err != nil {
			t.Fatalf("AppendObs(nil, %d): %v, where GetObs returned %d bytes", i, err, len(want))
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("AppendObs(nil, %d) = %q, GetObs(%d) = %q", i, clip(got), i, clip(want))
		}
		// The bytes are the caller's: writing them leaves the container as
		// it was.
		for k := range got {
			got[k] ^= 0xFF
		}
		if again := c.GetObs(i); !bytes.Equal(again, want) {
			t.Fatalf("writing the bytes AppendObs(nil, %d) returned changed observation %d: the bytes alias the container", i, i)
		}
		// After existing bytes, in a slice with room to spare whose spare
		// bytes hold garbage: they are overwritten, the prefix is kept.
		dst := append(make([]byte, 0, len(prefix)+len(want)+8), prefix...)
		copy(dst[len(dst):cap(dst)], bytes.Repeat([]byte{0xAA}, cap(dst)-len(dst)))
		got, err = c.AppendObs(dst, i)
		if err != nil {
			t.Fatalf("AppendObs(%q, %d): %v", prefix, i, err)
		}
		if !bytes.Equal(got[:len(prefix)], prefix) || !bytes.Equal(got[len(prefix):], want) {
			t.Fatalf("AppendObs(%q, %d) = %q, want the prefix then %q", prefix, i, clip(got), clip(want))
		}
		// One buffer through every observation, as a decoder reuses it.
		buf, err = c.AppendObs(buf[:0], i)
		if err != nil || !bytes.Equal(buf, want) {
			t.Fatalf("AppendObs(reused buffer, %d) = %q, %v, want %q", i, clip(buf), err, clip(want))
		}
		c.Where(i) // may be "" (a view of a container that cannot say), must not panic
	}
	for _, i := range []int{-1, n, n + 5} {
		wantPanic(t, fmt.Sprintf("AppendObs(nil, %d)", i), i, n, func() { _, _ = c.AppendObs(nil, i) })
		wantPanic(t, fmt.Sprintf("AppendObs(prefix, %d)", i), i, n, func() { _, _ = c.AppendObs(prefix, i) })
		wantPanic(t, fmt.Sprintf("Where(%d)", i), i, n, func() { c.Where(i) })
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for g := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for range 2 {
				for _, i := range visit {
					var err error
					if buf, err = c.AppendObs(buf[:0], i); err != nil {
						errs[g] = fmt.Errorf("AppendObs(_, %d): %w", i, err)
						return
					}
					if !bytes.Equal(buf, c.GetObs(i)) {
						errs[g] = fmt.Errorf("AppendObs(_, %d) from 4 goroutines at once differs from GetObs", i)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

// clip shortens b for a message.
func clip(b []byte) []byte {
	if len(b) > 48 {
		return append(b[:48:48], "..."...)
	}
	return b
}

var _ container.Encoded = (*Blobs)(nil)

// Blobs is a container.Encoded of byte strings that counts how it is read,
// from any number of goroutines: the tests of every wrapper use it to show
// that the wrapper reads its source's AppendObs (and none of its GetObs) when
// asked for bytes. Observation i is "blob i" followed by i bytes of value i;
// Where(i) is "blob i".
type Blobs struct {
	N                int
	appends, singles atomic.Int64
}

// NewBlobs returns a Blobs container of n observations.
func NewBlobs(n int) *Blobs { return &Blobs{N: n} }

// Nobs returns N.
func (b *Blobs) Nobs() int { return b.N }

// GetObs counts the call and returns observation i in new memory.
func (b *Blobs) GetObs(i int) []byte {
	container.CheckIndex("containertest.Blobs.GetObs", i, b.N)
	b.singles.Add(1)
	return b.Want(nil, i)
}

// GetObsInto reads the observations at idx into dst, one []byte each,
// reusing their memory.
func (b *Blobs) GetObsInto(dst [][]byte, idx []int) [][]byte {
	container.CheckIndices("containertest.Blobs.GetObsInto", idx, b.N)
	dst = container.Resize(dst, len(idx))
	for j, i := range idx {
		dst[j] = b.Want(dst[j][:0], i)
	}
	return dst
}

// AppendObs counts the call and appends observation i to dst.
func (b *Blobs) AppendObs(dst []byte, i int) ([]byte, error) {
	container.CheckIndex("containertest.Blobs.AppendObs", i, b.N)
	b.appends.Add(1)
	return b.Want(dst, i), nil
}

// Where returns "blob i".
func (b *Blobs) Where(i int) string {
	container.CheckIndex("containertest.Blobs.Where", i, b.N)
	return "blob " + strconv.Itoa(i)
}

// Want appends observation i to dst without counting: the reference a test
// compares a wrapper's bytes with.
func (b *Blobs) Want(dst []byte, i int) []byte {
	dst = strconv.AppendInt(append(dst, "blob "...), int64(i), 10)
	for range i {
		dst = append(dst, byte(i))
	}
	return dst
}

// Appends returns the number of AppendObs calls since the last Reset.
func (b *Blobs) Appends() int { return int(b.appends.Load()) }

// Singles returns the number of GetObs calls since the last Reset.
func (b *Blobs) Singles() int { return int(b.singles.Load()) }

// Reset sets both counts to zero.
func (b *Blobs) Reset() { b.appends.Store(0); b.singles.Store(0) }

// CheckPassesEncoded checks that w, a wrapper whose observation k is
// observation src(k) of the Blobs b, passes the Encoded ability on: w is a
// container.Encoded, container.AppendObs(w, _, k) reads b's AppendObs once
// and none of its GetObs and gives the bytes of observation src(k), and
// Where(k) is b's Where(src(k)).
func CheckPassesEncoded(t *testing.T, w container.Container[[]byte], b *Blobs, src func(k int) int) {
	t.Helper()
	if _, ok := w.(container.Encoded); !ok {
		t.Fatalf("%T is not a container.Encoded: it does not pass the ability of its source on", w)
	}
	var buf []byte
	for k := range w.Nobs() {
		b.Reset()
		var err error
		buf, err = container.AppendObs(w, buf[:0], k)
		if err != nil {
			t.Fatalf("AppendObs(_, %d): %v", k, err)
		}
		if b.Appends() != 1 || b.Singles() != 0 {
			t.Fatalf("AppendObs(_, %d) of %T made %d AppendObs and %d GetObs calls of its source, want 1 and 0", k, w, b.Appends(), b.Singles())
		}
		if want := b.Want(nil, src(k)); !bytes.Equal(buf, want) {
			t.Fatalf("AppendObs(_, %d) of %T = %q, want observation %d of the source, %q", k, w, clip(buf), src(k), clip(want))
		}
		if got, want := container.Where(w, k), b.Where(src(k)); got != want {
			t.Fatalf("Where(%d) of %T = %q, want %q", k, w, got, want)
		}
	}
}
