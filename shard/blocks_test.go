package shard_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/internal/pypeer"
	"github.com/obskit/obskit/shard"
	"github.com/obskit/obskit/shard/wds"
)

// counting is a Store that counts the opens of each object.
type counting struct {
	shard.Store
	mu    sync.Mutex
	opens map[string]int
}

func (c *counting) Open(name string) (shard.Object, error) {
	c.mu.Lock()
	c.opens[name]++
	c.mu.Unlock()
	return c.Store.Open(name)
}

// TestShuffleBlocksEpoch: eachobs.ShuffleBlocks reads a set a window of
// shards at a time: an epoch visits every sample once, in batches that each
// hold samples of at most two windows, and with MaxOpen above the window
// (and its workers' batches in flight) each shard's index and file are opened
// once per epoch; with a full shuffle they are opened many times over.
func TestShuffleBlocksEpoch(t *testing.T) {
	dir := t.TempDir()
	want := samples(400, shard.Tar, 5)
	m, err := shard.Pack(shard.Dir(dir), "m.json", "s", seq(want), shard.PackOptions{ShardBytes: 40 << 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Shards) < 10 {
		t.Fatalf("%d shards", len(m.Shards))
	}
	const window = 2
	for _, workers := range []int{1, 2} {
		store := &counting{Store: shard.Dir(dir), opens: map[string]int{}}
		set, err := shard.Open(store, "m.json", shard.MaxOpen(2*window+2))
		if err != nil {
			t.Fatal(err)
		}
		jpg, err := set.Field("jpg")
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]int, set.Nobs())
		for b := range eachobs.Batches(jpg, 8, eachobs.ShuffleBlocks(7, window), eachobs.Workers(workers)) {
			for j, i := range b.Indices[:b.Real] {
				seen[i]++
				w, _ := want[i].Get("jpg")
				if !bytes.Equal(b.Data[j], w) {
					t.Fatalf("sample %d: the batch holds other bytes", i)
				}
			}
		}
		for i, n := range seen {
			if n != 1 {
				t.Fatalf("workers %d: sample %d read %d times in an epoch", workers, i, n)
			}
		}
		for name, n := range store.opens {
			if n != 1 && name != "m.json" {
				t.Errorf("workers %d: %s opened %d times in an epoch", workers, name, n)
			}
		}
		set.Close()
	}
	// A full shuffle through the same cache reopens shards.
	store := &counting{Store: shard.Dir(dir), opens: map[string]int{}}
	set, _ := shard.Open(store, "m.json", shard.MaxOpen(2*window+2))
	for range eachobs.Batches(set, 16, eachobs.Shuffle(7)) {
	}
	total := 0
	for _, n := range store.opens {
		total += n
	}
	if total < 4*len(m.Shards) {
		t.Errorf("a full shuffle opened %d objects for %d shards: the test does not tell the orders apart", total, len(m.Shards))
	}
}

