package shard_test

import (
	"bytes"
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/shard"
)

// samples returns n samples of the kind the formats hold: for Tar and
// RecordIO a jpg-like field of random bytes (some empty), a cls label and,
// for every third, a seg.png; for Npy an x.npy row of 3 float32 and a
// y.npy label.
func samples(n int, format shard.Format, seed uint64) []shard.Sample {
	rng := rand.New(rand.NewPCG(seed, 1))
	out := make([]shard.Sample, n)
	for i := range out {
		s := shard.Sample{Key: fmt.Sprintf("s/%06d", i)}
		label := rng.IntN(5)
		switch format {
		case shard.Npy:
			x := npy.AppendHeader(nil, npy.Header{Dtype: npy.Dtype{Descr: "<f4", Kind: 'f', Size: 4}, Shape: []int{3}})
			for range 12 {
				x = append(x, byte(rng.Uint32()))
			}
			y := npy.AppendHeader(nil, npy.Header{Dtype: npy.Dtype{Descr: "<i8", Kind: 'i', Size: 8}})
			y = append(y, byte(label), 0, 0, 0, 0, 0, 0, 0)
			s.Fields = []shard.Field{{Name: "x.npy", Data: x}, {Name: "y.npy", Data: y}}
		default:
			img := make([]byte, rng.IntN(3000))
			for k := range img {
				img[k] = byte(rng.Uint32())
			}
			s.Fields = []shard.Field{{Name: "jpg", Data: img}, {Name: "cls", Data: fmt.Appendf(nil, "%d\n", label)}}
			if i%3 == 0 {
				s.Fields = append(s.Fields, shard.Field{Name: "seg.png", Data: []byte("seg")})
			}
		}
		out[i] = s
	}
	return out
}

func seq(s []shard.Sample) iter.Seq2[shard.Sample, error] {
	return func(yield func(shard.Sample, error) bool) {
		for _, x := range s {
			if !yield(x, nil) {
				return
			}
		}
	}
}

var sampleConfig = containertest.Config[shard.Sample, []shard.Sample]{
	Obs:     func(b []shard.Sample, j int) shard.Sample { return b[j] },
	Len:     func(b []shard.Sample) int { return len(b) },
	Options: []cmp.Option{cmp.Comparer(func(a, b []byte) bool { return bytes.Equal(a, b) })},
}

// TestRoundTrip: samples packed in each format into shards of a few KiB
// read back as written, in order, through GetObs, GetObsInto and the
// conformance checks; the blocks are the shards; labels come from the
// indexes.
func TestRoundTrip(t *testing.T) {
	for _, format := range []shard.Format{shard.Tar, shard.RecordIO, shard.Npy} {
		t.Run(format.String(), func(t *testing.T) {
			store := shard.Dir(t.TempDir())
			want := samples(120, format, 1)
			label, size := "", int64(8<<10)
			if format == shard.Npy {
				label, size = "y.npy", 500
			}
			m, err := shard.Pack(store, "set/manifest.json", "set/part", seq(want), shard.PackOptions{Format: format, ShardBytes: size, Label: label})
			if err != nil {
				t.Fatal(err)
			}
			if m.Samples != len(want) || len(m.Shards) < 5 {
				t.Fatalf("manifest: %d samples in %d shards", m.Samples, len(m.Shards))
			}
			set, err := shard.Open(store, "set/manifest.json")
			if err != nil {
				t.Fatal(err)
			}
			defer set.Close()
			if set.Nobs() != len(want) {
				t.Fatalf("Nobs() = %d, want %d", set.Nobs(), len(want))
			}
			for i := range want {
				if d := cmp.Diff(want[i], set.GetObs(i), sampleConfig.Options...); d != "" {
					t.Fatalf("GetObs(%d) mismatch (-want +got):\n%s", i, d)
				}
			}
			starts := set.BlockStarts()
			if len(starts) != len(m.Shards)+1 || starts[len(starts)-1] != len(want) {
				t.Errorf("BlockStarts() = %v for %d shards", starts, len(m.Shards))
			}
			for k := range m.Shards {
				if got := starts[k+1] - starts[k]; got != m.Shards[k].Samples {
					t.Errorf("block %d holds %d samples, shard %d has %d", k, got, k, m.Shards[k].Samples)
				}
			}
			labels, err := set.Labels()
			if err != nil {
				t.Fatal(err)
			}
			for i, l := range labels {
				v, _ := want[i].Get(m.Label)
				got, _ := shard.ParseLabel(m.Label, v)
				if int64(l) != got {
					t.Fatalf("label %d = %d, the sample's field says %d", i, l, got)
				}
			}
			containertest.Run(t, set, sampleConfig)
			_ = slices.Clone(starts)
		})
	}
}
