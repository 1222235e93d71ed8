package shard_test

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/shard"
	"github.com/obskit/obskit/shard/wds"
	"github.com/obskit/obskit/subset"
)

// TestOpenReadsWhatItNeeds: Open reads the manifest and nothing else; a
// sample's read opens its shard's index and file only; the labels, and a
// stratified split of a labeled field, read every index and no shard file; a
// gzip-compressed shard is opened once for all its samples read at random,
// decompressed whole, even without ReadAhead.
func TestOpenReadsWhatItNeeds(t *testing.T) {
	dir := t.TempDir()
	want := samples(200, shard.Tar, 9)
	m, err := shard.Pack(shard.Dir(dir), "m.json", "s", seq(want), shard.PackOptions{ShardBytes: 24 << 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Shards) < 5 {
		t.Fatalf("%d shards", len(m.Shards))
	}
	store := &counting{Store: shard.Dir(dir), opens: map[string]int{}}
	set, err := shard.Open(store, "m.json")
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	opened := func() []string {
		names := slices.Sorted(maps.Keys(store.opens))
		clear(store.opens)
		return names
	}
	if got := opened(); !slices.Equal(got, []string{"m.json"}) {
		t.Errorf("Open opened %q, want the manifest alone", got)
	}
	k := 3
	i := set.BlockStarts()[k] + 1
	if d := cmp.Diff(want[i], set.GetObs(i), sampleConfig.Options...); d != "" {
		t.Fatalf("GetObs(%d) mismatch (-want +got):\n%s", i, d)
	}
	sh := m.Shards[k]
	if got, w := opened(), []string{sh.Files[0].Name, sh.Index.Name}; !slices.Equal(got, w) {
		t.Errorf("GetObs(%d) opened %q, want %q", i, got, w)
	}

	set2, err := shard.Open(store, "m.json")
	if err != nil {
		t.Fatal(err)
	}
	defer set2.Close()
	data, err := shard.LabeledField(set2, "jpg")
	if err != nil {
		t.Fatal(err)
	}
	parts, err := subset.StratifiedSplit(data, nil, 0.75)
	if err != nil {
		t.Fatal(err)
	}
	if parts[0].Nobs()+parts[1].Nobs() != len(want) {
		t.Errorf("the split holds %d and %d samples of %d", parts[0].Nobs(), parts[1].Nobs(), len(want))
	}
	var indexes []string
	for _, s := range m.Shards {
		indexes = append(indexes, s.Index.Name)
	}
	indexes = append(indexes, "m.json")
	slices.Sort(indexes)
	if got := opened(); !slices.Equal(got, indexes) {
		t.Errorf("labels and a stratified split opened %q, want every index and the manifest (%q)", got, indexes)
	}

	// A gzip shard of 30 samples: opened once for all of them.
	var buf bytes.Buffer
	w := wds.NewWriter(&buf)
	for j := range 30 {
		if _, err := w.WriteSample(fmt.Sprintf("%03d", j), func(yield func(string, []byte) bool) {
			_ = yield("bin", bytes.Repeat([]byte{byte(j)}, 500+j)) && yield("cls", []byte{'0' + byte(j%2)})
		}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	os.WriteFile(filepath.Join(dir, "z.tar.gz"), gzipped(buf.Bytes()), 0o666)
	if _, err := shard.IndexTars(shard.Dir(dir), "z.json", []string{"z.tar.gz"}, shard.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	zs, err := shard.Open(store, "z.json", shard.ReadAhead(false)) // gzip is read whole all the same
	if err != nil {
		t.Fatal(err)
	}
	defer zs.Close()
	var s shard.Sample
	for _, j := range []int{17, 3, 29, 0, 11} {
		if err := zs.ReadSample(&s, j); err != nil || s.Key != fmt.Sprintf("%03d", j) || !bytes.Equal(s.Fields[0].Data, bytes.Repeat([]byte{byte(j)}, 500+j)) {
			t.Fatalf("gzip shard, sample %d: %q, %v", j, s.Key, err)
		}
	}
	if n := store.opens["z.tar.gz"]; n != 1 {
		t.Errorf("the gzip shard was opened %d times for 5 samples, want once", n)
	}
}