// TestIndexTars: tar shards another tool wrote, with members webdataset
// skips between samples and one gzip-compressed, are indexed and read at
// random as the Scanner reads them in order; their cls fields become labels.
// With Python, shards its tarfile wrote (ustar, GNU, PAX, gzip) too, and a
// bzip2 shard, which cannot be read at an offset, is refused naming it.
func TestIndexTars(t *testing.T) {
	dir := t.TempDir()
	store := shard.Dir(dir)
	var names []string
	for k, gz := range []bool{false, true, false} {
		var buf bytes.Buffer
		w := wds.NewWriter(&buf)
		for j := range 5 {
			key := filepath.Join("x", string(rune('a'+k)), strings.Repeat("n", j+1))
			if _, err := w.WriteSample(key, func(yield func(string, []byte) bool) {
				_ = yield("jpg", bytes.Repeat([]byte{byte(j)}, 700*j)) && yield("cls", []byte{'0' + byte(j%3)})
			}); err != nil {
				t.Fatal(err)
			}
		}
		w.Close()
		name := "raw/" + string(rune('a'+k)) + ".tar"
		b := buf.Bytes()
		if gz {
			name += ".gz"
			b = gzipped(b)
		}
		os.MkdirAll(filepath.Join(dir, "raw"), 0o777)
		os.WriteFile(filepath.Join(dir, name), b, 0o666)
		names = append(names, name)
	}
	check := func(names []string) {
		t.Helper()
		m, err := shard.IndexTars(store, "raw/m.json", names, shard.IndexOptions{})
		if err != nil {
			t.Fatal(err)
		}
		set, err := shard.Open(store, "raw/m.json")
		if err != nil {
			t.Fatal(err)
		}
		defer set.Close()
		var want []shard.Sample
		for _, name := range names {
			f, _ := os.Open(filepath.Join(dir, name))
			sc := wds.NewScanner(f, name, wds.ScanOptions{Data: true})
			for sc.Next() {
				s := shard.Sample{Key: sc.Sample().Key}
				for _, mb := range sc.Sample().Members {
					s.Fields = append(s.Fields, shard.Field{Name: mb.Field, Data: mb.Data})
				}
				want = append(want, s)
			}
			f.Close()
			if sc.Err() != nil {
				t.Fatal(sc.Err())
			}
		}
		if set.Nobs() != len(want) || m.Samples != len(want) {
			t.Fatalf("%d samples, the scanner reads %d", set.Nobs(), len(want))
		}
		for i := len(want) - 1; i >= 0; i-- {
			if d := cmp.Diff(want[i], set.GetObs(i), sampleConfig.Options...); d != "" {
				t.Fatalf("sample %d (-scanned +indexed):\n%s", i, d)
			}
		}
		all := true
		for _, s := range want {
			_, ok := s.Get("cls")
			all = all && ok
		}
		labels, err := set.Labels()
		if !all {
			// The Python shards hold a sample without cls: no labels.
			if !errors.Is(err, shard.ErrNoLabels) {
				t.Errorf("labels of a set with a sample without cls: %v", err)
			}
		} else if err != nil {
			t.Fatalf("labels: %v (manifest label %q)", err, m.Label)
		}
		for i, l := range labels {
			c, _ := want[i].Get("cls")
			v, _ := shard.ParseLabel("cls", c)
			if int64(l) != v {
				t.Fatalf("label %d = %d, its cls says %d", i, l, v)
			}
		}
		rep, _ := shard.Verify(store, "raw/m.json", nil)
		if len(rep.Problems) != 0 {
			t.Errorf("Verify: %v", rep.Problems)
		}
	}
	check(names)

	if err := pypeer.Has("tarfile"); err != nil {
		t.Skipf("the shards of Python's tarfile are not read: %v", err)
	}
	out, err := exec.Command(pypeer.Python(), "wds/testdata/tarfile_peer.py", "write", filepath.Join(dir, "raw")).Output()
	if err != nil {
		t.Fatal(err)
	}
	var py []string
	for _, n := range strings.Fields(string(out)) {
		if strings.HasSuffix(n, ".bz2") {
			if _, err := shard.IndexTars(store, "raw/bz.json", []string{"raw/" + n}, shard.IndexOptions{}); err == nil || !strings.Contains(err.Error(), "bzip2") || !strings.Contains(err.Error(), n) {
				t.Errorf("a bzip2 shard: %v", err)
			}
			continue
		}
		py = append(py, "raw/"+n)
	}
	check(py)
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := newGzip(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// readCounting is a Store whose objects count their ReadAt calls and bytes.
type readCounting struct {
	shard.Store
	mu    sync.Mutex
	reads map[string]int
	bytes int64
}

func (c *readCounting) Open(name string) (shard.Object, error) {
	o, err := c.Store.Open(name)
	if err != nil {
		return nil, err
	}
	return &countedObject{Object: o, c: c, name: name}, nil
}

type countedObject struct {
	shard.Object
	c    *readCounting
	name string
}

func (o *countedObject) ReadAt(p []byte, off int64) (int, error) {
	o.c.mu.Lock()
	o.c.reads[o.name]++
	o.c.bytes += int64(len(p))
	o.c.mu.Unlock()
	return o.Object.ReadAt(p, off)
}

// TestReadAhead: read in the order of its shards, a set reads each shard
// whole at the second sample read from it (one read of the file), and its
// samples from memory after; without ReadAhead, or when a shard does not fit
// MaxMemory, a read per field. The samples are the same every way, and a
// gzip shard beyond MaxMemory is refused naming the option.
func TestReadAhead(t *testing.T) {
	for _, format := range []shard.Format{shard.Tar, shard.RecordIO, shard.Npy} {
		dir := t.TempDir()
		label, size := "", int64(16<<10)
		if format == shard.Npy {
			label, size = "y.npy", 400
		}
		want := samples(100, format, 6)
		m, err := shard.Pack(shard.Dir(dir), "m.json", "s", seq(want), shard.PackOptions{Format: format, ShardBytes: size, Label: label})
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name string
			opts []shard.Option
			few  bool // the first sample's reads, then one of the whole file
		}{
			{"default", nil, true},
			{"off", []shard.Option{shard.ReadAhead(false)}, false},
			{"too small", []shard.Option{shard.MaxMemory(100)}, false},
		} {
			store := &readCounting{Store: shard.Dir(dir), reads: map[string]int{}}
			set, err := shard.Open(store, "m.json", tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			var s shard.Sample
			for i := range want {
				if err := set.ReadSample(&s, i); err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(want[i], s, sampleConfig.Options...); d != "" {
					t.Fatalf("%s %s: sample %d (-want +got):\n%s", format, tc.name, i, d)
				}
			}
			set.Close()
			for _, sh := range m.Shards {
				for _, f := range sh.Files {
					n := store.reads[f.Name]
					// A field is a read (RecordIO: two, header and
					// payload); the first sample has at most 3 fields.
					if tc.few && n > 7 || !tc.few && sh.Samples > 7 && n < sh.Samples {
						t.Errorf("%s %s: %s (%d samples) read %d times", format, tc.name, f.Name, sh.Samples, n)
					}
				}
			}
		}
	}

	dir := t.TempDir()
	var buf bytes.Buffer
	w := wds.NewWriter(&buf)
	for _, k := range []string{"a", "b"} {
		w.WriteSample(k, func(yield func(string, []byte) bool) { yield("txt", bytes.Repeat([]byte(k), 3000)) })
	}
	w.Close()
	os.WriteFile(filepath.Join(dir, "a.tar.gz"), gzipped(buf.Bytes()), 0o666)
	if _, err := shard.IndexTars(shard.Dir(dir), "m.json", []string{"a.tar.gz"}, shard.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	set, _ := shard.Open(shard.Dir(dir), "m.json", shard.MaxMemory(1000))
	var s shard.Sample
	if err := set.ReadSample(&s, 0); !errors.Is(err, shard.ErrGzip) || !strings.Contains(err.Error(), "MaxMemory") {
		t.Errorf("a gzip shard beyond MaxMemory: %v", err)
	}
	set, _ = shard.Open(shard.Dir(dir), "m.json")
	if err := set.ReadSample(&s, 1); err != nil || len(s.Fields[0].Data) != 3000 {
		t.Errorf("a gzip shard: %v", err)
	}
}
