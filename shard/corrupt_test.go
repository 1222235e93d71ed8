package shard_test

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/obskit/obskit/shard"
)

// packed writes 60 samples in tar shards of about 8 KiB under dir and
// returns the manifest.
func packed(t *testing.T, dir string, format shard.Format) *shard.Manifest {
	t.Helper()
	label, size := "", int64(8<<10)
	if format == shard.Npy {
		label, size = "y.npy", 300
	}
	m, err := shard.Pack(shard.Dir(dir), "m.json", "s", seq(samples(60, format, 3)), shard.PackOptions{Format: format, ShardBytes: size, Label: label})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// damage flips a byte in the middle of the first field of the second sample
// of the second shard of the set packed in dir, in its file, and returns the
// sample's index.
func damage(t *testing.T, dir string, m *shard.Manifest, format shard.Format) int {
	t.Helper()
	set, err := shard.Open(shard.Dir(dir), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	i := m.Shards[0].Samples + 1
	var s shard.Sample
	if err := set.ReadSample(&s, i); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, m.Shards[1].Files[0].Name)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// Find the member's bytes: they are in the file as written, for an Npy
	// row after the .npy header.
	data := s.Fields[0].Data
	if format == shard.Npy {
		data = data[len(data)-12:]
	}
	off := bytes.Index(b, data)
	if off < 0 || len(data) == 0 {
		t.Fatalf("the member's bytes are not in %s", file)
	}
	b[off+len(data)/2] ^= 1
	if err := os.WriteFile(file, b, 0o666); err != nil {
		t.Fatal(err)
	}
	return i
}

// TestCorruptMember: a byte flipped inside a member fails its CRC-32C when
// the sample is read, naming the shard, the key, the field and the offset;
// the other samples read; Verify reports the shard's checksum and the
// member.
func TestCorruptMember(t *testing.T) {
	for _, format := range []shard.Format{shard.Tar, shard.RecordIO, shard.Npy} {
		t.Run(format.String(), func(t *testing.T) {
			dir := t.TempDir()
			m := packed(t, dir, format)
			set, err := shard.Open(shard.Dir(dir), "m.json")
			if err != nil {
				t.Fatal(err)
			}
			set.Close()
			i := damage(t, dir, m, format)
			var s shard.Sample

			set, _ = shard.Open(shard.Dir(dir), "m.json")
			err = set.ReadSample(&s, i)
			if !errors.Is(err, shard.ErrCorrupt) || !strings.Contains(err.Error(), m.Shards[1].Files[0].Name) || !strings.Contains(err.Error(), `"s/`) || !strings.Contains(err.Error(), "offset") {
				t.Errorf("reading the damaged sample: %v, want ErrCorrupt naming the shard, key, field and offset", err)
			}
			if err := set.ReadSample(&s, i+1); err != nil {
				t.Errorf("the next sample: %v", err)
			}
			rep, err := shard.Verify(shard.Dir(dir), "m.json", nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Problems) != 1 || !errors.Is(rep.Problems[0], shard.ErrCorrupt) || !strings.Contains(rep.Problems[0].Error(), "SHA-256") {
				t.Errorf("Verify: %v", rep.Problems)
			}
		})
	}
}

// TestLostMembers: a tar shard rewritten without one sample's members (a
// tool that dropped them), in the middle or at the end, fails its size when
// opened and, in Verify, its SHA-256 and its samples: the key found where the
// index has another, or, for the last sample, the count. A missing shard is
// an error naming it; a damaged index fails its SHA-256 against the manifest.
func TestLostMembers(t *testing.T) {
	var dir string
	var m *shard.Manifest
	for _, last := range []bool{true, false} {
		dir = t.TempDir()
		m = packed(t, dir, shard.Tar)
		name := m.Shards[0].Files[0].Name
		lost, count := "s/000001.", "is \"s/000002\" with 2 fields, the index says \"s/000001\""
		if last {
			n := m.Shards[0].Samples
			lost, count = fmt.Sprintf("s/%06d.", n-1), fmt.Sprintf("%d samples, the index and the manifest say %d", n-1, n)
		}
		b, _ := os.ReadFile(filepath.Join(dir, name))
		var out bytes.Buffer
		tr, tw := tar.NewReader(bytes.NewReader(b)), tar.NewWriter(&out)
		dropped := 0
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if strings.HasPrefix(h.Name, lost) {
				dropped++
				continue
			}
			tw.WriteHeader(h)
			io.Copy(tw, tr)
		}
		tw.Close()
		if dropped != 2 && dropped != 3 {
			t.Fatalf("dropped %d members of %s", dropped, lost)
		}
		os.WriteFile(filepath.Join(dir, name), out.Bytes(), 0o666)

		set, _ := shard.Open(shard.Dir(dir), "m.json")
		var s shard.Sample
		if err := set.ReadSample(&s, 0); !errors.Is(err, shard.ErrCorrupt) || !strings.Contains(err.Error(), "bytes, the manifest says") {
			t.Errorf("reading a shard that lost members: %v", err)
		}
		rep, _ := shard.Verify(shard.Dir(dir), "m.json", nil)
		if len(rep.Problems) != 1 {
			t.Fatalf("Verify: %v", rep.Problems)
		}
		msg := rep.Problems[0].Error()
		for _, want := range []string{name, "SHA-256", "bytes, the manifest says", count} {
			if !strings.Contains(msg, want) {
				t.Errorf("lost %s: Verify's problem %q does not say %q", lost, msg, want)
			}
		}
	}

	var s shard.Sample
	os.Remove(filepath.Join(dir, m.Shards[1].Files[0].Name))
	set, _ := shard.Open(shard.Dir(dir), "m.json")
	if err := set.ReadSample(&s, m.Shards[0].Samples); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), m.Shards[1].Files[0].Name) {
		t.Errorf("a missing shard: %v", err)
	}
	ix := filepath.Join(dir, m.Shards[2].Index.Name)
	ib, _ := os.ReadFile(ix)
	ib[len(ib)/2] ^= 4
	os.WriteFile(ix, ib, 0o666)
	if err := set.ReadSample(&s, m.Shards[0].Samples+m.Shards[1].Samples); !errors.Is(err, shard.ErrCorrupt) || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("a damaged index: %v", err)
	}
	rep, _ := shard.Verify(shard.Dir(dir), "m.json", nil)
	if len(rep.Problems) != 3 {
		t.Errorf("Verify found %d problems, want 3: %v", len(rep.Problems), rep.Problems)
	}
}

