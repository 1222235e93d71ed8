package stream_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/mix"
	"github.com/obskit/obskit/stream"
)

// TestMixStream checks the stream mix against its rules: the values each rule
// yields, and every prefix within 1.5 values of the weights while all sources
// take part.
func TestMixStream(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for trial := range 300 {
		k := 1 + rng.IntN(4)
		w := make([]float64, k)
		srcs := make([]stream.Stream[int], k)
		n := make([]int, k)
		for j := range k {
			n[j], w[j] = rng.IntN(80), 0.2+rng.Float64()
			srcs[j] = stream.FromSlice(intsFrom(1000*j, n[j]))
		}
		rule := mix.Rule(rng.IntN(3))
		got, err := stream.Collect(stream.Mix(rule, w, rng.Uint64(), srcs...))
		count := make([]int, k)
		for _, v := range got {
			count[v/1000]++
		}
		switch rule {
		case mix.AllExhausted:
			if diff := cmp.Diff(n, count); err != nil || diff != "" {
				t.Fatalf("trial %d: all-exhausted mix of %v: counts mismatch (-want +got):\n%s (error %v)", trial, n, diff, err)
			}
		case mix.Resample:
			if j := slices.Index(n, 0); j >= 0 {
				if !errors.Is(err, container.ErrEmpty) {
					t.Fatalf("trial %d: resampled mix of %v: error %v, want ErrEmpty", trial, n, err)
				}
				continue
			}
			for j := range k {
				if count[j] < n[j] {
					t.Fatalf("trial %d: resampled mix of %v: counts %v, each source at least once", trial, n, count)
				}
			}
		case mix.FirstExhausted:
			for j := range k {
				if count[j] > n[j] {
					t.Fatalf("trial %d: first-exhausted mix of %v: counts %v", trial, n, count)
				}
			}
		}
		sum := 0.0 // an empty source leaves at once (or ends the stream)
		for j, x := range w {
			if n[j] > 0 {
				sum += x
			}
		}
		c := make([]int, k)
		for i, v := range got {
			j := v / 1000
			if c[j]++; c[j] == n[j] {
				break // a source has given all it has: the ratio changes
			}
			for s := range k {
				if n[s] == 0 {
					continue
				}
				if d := float64(c[s]) - float64(i+1)*w[s]/sum; d > 1.5 || d < -1.5 {
					t.Fatalf("trial %d: after %d values source %d has %d of %.2f", trial, i+1, s, c[s], float64(i+1)*w[s]/sum)
				}
			}
		}
	}
}

// TestMixEmptyResampled: an empty source of a resampled mix ends the stream
// with ErrEmpty naming it, when its first turn comes.
func TestMixEmptyResampled(t *testing.T) {
	got, err := read(t, stream.Mix(mix.Resample, []float64{3, 1}, 0, ints(10), ints(0)))
	if !errors.Is(err, container.ErrEmpty) || err.Error() != "stream.Mix: source 1 ended without a value: "+container.ErrEmpty.Error() || len(got) == 0 {
		t.Errorf("resampled mix with an empty source: %v then %v, want values then ErrEmpty naming source 1", got, err)
	}
}
