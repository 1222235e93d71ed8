package bench

import (
	"bufio"
	"go/build"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/stream"
)

// The packing workload of issue 17: 10^6 token sequences whose lengths are
// those of real text on the machine, tokenized by whitespace: the paragraphs
// (runs of non-blank lines) of the Go source tree ($GOROOT/src/**/*.go) and of
// /usr/share/common-licenses, longer ones cut into rows of PackLength, the
// lengths drawn in a seeded order until there are PackSeqs of them.
const (
	PackSeqs   = 1_000_000
	PackLength = 512 // tokens per row
	PackRows   = 8   // rows per packed batch
)

// packLengths returns the lengths of the workload, read once per process.
var packLengths = sync.OnceValues(func() ([]int, error) {
	var lens []int
	add := func(path string) error {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 1<<16), 1<<24)
		para := 0
		flush := func() {
			for ; para > PackLength; para -= PackLength {
				lens = append(lens, PackLength)
			}
			if para > 0 {
				lens = append(lens, para)
			}
			para = 0
		}
		for sc.Scan() {
			if n := len(strings.Fields(sc.Text())); n > 0 {
				para += n
			} else {
				flush()
			}
		}
		flush()
		return sc.Err()
	}
	for _, root := range []string{filepath.Join(build.Default.GOROOT, "src"), "/usr/share/common-licenses"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || root != "/usr/share/common-licenses" && !strings.HasSuffix(path, ".go") {
				return nil // unreadable parts of the tree are left out
			}
			return add(path)
		})
		if err != nil {
			return nil, err
		}
	}
	rng := rand.New(rand.NewPCG(17, 7))
	out := make([]int, PackSeqs)
	for i := range out {
		out[i] = lens[rng.IntN(len(lens))]
	}
	return out, nil
})

// packSeqs returns the workload's sequences (views of one buffer of tokens: the
// values do not matter, only the lengths) and their total number of tokens.
func packSeqs(b *testing.B) ([][]int32, int) {
	lens, err := packLengths()
	if err != nil {
		b.Skipf("no text to measure sequence lengths on: %v", err)
	}
	tokens := make([]int32, PackLength)
	for i := range tokens {
		tokens[i] = int32(i + 1)
	}
	seqs := make([][]int32, len(lens))
	total := 0
	for i, n := range lens {
		seqs[i], total = tokens[:n:n], total+n
	}
	return seqs, total
}

// padded counts the padding and the slots of one way of batching the workload.
type padded struct{ pad, slots int }

func (p padded) fraction() float64 { return float64(p.pad) / float64(p.slots) }

// BenchmarkPack packs the 10^6 sequences into batches of 8 rows of 512 tokens
// per operation, first-fit (16 open rows, the kit side) and best-fit-decreasing
// (windows of 1024 sequences), beside length bucketing (stream.Bucket with
// boundaries 16, 32, ..., 256 and batches of about 4096 tokens, padded to the
// longest of each batch by stream.Mask) and plain padding (batches of 64
// sequences in their order, padded to the longest). x-<side> is that side's time
// over first-fit's; padding-<side> is the fraction of the batches' slots that are
// padding, and padding-rows that of one sequence per row of 512.
func BenchmarkPack(b *testing.B) {
	seqs, total := packSeqs(b)
	bytes := int64(total) * 4
	counts := map[string]*padded{}
	pack := func(name string, opts stream.PackOptions) side {
		c := &padded{}
		counts[name] = c
		s := stream.Pack(stream.FromSlice(seqs), PackLength, PackRows, opts)
		return timed(name, bytes, func() {
			*c = padded{}
			for p, err := range s.All() {
				if err != nil {
					b.Fatal(err)
				}
				c.pad, c.slots = c.pad+p.Padding, c.slots+len(p.Tokens)
			}
		})
	}
	masked := func(name string, batches func() stream.Stream[[][]int32]) side {
		c := &padded{}
		counts[name] = c
		return timed(name, bytes, func() {
			*c = padded{}
			for m, err := range stream.Mask(batches(), 0).All() {
				if err != nil {
					b.Fatal(err)
				}
				real := 0
				for _, n := range m.Lens {
					real += n
				}
				c.pad, c.slots = c.pad+len(m.Data)-real, c.slots+len(m.Data)
			}
		})
	}
	boundaries := []int{16, 32, 64, 128, 256}
	sizes := []int{256, 128, 64, 32, 16, 8} // about 4096 tokens a batch
	paired(b, "MB/s", false,
		pack("pack-ff", stream.PackOptions{Method: stream.FirstFit, Window: 16}),
		pack("pack-bfd", stream.PackOptions{Method: stream.BestFitDecreasing, Window: 1024}),
		masked("bucket", func() stream.Stream[[][]int32] {
			return stream.Bucket(stream.FromSlice(seqs), func(s []int32) int { return len(s) }, boundaries, sizes, index.Keep)
		}),
		masked("batch", func() stream.Stream[[][]int32] { return stream.Batches(stream.FromSlice(seqs), 64, index.Keep) }),
	)
	for name, c := range counts {
		b.ReportMetric(c.fraction(), "padding-"+name)
	}
	b.ReportMetric(1-float64(total)/float64(len(seqs)*PackLength), "padding-rows")
	b.ReportMetric(float64(len(seqs))/float64(total), "seqs/token")
}
