package wds

import (
	"archive/tar"
	"bytes"
	"errors"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/obskit/obskit/internal/filetest"
)

// FuzzScanner: any bytes scan without a panic, and either end in an *Error
// wrapping ErrFormat or give samples whose members lie in the stream, in
// order, each sample's fields distinct.
func FuzzScanner(f *testing.F) {
	f.Add(build(f, entry{name: "a.jpg", data: "1"}, entry{name: "a.cls", data: "2"}, entry{name: "b.jpg", data: "3"}))
	f.Add(build(f, entry{name: strings.Repeat("x", 200) + ".jpg", data: "1", fmt: tar.FormatGNU}, entry{name: strings.Repeat("y", 200) + ".jpg", data: "2", fmt: tar.FormatPAX}))
	f.Add(gz(build(f, entry{name: "a.jpg", data: "1"})))
	f.Add([]byte("BZh91AY&SY"))
	f.Fuzz(func(t *testing.T, b []byte) {
		// No Data: a compressed input may expand a thousandfold.
		s := NewScanner(bytes.NewReader(b), "fuzz.tar", ScanOptions{SHA256: true, Keep: func(string) bool { return true }})
		last := int64(-1)
		for s.Next() {
			smp := s.Sample()
			if len(smp.Members) == 0 {
				t.Fatal("a sample without members")
			}
			seen := map[string]bool{}
			for _, m := range smp.Members {
				if m.Header <= last || m.Offset < m.Header+512 || m.Size <= KeepMax && m.Size != int64(len(m.Data)) || m.Offset+m.Size > s.Offset() {
					t.Fatalf("member %+v after offset %d, read %d bytes", m, last, s.Offset())
				}
				if s.Compression() == "" && crc32.Checksum(b[m.Offset:m.Offset+m.Size], CRC) != m.CRC {
					t.Fatalf("member %q: its offset does not hold its data", m.Name)
				}
				if seen[m.Field] {
					t.Fatalf("field %q twice in %q", m.Field, smp.Key)
				}
				seen[m.Field] = true
				last = m.Header
			}
		}
		if err := s.Err(); err != nil {
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrFormat) || e.Shard != "fuzz.tar" {
				t.Fatalf("error %v is not an *Error wrapping ErrFormat", err)
			}
		}
	})
}

// TestScanHugeClaim: a header claiming 8 GiB of data in a shard of 2 KiB
// allocates nothing sized by the claim: the error comes after the bytes
// there are.
func TestScanHugeClaim(t *testing.T) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "big.bin", Size: 8 << 30, Mode: 0o644})
	tw.Write(make([]byte, 1000))
	b := buf.Bytes()
	var err error
	n := filetest.Allocated(func() { _, _, err = scanAll(b) })
	if !errors.Is(err, ErrFormat) || n > 1<<20 {
		t.Errorf("scan: %v, allocated %d bytes", err, n)
	}
}
