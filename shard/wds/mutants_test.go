package wds

import (
	"archive/tar"
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestKeyExtDotFirst checks KeyExt against webdataset's pattern on names
// whose key would start with a dot before a slash, which the pattern's
// [^.]+ refuses.
func TestKeyExtDotFirst(t *testing.T) {
	for _, name := range []string{".a/.jpg", ".a/b.jpg", "./.x", "..a/.b", "a/.b/.c"} {
		key, ext, ok := KeyExt(name)
		rk, re, rok := reference(name)
		if key != rk || ext != re || ok != rok {
			t.Errorf("KeyExt(%q) = %q, %q, %v; webdataset's pattern gives %q, %q, %v", name, key, ext, ok, rk, re, rok)
		}
	}
}

// TestFieldASCII checks that Field lowers every ASCII letter, from A to Z,
// alone and inside an extension, and leaves the other bytes.
func TestFieldASCII(t *testing.T) {
	for c := byte(0x20); c < 0x7f; c++ {
		for _, ext := range []string{string(c), "x" + string(c) + "y"} {
			if got, want := Field(ext), strings.ToLower(ext); got != want {
				t.Errorf("Field(%q) = %q, want %q", ext, got, want)
			}
		}
	}
}

// TestErrorText checks the text of an Error: the sample's key when it has
// one, nothing of a sample when not.
func TestErrorText(t *testing.T) {
	e := &Error{Shard: "s.tar", Offset: 512, Key: "k1", Msg: "bad"}
	if got, want := e.Error(), `wds: s.tar: offset 512: sample "k1": bad`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	e.Key = ""
	if got, want := e.Error(), "wds: s.tar: offset 512: bad"; got != want {
		t.Errorf("Error() without a key = %q, want %q", got, want)
	}
}

// TestCloseTwice checks that a second Close is an error and writes nothing.
func TestCloseTwice(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	n := b.Len()
	if err := w.Close(); err == nil || b.Len() != n {
		t.Errorf("second Close: %v, %d bytes after %d; want an error and nothing written", err, b.Len(), n)
	}
}

// TestScanBadHeaderAfterExtension checks the offset of a bad header that
// follows an extension header (the PAX header archive/tar writes before a
// name longer than 100 bytes): the error is at the bad block itself, the
// member's own header, not at the extension's start nor a byte off.
func TestScanBadHeaderAfterExtension(t *testing.T) {
	long := strings.Repeat("k", 120) + ".a" // no slash: USTAR's prefix cannot hold it
	b := build(t, entry{name: long, data: "a"}, entry{name: "k2.a", data: "b"})
	own := 1024 // the PAX header and its records' block come first
	if b[156] != 'x' || b[own+156] != '0' {
		t.Fatalf("type flags %q at 0 and %q at %d: want a PAX header, then the member's", b[156], b[own+156], own)
	}
	bad := slices.Clone(b)
	bad[own+100]++ // the mode field: the checksum fails
	_, _, err := scanAll(bad)
	var e *Error
	if !errors.As(err, &e) || e.Offset != int64(own) || !errors.Is(err, tar.ErrHeader) {
		t.Errorf("bad header after a PAX header: %v, want an error at offset %d", err, own)
	}
}

// TestKeepMax checks ScanOptions.Keep's bound: a member of exactly KeepMax
// bytes is kept, one of KeepMax+1 is not (its data nil), and a field Keep
// refuses is not kept.
func TestKeepMax(t *testing.T) {
	b := build(t,
		entry{name: "k1.big", data: strings.Repeat("a", KeepMax)},
		entry{name: "k1.more", data: strings.Repeat("b", KeepMax+1)},
		entry{name: "k1.no", data: "c"})
	s := NewScanner(bytes.NewReader(b), "test.tar", ScanOptions{Keep: func(f string) bool { return f != "no" }})
	if !s.Next() {
		t.Fatalf("no sample: %v", s.Err())
	}
	for _, m := range s.Sample().Members {
		if kept, want := m.Data != nil, m.Field == "big"; kept != want || kept && int64(len(m.Data)) != m.Size {
			t.Errorf("member %s of %d bytes: %d bytes kept, want kept %v", m.Name, m.Size, len(m.Data), want)
		}
	}
}
