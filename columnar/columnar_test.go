package columnar_test

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/container/containertest"
)

// chunked splits rows 0..n-1 of width w (value r*w+j at row r, column j) into
// chunks of the given sizes, each in its own memory.
func chunked(sizes []int, w int) columnar.Chunks[float32] {
	starts := []int{0}
	var parts []*columnar.Part[float32]
	for _, s := range sizes {
		lo := starts[len(starts)-1]
		vals := make([]float32, s*w)
		for i := range vals {
			vals[i] = float32(lo*w + i)
		}
		parts = append(parts, &columnar.Part[float32]{Values: vals})
		starts = append(starts, lo+s)
	}
	return columnar.Chunks[float32]{Starts: starts, Part: func(c int) *columnar.Part[float32] { return parts[c] }}
}

func arrayConfig() containertest.Config[*arraycontainer.Array[float32], *arraycontainer.Array[float32]] {
	return containertest.Config[*arraycontainer.Array[float32], *arraycontainer.Array[float32]]{
		Obs: func(b *arraycontainer.Array[float32], j int) *arraycontainer.Array[float32] { return b.GetObs(j) },
		Len: func(b *arraycontainer.Array[float32]) int { return b.Nobs() },
	}
}

func raggedConfig[E any]() containertest.Config[[]E, columnar.Ragged[E]] {
	return containertest.Config[[]E, columnar.Ragged[E]]{
		Obs: func(b columnar.Ragged[E], j int) []E { return append([]E{}, b.At(j)...) },
		Len: func(b columnar.Ragged[E]) int { return b.Len() },
	}
}

func TestNumbersConformance(t *testing.T) {
	for _, sizes := range [][]int{{}, {5}, {3, 0, 4, 1}, {1, 1, 1}} {
		for _, shape := range [][]int{{}, {3}, {2, 2}} {
			w := 1
			for _, d := range shape {
				w *= d
			}
			c := columnar.NewNumbers("test", chunked(sizes, w), shape, nil)
			containertest.Run(t, c, arrayConfig())
			// Row r reads r*w .. r*w+w-1 in the observation shape.
			for i := range c.Nobs() {
				got := c.GetObs(i)
				if !cmp.Equal(got.Shape(), shape) && !(len(shape) == 0 && got.Rank() == 0) {
					t.Fatalf("GetObs(%d) shape %v, want %v", i, got.Shape(), shape)
				}
				for j, v := range got.Clone().Data() {
					if v != float32(i*w+j) {
						t.Fatalf("GetObs(%d)[%d] = %v, want %v", i, j, v, i*w+j)
					}
				}
			}
		}
	}
}

func TestNumbersNoAllocation(t *testing.T) {
	c := columnar.NewNumbers("test", chunked([]int{100, 50, 80}, 8), []int{8}, nil)
	idx := rand.New(rand.NewPCG(1, 2)).Perm(230)[:64]
	buf := c.GetObsInto(nil, idx)
	if n := testing.AllocsPerRun(100, func() { buf = c.GetObsInto(buf, idx) }); n != 0 && !raceEnabled {
		t.Errorf("GetObsInto with a buffer: %v allocations, want 0", n)
	}
}

// lists returns a Lists whose row i holds i%4 values i, i+1, ... in chunks of
// the given sizes.
func lists(sizes []int) *columnar.Lists[int32] {
	starts := []int{0}
	var parts []*columnar.Part[int32]
	for _, s := range sizes {
		lo := starts[len(starts)-1]
		p := &columnar.Part[int32]{Off32: []int32{0}}
		for i := lo; i < lo+s; i++ {
			for k := range i % 4 {
				p.Values = append(p.Values, int32(i+k))
			}
			p.Off32 = append(p.Off32, int32(len(p.Values)))
		}
		parts = append(parts, p)
		starts = append(starts, lo+s)
	}
	return columnar.NewLists("test", columnar.Chunks[int32]{Starts: starts, Part: func(c int) *columnar.Part[int32] { return parts[c] }})
}

func TestListsConformance(t *testing.T) {
	for _, sizes := range [][]int{{}, {7}, {3, 0, 9}} {
		c := lists(sizes)
		containertest.Run(t, c, raggedConfig[int32]())
		for i := range c.Nobs() {
			want := []int32{}
			for k := range i % 4 {
				want = append(want, int32(i+k))
			}
			if got := c.GetObs(i); !cmp.Equal(got, want) {
				t.Fatalf("GetObs(%d) = %v, want %v", i, got, want)
			}
		}
	}
	c := lists([]int{40, 60})
	idx := rand.New(rand.NewPCG(3, 4)).Perm(100)[:32]
	buf := c.GetObsInto(columnar.Ragged[int32]{}, idx)
	if n := testing.AllocsPerRun(100, func() { buf = c.GetObsInto(buf, idx) }); n != 0 && !raceEnabled {
		t.Errorf("GetObsInto with a buffer: %v allocations, want 0", n)
	}
}

func TestStringsDictionary(t *testing.T) {
	dict := &columnar.Part[byte]{Values: []byte("redgreenblue"), Off32: []int32{0, 3, 8, 12}}
	p := &columnar.Part[byte]{Keys: []int32{2, 0, -1, 1, 1}, Dict: dict}
	c := columnar.NewStrings("test", columnar.Chunks[byte]{Starts: []int{0, 5}, Part: func(int) *columnar.Part[byte] { return p }})
	var got []string
	for i := range c.Nobs() {
		got = append(got, c.GetObs(i))
	}
	if want := []string{"blue", "red", "", "green", "green"}; !cmp.Equal(got, want) {
		t.Errorf("GetObs mismatch (-want +got):\n%s", cmp.Diff(want, got))
	}
	containertest.Run(t, c, containertest.Config[string, columnar.Ragged[byte]]{
		Obs: func(b columnar.Ragged[byte], j int) string { return string(b.At(j)) },
		Len: func(b columnar.Ragged[byte]) int { return b.Len() },
	})
}
