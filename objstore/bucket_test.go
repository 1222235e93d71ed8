package objstore_test

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/obskit/obskit/objstore"
	"github.com/obskit/obskit/objstore/s3test"
	"github.com/obskit/obskit/shard"
)

// TestMain runs the tests with one S3 server for them all, or, started by
// TestRanks as a rank, that rank.
func TestMain(m *testing.M) {
	rankChild()
	os.Exit(s3test.Main(m))
}

// put stores data under name in s, failing the test otherwise.
func put(t testing.TB, s shard.Store, name string, data []byte) {
	t.Helper()
	w, err := s.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
}

func randomBytes(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// TestBucketReadAt writes objects of 0, 1, 1000 and 40,000,017 bytes (the
// last one a multipart upload of three 16 MiB parts) and reads them back by
// ranges: every range of the small ones, random ranges of the large one,
// reads that cross the end (io.EOF with the bytes there) and past it, and
// whole (WriteTo, one GET).
func TestBucketReadAt(t *testing.T) {
	b := s3test.Bucket(t)
	objstore.SetPutMax(b, 16<<20)
	sizes := []int{0, 1, 1000, 40_000_017}
	for i, n := range sizes {
		data := randomBytes(uint64(i), n)
		name := "o/" + string(rune('a'+i))
		put(t, b, name, data)
		o, err := b.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		if o.Size() != int64(n) {
			t.Fatalf("%s: Size() = %d, want %d", name, o.Size(), n)
		}
		check := func(off int64, length int) {
			t.Helper()
			p := make([]byte, length)
			got, err := o.ReadAt(p, off)
			want := 0
			if off < int64(n) {
				want = min(length, n-int(off))
			}
			switch {
			case got != want:
				t.Fatalf("%s: ReadAt(%d bytes, %d) read %d, want %d (err %v)", name, length, off, got, want, err)
			case want < length && err != io.EOF:
				t.Fatalf("%s: ReadAt(%d bytes, %d) = %v, want io.EOF", name, length, off, err)
			case want == length && err != nil:
				t.Fatalf("%s: ReadAt(%d bytes, %d): %v", name, length, off, err)
			case got > 0 && !bytes.Equal(p[:got], data[off:off+int64(got)]):
				t.Fatalf("%s: ReadAt(%d bytes, %d): wrong bytes", name, length, off)
			}
		}
		if n <= 1000 {
			for off := 0; off <= n; off += max(1, n/7) {
				for _, l := range []int{0, 1, 13, n - off, n - off + 5} {
					if l >= 0 {
						check(int64(off), l)
					}
				}
			}
		} else {
			r := rand.New(rand.NewPCG(9, 9))
			for range 20 {
				off := r.Int64N(int64(n))
				check(off, r.IntN(3<<20))
			}
			check(int64(n-10), 100)
			var whole bytes.Buffer
			m, err := o.(io.WriterTo).WriteTo(&whole)
			if err != nil || m != int64(n) || !bytes.Equal(whole.Bytes(), data) {
				t.Fatalf("%s: WriteTo wrote %d bytes (err %v), equal %v", name, m, err, bytes.Equal(whole.Bytes(), data))
			}
		}
		check(int64(n+3), 4)
		o.Close()
		if _, err := o.ReadAt(make([]byte, 1), 0); !errors.Is(err, fs.ErrClosed) {
			t.Fatalf("%s: ReadAt after Close = %v, want fs.ErrClosed", name, err)
		}
	}
}

// TestBucketList lists a prefix of 2,345 objects (three pages of
// ListObjectsV2) and sub-prefixes, in byte order.
func TestBucketList(t *testing.T) {
	b := s3test.Bucket(t)
	var want []string
	var wg sync.WaitGroup
	names := make(chan string)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name := range names {
				put(t, b, name, []byte(name))
			}
		}()
	}
	for i := range 2345 {
		name := "set/s" + strings.Repeat("x", i%3) + "-" + string(rune('a'+i%26)) + "/" + strconv.Itoa(i)
		want = append(want, name)
		names <- name
	}
	names <- "other"
	close(names)
	wg.Wait()
	slices.Sort(want)
	var got []string
	for name, err := range b.List("set/") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, name)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("List(set/) gave %d names, want %d (first %q, want %q)", len(got), len(want), first(got), first(want))
	}
	got = got[:0]
	for name, err := range b.List("set/sx-") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, name)
	}
	var sub []string
	for _, n := range want {
		if strings.HasPrefix(n, "set/sx-") {
			sub = append(sub, n)
		}
	}
	if !slices.Equal(got, sub) {
		t.Fatalf("List(set/sx-) gave %d names, want %d", len(got), len(sub))
	}
	// Breaking out stops the listing.
	k := 0
	for range b.List("") {
		k++
		if k == 3 {
			break
		}
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// TestBucketErrors: a missing object is fs.ErrNotExist naming it; invalid
// names are fs.ErrInvalid; an object replaced after Open fails the next
// read with ErrChanged rather than mixing versions; a writer closed without
// Commit, and one whose multipart upload was started, leave nothing; Clean
// aborts an upload a dead writer left.
func TestBucketErrors(t *testing.T) {
	b := s3test.Bucket(t)
	objstore.SetPutMax(b, 16<<20)
	_, err := b.Open("nope/x.tar")
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), b.URL("nope/x.tar")) {
		t.Fatalf("Open of a missing object = %v, want fs.ErrNotExist naming %s", err, b.URL("nope/x.tar"))
	}
	for _, name := range []string{"", "/a", "a/", "a//b", "../a", "."} {
		if _, err := b.Open(name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Open(%q) = %v, want fs.ErrInvalid", name, err)
		}
		if _, err := b.Create(name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Create(%q) = %v, want fs.ErrInvalid", name, err)
		}
	}

	put(t, b, "v", []byte("version one"))
	o, err := b.Open("v")
	if err != nil {
		t.Fatal(err)
	}
	put(t, b, "v", []byte("version two"))
	if _, err := o.ReadAt(make([]byte, 4), 0); !errors.Is(err, objstore.ErrChanged) {
		t.Fatalf("ReadAt after the object was replaced = %v, want ErrChanged", err)
	}

	// Not committed: nothing visible, small or multipart.
	for _, n := range []int{10, 17 << 20} {
		w, err := b.Create("uncommitted")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(make([]byte, n)); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Open("uncommitted"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%d bytes written, not committed: Open = %v, want fs.ErrNotExist", n, err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Open("uncommitted"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%d bytes written, closed: Open = %v, want fs.ErrNotExist", n, err)
		}
		if err := w.Commit(); err == nil {
			t.Fatal("Commit after Close succeeded")
		}
	}

	// A writer that dies after sending a part leaves an upload; Clean
	// aborts it.
	w, err := b.Create("dead/w")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(make([]byte, 17<<20)); err != nil {
		t.Fatal(err)
	}
	if n := uploads(t, b, "dead/"); n != 1 {
		t.Fatalf("%d unfinished uploads under dead/, want 1", n)
	}
	if err := b.Clean("dead/"); err != nil {
		t.Fatal(err)
	}
	if n := uploads(t, b, "dead/"); n != 0 {
		t.Fatalf("%d unfinished uploads under dead/ after Clean, want 0", n)
	}
}