// TestVerifyClean: Verify of whole sets of each format finds nothing and
// reads every byte.
func TestVerifyClean(t *testing.T) {
	for _, format := range []shard.Format{shard.Tar, shard.RecordIO, shard.Npy} {
		dir := t.TempDir()
		m := packed(t, dir, format)
		var last int64
		rep, err := shard.Verify(shard.Dir(dir), "m.json", func(n int64) { last = n })
		if err != nil || len(rep.Problems) != 0 {
			t.Fatalf("%s: %v, %v", format, err, rep.Problems)
		}
		var total int64
		for _, s := range m.Shards {
			total += s.Index.Bytes
			for _, f := range s.Files {
				total += f.Bytes
			}
		}
		if rep.Bytes != total || last != total || rep.Shards != len(m.Shards) || rep.Samples != 60 {
			t.Errorf("%s: report %+v, progress %d, want %d bytes", format, rep, last, total)
		}
	}
}

// TestIndexTarsBroken: IndexTars of tar shards another tool wrote, one of
// them broken (a field twice in a sample, cut inside a member, a header whose
// checksum fails), returns an error naming that shard, the offset (and the
// key of the sample with a field twice), and writes no manifest.
func TestIndexTarsBroken(t *testing.T) {
	var good bytes.Buffer
	tw := tar.NewWriter(&good)
	member := func(tw *tar.Writer, name, data string) {
		tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(data))})
		io.WriteString(tw, data)
	}
	// k1.jpg: header 0, data 512; k1.cls: header 1536, data 2048; k2.jpg:
	// header 2560, data 3072; k2.JPG: header 4096.
	member(tw, "k1.jpg", strings.Repeat("1", 700))
	member(tw, "k1.cls", "1")
	member(tw, "k2.jpg", strings.Repeat("2", 700))
	twice := good.Len()
	member(tw, "k2.JPG", "again")
	tw.Close()
	b := good.Bytes()
	bad := bytes.Clone(b[:twice])
	bad[1536+100]++ // k1.cls's header
	for _, tc := range []struct {
		data []byte
		want []string
	}{
		{b, []string{"offset 4096", `sample "k2"`, `field "jpg" twice`}},
		{b[:3500], []string{"offset 3500", `inside member "k2.jpg"`}},
		{bad, []string{"offset 1536", "bad tar header"}},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "ok.tar"), b[:twice], 0o666)
		os.WriteFile(filepath.Join(dir, "broken.tar"), tc.data, 0o666)
		_, err := shard.IndexTars(shard.Dir(dir), "m.json", []string{"ok.tar", "broken.tar"}, shard.IndexOptions{})
		for _, w := range append(tc.want, "broken.tar") {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("IndexTars with a broken shard: %v, want an error saying %q", err, w)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "m.json")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a manifest after a failed IndexTars: %v", err)
		}
	}
}
