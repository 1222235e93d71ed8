package shard

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestWholeReuse: a set reading its shards in order holds each whole (read
// ahead at its second read), gives its memory back once every sample of it
// was read, and reads the next shard whole into that memory: over an epoch
// of 12 shards of about 40 KiB, the memory of shards held whole comes from
// at most two allocations, and the set's count of the memory it holds
// (shards held whole and spares) matches them and stays within MaxMemory.
// A second epoch reads each shard whole again, into the same memory.
func TestWholeReuse(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	samples := func(yield func(Sample, error) bool) {
		for i := range 120 {
			data := make([]byte, 3000+rng.IntN(2000))
			for k := range data {
				data[k] = byte(rng.Uint32())
			}
			if !yield(Sample{Key: fmt.Sprintf("%04d", i), Fields: []Field{{Name: "bin", Data: data}}}, nil) {
				return
			}
		}
	}
	m, err := Pack(Dir(dir), "m.json", "s", samples, PackOptions{ShardBytes: 40 << 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Shards) < 10 {
		t.Fatalf("%d shards", len(m.Shards))
	}
	const maxMem = 200 << 10
	s, err := Open(Dir(dir), "m.json", MaxMemory(maxMem))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	buffers := map[*byte]bool{}
	wholes := 0
	var smp Sample
	for epoch := range 2 {
		for i := range s.Nobs() {
			if err := s.ReadSample(&smp, i); err != nil {
				t.Fatal(err)
			}
			c := &s.cache
			c.mu.Lock()
			var held int64
			for _, st := range c.live {
				if w := st.whole.Load(); w != nil {
					held += w.held()
					if !buffers[unsafe.SliceData(w.files[0])] {
						buffers[unsafe.SliceData(w.files[0])] = true
					}
					wholes++
				}
			}
			for _, b := range c.spare {
				held += int64(cap(b))
			}
			if held != c.mem || c.mem > maxMem {
				t.Fatalf("epoch %d, sample %d: the set counts %d bytes, holds %d (MaxMemory %d)", epoch, i, c.mem, held, maxMem)
			}
			c.mu.Unlock()
		}
	}
	if wholes == 0 || len(buffers) > 2 {
		t.Errorf("%d shards read whole over two epochs took %d buffers, want 1 or 2", len(m.Shards)*2, len(buffers))
	}
}
