package shard_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/shard"
)

// TestManyPackers: three packers write disjoint ranges of the samples at
// once, with no coordination; Commit joins their parts in the packers' order
// and the set reads every sample once, in order. A packer that died mid-shard
// left a temporary and a stale shard of an earlier run: neither is read, the
// packer run again removes the temporary, and Commit refuses to proceed while a
// part is missing.
func TestManyPackers(t *testing.T) {
	root := t.TempDir()
	store := shard.Dir(root)
	want := samples(300, shard.Tar, 2)
	// A dead run of packer 1: a shard it finished, a temporary it was
	// writing, no part.
	put(t, store, "d/p-w00001-000099.tar", "stale")
	os.WriteFile(filepath.Join(root, "d", ".tmp-p-w00001-000008.tar-123"), []byte("partial"), 0o666)
	if _, err := shard.Commit(store, "d/m.json", "d/p", 3); err == nil || !strings.Contains(err.Error(), "packer 0") {
		t.Errorf("Commit before any part: %v, want an error naming packer 0", err)
	}

	var wg sync.WaitGroup
	errs := make([]error, 3)
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := shard.NewPacker(store, "d/p", shard.PackOptions{ShardBytes: 16 << 10, Writer: w})
			if err != nil {
				errs[w] = err
				return
			}
			for _, s := range want[w*100 : (w+1)*100] {
				if err := p.Write(s); err != nil {
					errs[w] = err
					return
				}
			}
			if w != 2 {
				_, errs[w] = p.Close()
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "d", ".tmp-p-w00001-000008.tar-123")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("packer 1 left its dead run's temporary: %v", err)
	}
	// Packer 2 has not closed: no part, no manifest.
	if _, err := shard.Commit(store, "d/m.json", "d/p", 3); err == nil || !strings.Contains(err.Error(), "packer 2") {
		t.Errorf("Commit without packer 2's part: %v", err)
	}
	if _, err := store.Open("d/m.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a manifest after a failed Commit: %v", err)
	}
	// Packer 2 run again, whole.
	p, err := shard.NewPacker(store, "d/p", shard.PackOptions{ShardBytes: 16 << 10, Writer: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range want[200:] {
		if err := p.Write(s); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Close(); err != nil {
		t.Fatal(err)
	}
	m, err := shard.Commit(store, "d/m.json", "d/p", 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range m.Shards {
		if strings.Contains(s.Files[0].Name, "000099") && strings.Contains(s.Files[0].Name, "w00001") {
			t.Errorf("the stale shard %s is in the manifest", s.Files[0].Name)
		}
	}
	set, err := shard.Open(store, "d/m.json")
	if err != nil {
		t.Fatal(err)
	}
	if set.Nobs() != len(want) {
		t.Fatalf("Nobs() = %d, want %d", set.Nobs(), len(want))
	}
	for i := range want {
		if d := cmp.Diff(want[i], set.GetObs(i), sampleConfig.Options...); d != "" {
			t.Fatalf("sample %d (-want +got):\n%s", i, d)
		}
	}
	if f, _ := m.Field("seg.png"); f.Samples != 100 {
		t.Errorf("field seg.png in %d samples, want 100", f.Samples)
	}
	// The manifest in a directory above the shards' names them by path.
	if _, err := shard.Commit(store, "m.json", "d/p", 3); err != nil {
		t.Fatal(err)
	}
	up, err := shard.Open(store, "m.json")
	if err != nil || up.Nobs() != len(want) || !strings.HasPrefix(up.Manifest().Shards[0].Files[0].Name, "d/") {
		t.Fatalf("a manifest above the shards: %v", err)
	}
	if d := cmp.Diff(want[123], up.GetObs(123), sampleConfig.Options...); d != "" {
		t.Errorf("through the manifest above (-want +got):\n%s", d)
	}
	if _, err := shard.Commit(store, "e/m.json", "d/p", 3); err == nil {
		t.Error("Commit of a manifest in another directory succeeded")
	}
}

// TestPackerRefuses: samples that would not read back, a label missing or
// not an integer, Npy fields of another shape are refused, and the packer
// stays usable; an error of the store fails it and removes its unfinished
// shard.
func TestPackerRefuses(t *testing.T) {
	store := shard.Dir(t.TempDir())
	p, err := shard.NewPacker(store, "p", shard.PackOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ok := shard.Sample{Key: "a", Fields: []shard.Field{{Name: "cls", Data: []byte("1")}}}
	if err := p.Write(ok); err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]shard.Sample{
		"same key":     ok,
		"upper case":   {Key: "b", Fields: []shard.Field{{Name: "CLS", Data: []byte("1")}}},
		"no label":     {Key: "b", Fields: []shard.Field{{Name: "jpg", Data: []byte("x")}}},
		"bad label":    {Key: "b", Fields: []shard.Field{{Name: "cls", Data: []byte("dog")}}},
		"dot in key":   {Key: "b.c", Fields: []shard.Field{{Name: "cls", Data: []byte("1")}}},
		"field twice":  {Key: "b", Fields: []shard.Field{{Name: "cls", Data: []byte("1")}, {Name: "cls", Data: []byte("1")}}},
		"reserved":     {Key: "b", Fields: []shard.Field{{Name: "cls", Data: []byte("1")}, {Name: "__key__", Data: nil}}},
		"no fields":    {Key: "b"},
		"metadata key": {Key: "__x__/b", Fields: []shard.Field{{Name: "cls", Data: []byte("1")}}},
	} {
		if err := p.Write(s); err == nil || !strings.Contains(err.Error(), "sample") {
			t.Errorf("%s: %v, want an error naming the sample", name, err)
		}
	}
	if err := p.Write(shard.Sample{Key: "b", Fields: []shard.Field{{Name: "cls", Data: []byte(" 2\n")}}}); err != nil {
		t.Fatalf("a good sample after refused ones: %v", err)
	}
	m, err := p.Close()
	if err != nil || m.Samples != 2 || m.Label != "cls" {
		t.Fatalf("Close: %+v, %v", m, err)
	}
	if err := p.Write(ok); !errors.Is(err, shard.ErrPacker) {
		t.Errorf("Write after Close: %v", err)
	}

	// A store that fails while a shard is written.
	fs := &failing{Store: store, after: 2}
	q, _ := shard.NewPacker(fs, "q", shard.PackOptions{ShardBytes: 1})
	var werr error
	for i := 0; werr == nil && i < 10; i++ {
		werr = q.Write(shard.Sample{Key: string(rune('a' + i)), Fields: []shard.Field{{Name: "x", Data: []byte("data")}}})
	}
	if !errors.Is(werr, shard.ErrPacker) || !errors.Is(werr, errFull) {
		t.Fatalf("a failing store: %v", werr)
	}
	if _, err := q.Close(); !errors.Is(err, errFull) {
		t.Errorf("Close after a failure: %v", err)
	}
	if _, err := store.Open("q-w00000.json"); err == nil {
		t.Error("a part after a failure")
	}
}

var errFull = errors.New("disk full")

// failing is a Store whose writers fail after a number of Creates.
type failing struct {
	shard.Store
	after int
	mu    sync.Mutex
}

func (f *failing) Create(name string) (shard.Writer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.after--
	w, err := f.Store.Create(name)
	if err != nil || f.after >= 0 {
		return w, err
	}
	return failWriter{w}, nil
}

type failWriter struct{ shard.Writer }

func (failWriter) Write([]byte) (int, error) { return 0, errFull }

// TestPackerRunAgainDies: a packer whose earlier run finished (its part
// written) is run again, over other samples, and dies after a shard. Its
// old part lists shards the new run replaced, so Commit must refuse it, as it
// refuses a missing part, rather than write a manifest whose shards fail
// their checksums; once the packer finishes, Commit writes a set that reads.
func TestPackerRunAgainDies(t *testing.T) {
	store := shard.Dir(t.TempDir())
	pack := func(want []shard.Sample, close bool) {
		t.Helper()
		p, err := shard.NewPacker(store, "d/p", shard.PackOptions{ShardBytes: 4 << 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range want {
			if err := p.Write(s); err != nil {
				t.Fatal(err)
			}
		}
		if close {
			if _, err := p.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
	pack(samples(40, shard.Tar, 1), true)
	if _, err := shard.Commit(store, "d/m.json", "d/p", 1); err != nil {
		t.Fatal(err)
	}
	// The run again dies (no Close) after writing shards of other samples.
	again := samples(40, shard.Tar, 2)
	pack(again, false)
	if _, err := shard.Commit(store, "d/m2.json", "d/p", 1); err == nil || !strings.Contains(err.Error(), "packer 0") || !strings.Contains(err.Error(), "not finished") {
		t.Fatalf("Commit after a run that died: %v, want an error saying packer 0 has not finished", err)
	}
	if _, err := store.Open("d/m2.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a manifest after a refused Commit: %v", err)
	}
	// The part name is not a manifest a reader could open by mistake.
	if _, err := shard.Open(store, "d/p-w00000.json"); err == nil {
		t.Error("the mark of an unfinished run opens as a set")
	}
	pack(again, true)
	if _, err := shard.Commit(store, "d/m2.json", "d/p", 1); err != nil {
		t.Fatal(err)
	}
	set, err := shard.Open(store, "d/m2.json")
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	for i := range again {
		if d := cmp.Diff(again[i], set.GetObs(i), sampleConfig.Options...); d != "" {
			t.Fatalf("sample %d (-want +got):\n%s", i, d)
		}
	}
}
