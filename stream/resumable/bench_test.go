package resumable_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/stream"
	"github.com/obskit/obskit/stream/resumable"
)

// BenchmarkOverhead runs 100,000 integers through a shuffle buffer of 1000 and
// batches of 32, as package stream's plain readers and as this package's nodes,
// alternating in every iteration; it reports each side's ns/value and the
// nodes' time over the plain readers' (resumable/stream).
func BenchmarkOverhead(b *testing.B) {
	const n = 100_000
	x := ints(0, n)
	plain := stream.Batches(stream.ShuffleBuffer(stream.FromSlice(x), 1000, rand.New(rand.NewPCG(1, 0))), 32, index.Keep)
	nodes := resumable.Batches(resumable.ShuffleBuffer(resumable.Slice(x), 1000, 1), 32, index.Keep).All()
	var tp, tr time.Duration
	run := func(r stream.Reader[[]int]) time.Duration {
		start := time.Now()
		for _, err := range r {
			if err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(start)
	}
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			tp += run(plain)
			tr += run(nodes)
		} else {
			tr += run(nodes)
			tp += run(plain)
		}
	}
	values := float64(b.N) * n
	b.ReportMetric(float64(tp.Nanoseconds())/values, "stream-ns/value")
	b.ReportMetric(float64(tr.Nanoseconds())/values, "resumable-ns/value")
	b.ReportMetric(float64(tr)/float64(tp), "resumable/stream")
}

// BenchmarkSave saves a pass standing in a shuffle buffer of 10,000 integers
// (full) over a slice: the time of a checkpoint and its size (state-bytes).
func BenchmarkSave(b *testing.B) {
	s := resumable.ShuffleBuffer(resumable.Slice(ints(0, 1_000_000)), 10_000, 1)
	p, _ := s.Start(nil)
	k := 0
	for _, err := range p.All() {
		if err != nil {
			b.Fatal(err)
		}
		if k++; k == 20_000 {
			break
		}
	}
	var st []byte
	for b.Loop() {
		st, _ = p.Save()
	}
	b.ReportMetric(float64(len(st)), "state-bytes")
	start := time.Now()
	q, err := s.Start(st)
	if err != nil {
		b.Fatal(err)
	}
	q.Close()
	b.ReportMetric(float64(time.Since(start).Microseconds()), "resume-µs")
}
