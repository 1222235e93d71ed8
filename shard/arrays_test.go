package shard_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/shard"
)

// TestArraysOf: a field of [2 3] int16 arrays reads as arrays, one by one
// and gathered into a batch (reusing a large enough one), from .npy shards
// (rows read straight into the batch) and from tar shards (x.npy members);
// another element type is refused naming both; a sample of another shape in
// a tar set fails its read.
func TestArraysOf(t *testing.T) {
	const n = 40
	rows := make([][]int16, n)
	var smp []shard.Sample
	for i := range rows {
		rows[i] = []int16{int16(i), -1, 2, 3, 4, int16(-i)}
		a, _ := arraycontainer.New(rows[i], []int{2, 3}, obsdim.First)
		var buf bytes.Buffer
		npy.Write(&buf, a)
		smp = append(smp, shard.Sample{Key: fmt.Sprint(i), Fields: []shard.Field{{Name: "x.npy", Data: buf.Bytes()}}})
	}
	for _, format := range []shard.Format{shard.Npy, shard.Tar} {
		dir := t.TempDir()
		if _, err := shard.Pack(shard.Dir(dir), "m.json", "s", seq(smp), shard.PackOptions{Format: format, ShardBytes: 200}); err != nil {
			t.Fatal(err)
		}
		set, _ := shard.Open(shard.Dir(dir), "m.json")
		x, err := shard.ArraysOf[int16](set, "x.npy")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(x.ObsShape(), []int{2, 3}) || x.Nobs() != n || len(x.BlockStarts()) < 3 {
			t.Fatalf("%s: shape %v, %d samples, blocks %v", format, x.ObsShape(), x.Nobs(), x.BlockStarts())
		}
		for i := range n {
			if got := x.GetObs(i); !slices.Equal(got.Clone().Data(), rows[i]) || !slices.Equal(got.Shape(), []int{2, 3}) {
				t.Fatalf("%s: GetObs(%d) = %v", format, i, got)
			}
		}
		idx := []int{39, 0, 17, 17}
		batch := x.GetObsInto(nil, idx)
		data := batch.Data()
		again := x.GetObsInto(batch, []int{1, 2})
		if !slices.Equal(batch.Shape(), []int{4, 2, 3}) || &again.Data()[0] != &data[0] {
			t.Errorf("%s: batch shape %v; a smaller batch into it did not reuse its memory", format, batch.Shape())
		}
		var want []int16
		for _, i := range []int{1, 2} {
			want = append(want, rows[i]...)
		}
		if !slices.Equal(again.Data(), want) {
			t.Errorf("%s: GetObsInto = %v, want %v", format, again.Data(), want)
		}
		if _, err := shard.ArraysOf[float32](set, "x.npy"); err == nil || !strings.Contains(err.Error(), "<i2") || !strings.Contains(err.Error(), "<f4") {
			t.Errorf("%s: float32 over int16: %v", format, err)
		}
		set.Close()
	}

	// A tar set whose samples' arrays differ in shape.
	dir := t.TempDir()
	odd, _ := arraycontainer.New([]int16{1, 2}, []int{2}, obsdim.First)
	var buf bytes.Buffer
	npy.Write(&buf, odd)
	mixed := append(slices.Clone(smp[:3]), shard.Sample{Key: "odd", Fields: []shard.Field{{Name: "x.npy", Data: buf.Bytes()}}})
	shard.Pack(shard.Dir(dir), "m.json", "s", seq(mixed), shard.PackOptions{})
	set, _ := shard.Open(shard.Dir(dir), "m.json")
	x, _ := shard.ArraysOf[int16](set, "x.npy")
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "[2] <i2") {
			t.Errorf("a sample of another shape: %v", r)
		}
	}()
	x.GetObs(3)
}