// uploads counts the unfinished multipart uploads under prefix.
func uploads(t *testing.T, b *objstore.Bucket, prefix string) int {
	t.Helper()
	n, err := objstore.Uploads(b, prefix)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestBucketPutMax writes objects in 1 MiB writes and counts the requests:
// up to 64 MiB an object is one PUT at Commit and no multipart upload (an
// object of 40,000,017 bytes, a manifest of about 140,000 shards, with the
// default); one byte beyond the largest PUT (set to 20 MiB here) it is a
// multipart upload whose 16 MiB parts are sent as they fill (one at 20 MiB
// and a byte, three of 49 MiB) and the rest at Commit. Each reads back as
// written.
func TestBucketPutMax(t *testing.T) {
	for _, tc := range []struct {
		putMax, n         int
		putsBefore, puts  int64
		uploadsBeforeDone int
	}{
		{0, 40_000_017, 0, 1, 0},
		{20 << 20, 20 << 20, 0, 1, 0},
		{20 << 20, 20<<20 + 1, 1, 2, 1},
		{20 << 20, 49 << 20, 3, 4, 1},
	} {
		t.Run(strconv.Itoa(tc.putMax)+"/"+strconv.Itoa(tc.n), func(t *testing.T) {
			b := s3test.Bucket(t)
			if tc.putMax > 0 {
				objstore.SetPutMax(b, tc.putMax)
			}
			data := randomBytes(uint64(tc.n), tc.n)
			w, err := b.Create("m/manifest.json")
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			for off := 0; off < tc.n; off += 1 << 20 {
				if _, err := w.Write(data[off:min(tc.n, off+1<<20)]); err != nil {
					t.Fatal(err)
				}
			}
			if got := b.Stats().Puts.Load(); got != tc.putsBefore {
				t.Errorf("%d bytes written: %d PUTs before Commit, want %d", tc.n, got, tc.putsBefore)
			}
			if got := uploads(t, b, "m/"); got != tc.uploadsBeforeDone {
				t.Errorf("%d bytes written: %d multipart uploads before Commit, want %d", tc.n, got, tc.uploadsBeforeDone)
			}
			if err := w.Commit(); err != nil {
				t.Fatal(err)
			}
			if got := b.Stats().Puts.Load(); got != tc.puts {
				t.Errorf("%d bytes committed: %d PUTs, want %d", tc.n, got, tc.puts)
			}
			if got := b.Stats().BytesWritten.Load(); got != int64(tc.n) {
				t.Errorf("%d bytes committed: %d bytes sent", tc.n, got)
			}
			o, err := b.Open("m/manifest.json")
			if err != nil {
				t.Fatal(err)
			}
			defer o.Close()
			var got bytes.Buffer
			if _, err := o.(io.WriterTo).WriteTo(&got); err != nil || !bytes.Equal(got.Bytes(), data) {
				t.Fatalf("read back %d bytes (err %v), want the %d written", got.Len(), err, tc.n)
			}
		})
	}
}
