package wds

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// entry is a tar member to build a test archive from.
type entry struct {
	name string
	typ  byte
	data string
	fmt  tar.Format
	pax  map[string]string
}

// build returns a tar archive of the entries, with its end blocks.
func build(t testing.TB, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		hdr := &tar.Header{Typeflag: typ, Name: e.name, Mode: 0o644, Size: int64(len(e.data)), ModTime: time.Unix(1, 0), Format: e.fmt, PAXRecords: e.pax}
		switch typ {
		case tar.TypeDir, tar.TypeSymlink:
			hdr.Size = 0
			hdr.Linkname = "target"
		case tar.TypeXGlobalHeader:
			hdr = &tar.Header{Typeflag: typ, Name: e.name, PAXRecords: e.pax}
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			io.WriteString(tw, e.data)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// scanned is a sample as a test compares it: key and field=data pairs.
type scanned struct {
	key    string
	fields string
}

func scanAll(b []byte) ([]scanned, Skips, error) {
	s := NewScanner(bytes.NewReader(b), "test.tar", ScanOptions{Data: true})
	var out []scanned
	for s.Next() {
		smp := s.Sample()
		var f []string
		for _, m := range smp.Members {
			if s.Compression() == "" && !bytes.Equal(b[m.Offset:m.Offset+m.Size], m.Data) {
				return nil, Skips{}, fmt.Errorf("member %q: offset %d does not hold its data", m.Name, m.Offset)
			}
			f = append(f, m.Field+"="+string(m.Data))
		}
		out = append(out, scanned{smp.Key, strings.Join(f, ",")})
	}
	return out, s.Skips(), s.Err()
}

// TestScanGrouping: webdataset's grouping of a tar file's members, over the
// headers real writers produce (ustar, a ustar name split into its prefix
// and name fields, GNU long names, PAX long names and a PAX global header),
// with members webdataset skips.
func TestScanGrouping(t *testing.T) {
	long := strings.Repeat("d", 120) + "/000003"
	split := strings.Repeat("u", 130) + "/000004" // 130 bytes in ustar's prefix field
	b := build(t,
		entry{name: "x", typ: tar.TypeXGlobalHeader, pax: map[string]string{"comment": "made by a test"}},
		entry{name: "sample/", typ: tar.TypeDir},
		entry{name: "sample/000001.jpg", data: "j1"},
		entry{name: "sample/000001.CLS", data: "1"},
		entry{name: "sample/000001.seg.png", data: "s1"},
		entry{name: "sample/link.jpg", typ: tar.TypeSymlink},
		entry{name: "__meta__", data: "m"},
		entry{name: "__meta__/info.json", data: "{}"},
		entry{name: "README", data: "no extension"},
		entry{name: "sample/000002.jpg", data: "j2"},
		entry{name: long + ".jpg", data: "gnu", fmt: tar.FormatGNU},
		entry{name: long + ".cls", data: "3", fmt: tar.FormatPAX},
		entry{name: split + ".jpg", data: "ustar", fmt: tar.FormatUSTAR},
		entry{name: split + ".Cls", data: "4", fmt: tar.FormatUSTAR},
		entry{name: "sample/000001.txt", data: "again"},
	)
	if i := bytes.Index(b, []byte(strings.Repeat("u", 130)+"\x00")); i < 0 || string(b[i-345:i-345+10]) != "000004.jpg" {
		t.Fatal("the ustar member's name is not split into prefix and name")
	}
	got, skips, err := scanAll(b)
	if err != nil {
		t.Fatal(err)
	}
	want := []scanned{
		{"sample/000001", "jpg=j1,cls=1,seg.png=s1"},
		{"sample/000002", "jpg=j2"},
		{long, "jpg=gnu,cls=3"},
		{split, "jpg=ustar,cls=4"},
		{"sample/000001", "txt=again"}, // not consecutive: a sample of its own, as webdataset makes it
	}
	if !slices.Equal(got, want) {
		t.Errorf("samples:\n got %q\nwant %q", got, want)
	}
	if want := (Skips{NotRegular: 3, Meta: 2, NoKey: 1}); skips != want {
		t.Errorf("skips = %+v, want %+v", skips, want)
	}
}

// TestScanEnds: a shard may end after a member without end blocks, or with
// one, or with zeros to a record; anything else after the end is an error.
func TestScanEnds(t *testing.T) {
	b := build(t, entry{name: "a.x", data: "1"}, entry{name: "b.x", data: strings.Repeat("2", 600)})
	body := len(b) - 1024 // end of b.x's padded data
	want := []scanned{{"a", "x=1"}, {"b", "x=" + strings.Repeat("2", 600)}}
	for name, data := range map[string][]byte{
		"no end blocks":       b[:body],
		"no padding":          b[:body-(1024-600)],
		"part of the padding": b[:body-10],
		"one end block":       b[:body+512],
		"padded to a record":  append(slices.Clone(b), make([]byte, 10240-len(b))...),
		"gzip, no end blocks": gz(b[:body]),
		"gzip, whole":         gz(b),
		"gzip, two members":   append(gz(b[:512+512]), gz(b[1024:])...),
	} {
		got, _, err := scanAll(data)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
	for name, tc := range map[string]struct {
		data []byte
		off  int64
	}{
		"a second archive":   {append(slices.Clone(b), b...), int64(len(b))},
		"a byte after zeros": {append(append(slices.Clone(b), make([]byte, 100)...), 7), int64(len(b) + 100)},
	} {
		_, _, err := scanAll(tc.data)
		var e *Error
		if !errors.As(err, &e) || e.Offset != tc.off || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "after the end-of-archive") {
			t.Errorf("%s: %v, want an error at offset %d", name, err, tc.off)
		}
	}
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// TestScanCut: a shard cut at any byte inside a header or a member's data is
// an error naming the shard and an offset at or before the cut; cut at a
// member boundary, it is the samples before the cut.
func TestScanCut(t *testing.T) {
	b := build(t, entry{name: "k1.a", data: "aaaa"}, entry{name: "k1.b", data: strings.Repeat("b", 700)}, entry{name: "k2.a", data: "c"})
	// Member boundaries: after k1.a (1024), after k1.b (1024+512+1024) and
	// after k2.a.
	bounds := map[int]bool{0: true, 1024: true, 2560: true, 3584: true}
	for cut := 1; cut < len(b)-1024; cut++ {
		// Every cut in the first sample's first member, then the first 20
		// bytes of every block and every 13th byte: each case, at a
		// quarter of the time.
		if cut > 1024 && cut%512 > 20 && cut%13 != 0 {
			continue
		}
		got, _, err := scanAll(b[:cut])
		if bounds[cut] {
			if err != nil {
				t.Fatalf("cut at the boundary %d: %v", cut, err)
			}
			continue
		}
		// Cut inside padding: the data is whole.
		if cut >= 512+4 && cut < 1024 || cut >= 1536+700 && cut < 2560 || cut >= 3072+1 && cut < 3584 {
			if err != nil {
				t.Fatalf("cut at %d, inside padding: %v", cut, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, io.ErrUnexpectedEOF) || e.Offset > int64(cut) || e.Shard != "test.tar" {
			t.Fatalf("cut at %d: %v (samples %q), want an error wrapping io.ErrUnexpectedEOF at an offset <= %d", cut, err, got, cut)
		}
	}
}

// TestScanBadHeader: a header whose checksum fails is an error at its offset,
// wherever it is: webdataset's tarfile ends the archive there quietly.
func TestScanBadHeader(t *testing.T) {
	b := build(t, entry{name: "k1.a", data: "a"}, entry{name: "k2.a", data: "b"}, entry{name: "k3.a", data: "c"})
	for _, off := range []int{0, 1024, 2048} {
		bad := slices.Clone(b)
		bad[off+100]++ // the mode field: the checksum fails
		_, _, err := scanAll(bad)
		var e *Error
		if !errors.As(err, &e) || e.Offset != int64(off) || !errors.Is(err, tar.ErrHeader) {
			t.Errorf("bad header at %d: %v, want an error at offset %d", off, err, off)
		}
	}
}

// TestScanDuplicate: a field twice in a sample is an error naming the key and
// both members; upper and lower case are one field, as webdataset lowers them.
func TestScanDuplicate(t *testing.T) {
	for _, second := range []string{"s/k.jpg", "s/k.JPG"} {
		b := build(t, entry{name: "s/k.jpg", data: "1"}, entry{name: "s/k.cls", data: "2"}, entry{name: second, data: "3"})
		_, _, err := scanAll(b)
		var e *Error
		if !errors.As(err, &e) || e.Key != "s/k" || e.Offset != 2048 || !strings.Contains(err.Error(), `field "jpg" twice`) {
			t.Errorf("%s after s/k.jpg: %v, want the key s/k and the offset 2048", second, err)
		}
	}
	b := build(t, entry{name: "k.__key__", data: "1"})
	if _, _, err := scanAll(b); err == nil || !strings.Contains(err.Error(), "__key__") {
		t.Errorf("field __key__: %v, want an error", err)
	}
}

// TestScanCompressed: xz and zstd shards are refused by name; a damaged gzip
// stream is an error.
func TestScanCompressed(t *testing.T) {
	for name, magic := range map[string][]byte{"xz": {0xfd, '7', 'z', 'X', 'Z', 0, 1, 2}, "zstd": {0x28, 0xb5, 0x2f, 0xfd, 0, 0}} {
		_, _, err := scanAll(magic)
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v, want an error naming it", name, err)
		}
	}
	z := gz(build(t, entry{name: "a.x", data: strings.Repeat("x", 5000)}))
	z[len(z)-6]++ // the CRC-32 of the gzip trailer
	if _, _, err := scanAll(z); err == nil || !errors.Is(err, gzip.ErrChecksum) {
		t.Errorf("gzip with a bad checksum: %v, want gzip.ErrChecksum", err)
	}
	if _, _, err := scanAll(gz(build(t, entry{name: "a.x", data: "1"}))[:30]); err == nil {
		t.Error("a cut gzip stream: no error")
	}
}

// TestWriterRoundTrip: samples written read back as written, long and
// non-ASCII names included; samples that would not are refused.
func TestWriterRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	type smp struct {
		key    string
		fields [][2]string
	}
	samples := []smp{
		{"000000", [][2]string{{"jpg", "J0"}, {"cls", "0"}}},
		{"dir/" + strings.Repeat("é", 90), [][2]string{{"seg.png", "S"}}},
		{"000002", [][2]string{{"empty", ""}}},
	}
	var all [][]Member
	for _, s := range samples {
		ms, err := w.WriteSample(s.key, pairs(s.fields))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, slices.Clone(ms))
	}
	for _, bad := range []smp{
		{"000002", [][2]string{{"x", ""}}},       // the previous key
		{"", [][2]string{{"x", ""}}},             // empty key
		{"a.b", [][2]string{{"x", ""}}},          // a dot in the key
		{"k", [][2]string{{"X", ""}}},            // upper case
		{"k", [][2]string{{"a/b", ""}}},          // a slash
		{"k", [][2]string{{"x", ""}, {"x", ""}}}, // twice
		{"k", nil},                               // no field
		{"__meta__/k", [][2]string{{"x", ""}}},   // metadata
		{"k", [][2]string{{"__url__", ""}}},      // reserved
		{"k", [][2]string{{"", ""}}},             // empty field
	} {
		if _, err := w.WriteSample(bad.key, pairs(bad.fields)); !errors.Is(err, ErrSample) {
			t.Errorf("WriteSample(%q, %q): %v, want ErrSample", bad.key, bad.fields, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if w.Offset() != int64(buf.Len()) {
		t.Errorf("Offset() = %d, wrote %d bytes", w.Offset(), buf.Len())
	}
	s := NewScanner(bytes.NewReader(buf.Bytes()), "w.tar", ScanOptions{Data: true})
	k := 0
	for ; s.Next(); k++ {
		got := s.Sample()
		if got.Key != samples[k].key || len(got.Members) != len(samples[k].fields) {
			t.Fatalf("sample %d = %q with %d members, want %q", k, got.Key, len(got.Members), samples[k].key)
		}
		for j, m := range got.Members {
			want := all[k][j]
			if m.Name != want.Name || m.Field != want.Field || m.Header != want.Header || m.Offset != want.Offset || m.Size != want.Size || m.CRC != want.CRC || got.Members[j].Field != samples[k].fields[j][0] || string(got.Members[j].Data) != samples[k].fields[j][1] {
				t.Errorf("sample %d member %d: read %+v, written %+v", k, j, m, want)
			}
		}
	}
	if s.Err() != nil || k != len(samples) {
		t.Errorf("read %d samples, %v", k, s.Err())
	}
}

func pairs(f [][2]string) func(yield func(string, []byte) bool) {
	return func(yield func(string, []byte) bool) {
		for _, p := range f {
			if !yield(p[0], []byte(p[1])) {
				return
			}
		}
	}
}
