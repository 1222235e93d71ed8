package shard_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/shard"
)

// TestField: a field is a conformant Encoded container in every format (a
// sample without the field is an error naming it, ErrNoField); a set
// without the field is refused; AppendObs allocates nothing once the shard
// is open and the buffer has room.
func TestField(t *testing.T) {
	for _, format := range []shard.Format{shard.Tar, shard.RecordIO, shard.Npy} {
		dir := t.TempDir()
		m := packed(t, dir, format)
		set, err := shard.Open(shard.Dir(dir), "m.json")
		if err != nil {
			t.Fatal(err)
		}
		name := "jpg"
		if format == shard.Npy {
			name = "x.npy"
		}
		f, err := set.Field(name)
		if err != nil {
			t.Fatal(err)
		}
		cfg := containertest.SliceConfig[[]byte]()
		cfg.Options = []cmp.Option{cmp.Comparer(bytes.Equal)} // not byte by byte
		t.Run(format.String(), func(t *testing.T) { containertest.Run(t, f, cfg) })
		want := samples(60, format, 3)
		for i := range want {
			w, _ := want[i].Get(name)
			if got := f.GetObs(i); !bytes.Equal(got, w) {
				t.Fatalf("%s: field %s of sample %d differs", format, name, i)
			}
		}
		if _, err := set.Field("nope"); !errors.Is(err, shard.ErrNoField) {
			t.Errorf("%s: a field no sample has: %v", format, err)
		}
		if format != shard.Npy {
			seg, _ := set.Field("seg.png")
			if _, err := seg.AppendObs(nil, 1); !errors.Is(err, shard.ErrNoField) || !strings.Contains(err.Error(), `"s/000001"`) {
				t.Errorf("%s: a sample without the field: %v", format, err)
			}
		}
		buf := make([]byte, 0, 1<<16)
		f.AppendObs(buf, 5)
		if n := testing.AllocsPerRun(50, func() { buf, _ = f.AppendObs(buf[:0], 5) }); n != 0 {
			t.Errorf("%s: AppendObs allocates %v times", format, n)
		}
		set.Close()
		if _, err := f.AppendObs(nil, 0); !errors.Is(err, shard.ErrClosed) {
			t.Errorf("%s: a read after Close: %v", format, err)
		}
		_ = m
	}
}
