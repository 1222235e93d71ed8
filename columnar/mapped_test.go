package columnar_test

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/fileio"
	"github.com/obskit/obskit/fileio/mmap"
	"github.com/obskit/obskit/obsdim"
)

var errFault = errors.New("test fault")

// mapFile writes data to a file of t's and maps it.
func mapFile(t *testing.T, data []byte) (*mmap.Region, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "col.bin")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := mmap.Map(f, int64(len(data)), "columnar", errFault)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Release)
	return r, path
}

// mappedNumbers maps a file of one float32 of header then the values k = 0,
// 1, ... (value k at element 1+k), and returns the chunks of rows of width w
// in chunks of sizes sizes viewing it; goMem lists chunks whose values are a
// copy in Go memory instead.
func mappedNumbers(t *testing.T, sizes []int, w int, goMem ...int) columnar.Chunks[float32] {
	t.Helper()
	n := 0
	for _, s := range sizes {
		n += s
	}
	data := make([]byte, 4*(1+n*w))
	binary.LittleEndian.PutUint32(data, math.Float32bits(-7))
	for k := range n * w {
		binary.LittleEndian.PutUint32(data[4*(1+k):], math.Float32bits(float32(k)))
	}
	r, _ := mapFile(t, data)
	flat, ok := fileio.View[float32](r.Bytes())
	if !ok {
		t.Fatal("the mapping does not view as float32")
	}
	starts := []int{0}
	var parts []*columnar.Part[float32]
	for c, s := range sizes {
		lo := starts[len(starts)-1]
		vals := flat[1+lo*w : 1+(lo+s)*w]
		if slices.Contains(goMem, c) {
			vals = slices.Clone(vals)
		}
		parts = append(parts, &columnar.Part[float32]{Values: vals})
		starts = append(starts, lo+s)
	}
	return columnar.Chunks[float32]{Starts: starts, Part: func(c int) *columnar.Part[float32] { return parts[c] }, Region: r}
}

// TestNumbersMapped: a column whose chunks view a file mapping at an offset
// (the row kernel's gather over the mapping) reads row i as i*w .. i*w+w-1,
// as one whose chunk is in Go memory (the chunk by chunk copy) does; Chunk
// views a chunk, attached to the mapping; the contract holds; a gather into a
// buffer allocates nothing (not checked under -race, whose sync.Pool drops
// the pooled index lists at random).
func TestNumbersMapped(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sizes []int
		shape []int
		goMem []int
	}{
		{"scalars", []int{3, 0, 4, 5}, nil, nil},
		{"rows of 3", []int{3, 0, 4, 5}, []int{3}, nil},
		{"rows of 2x2, one chunk in memory", []int{6, 2, 5}, []int{2, 2}, []int{1}},
		{"one chunk", []int{9}, []int{2}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := 1
			for _, d := range tc.shape {
				w *= d
			}
			s := mappedNumbers(t, tc.sizes, w, tc.goMem...)
			c := columnar.NewNumbers("test", s, tc.shape, nil)
			if c.Array() != nil || c.Chunks() != len(tc.sizes) {
				t.Fatalf("Array() = %v, Chunks() = %d; want nil, %d", c.Array(), c.Chunks(), len(tc.sizes))
			}
			want := func(i int) []float32 {
				out := make([]float32, w)
				for j := range out {
					out[j] = float32(i*w + j)
				}
				return out
			}
			for i := range c.Nobs() {
				if got := c.GetObs(i); !slices.Equal(got.Clone().Data(), want(i)) || !slices.Equal(got.Shape(), tc.shape) && len(tc.shape) > 0 {
					t.Fatalf("GetObs(%d) = %v of shape %v, want %v of shape %v", i, got.Clone().Data(), got.Shape(), want(i), tc.shape)
				}
			}
			idx := []int{c.Nobs() - 1, 0, 4, 3, 3, c.Nobs() - 1, 1}
			b := c.GetObsInto(nil, idx)
			for k, i := range idx {
				if got := b.GetObs(k).Clone().Data(); !slices.Equal(got, want(i)) {
					t.Fatalf("GetObsInto(%v) row %d = %v, want %v", idx, k, got, want(i))
				}
			}
			if n := testing.AllocsPerRun(50, func() { b = c.GetObsInto(b, idx) }); n != 0 && !raceEnabled {
				t.Errorf("GetObsInto with a buffer: %v allocations, want 0", n)
			}
			for k := range c.Chunks() {
				a := c.Chunk(k)
				rows := s.Starts[k+1] - s.Starts[k]
				if wantShape := append([]int{rows}, tc.shape...); !slices.Equal(a.Shape(), wantShape) {
					t.Fatalf("Chunk(%d) shape %v, want %v", k, a.Shape(), wantShape)
				}
				var wantData []float32
				for i := s.Starts[k]; i < s.Starts[k+1]; i++ {
					wantData = append(wantData, want(i)...)
				}
				if got := a.Clone().Data(); !slices.Equal(got, wantData) && rows > 0 {
					t.Fatalf("Chunk(%d) = %v, want %v", k, got, wantData)
				}
				if mmap.Of(a) != s.Region {
					t.Errorf("Chunk(%d) is not attached to the mapping", k)
				}
			}
			containertest.Run(t, c, arrayConfig())
		})
	}
}

// TestNumbersWhole: a column that is one array in memory returns it from
// Array and gathers with it.
func TestNumbersWhole(t *testing.T) {
	vals := make([]float32, 12)
	for k := range vals {
		vals[k] = float32(k)
	}
	whole, err := arraycontainer.New(vals, []int{6, 2}, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	s := columnar.Chunks[float32]{Starts: []int{0, 6}, Part: func(int) *columnar.Part[float32] { return &columnar.Part[float32]{Values: vals} }}
	c := columnar.NewNumbers("test", s, []int{2}, whole)
	if c.Array() != whole {
		t.Fatalf("Array() = %v, want the whole column", c.Array())
	}
	if got := c.GetObsInto(nil, []int{5, 0}).Clone().Data(); !slices.Equal(got, []float32{10, 11, 0, 1}) {
		t.Errorf("GetObsInto([5 0]) = %v, want [10 11 0 1]", got)
	}
	containertest.Run(t, c, arrayConfig())
}

// TestPart: Null reads the validity bitmap, LSB first (no bitmap: nothing is
// null); Len counts the rows of 32-bit and 64-bit offsets; lists with 64-bit
// offsets read as those with 32-bit ones.
func TestPart(t *testing.T) {
	p := &columnar.Part[int32]{Values: []int32{1, 2, 3, 4, 5}, Off64: []int64{0, 2, 2, 5, 5, 5, 5, 5, 5, 5}, Valid: []byte{0b1011_0101, 0b1}}
	var nulls []int
	for r := range p.Len() {
		if p.Null(r) {
			nulls = append(nulls, r)
		}
	}
	if p.Len() != 9 || !slices.Equal(nulls, []int{1, 3, 6}) {
		t.Errorf("Len() = %d, null rows %v; want 9, [1 3 6]", p.Len(), nulls)
	}
	q := &columnar.Part[int32]{Values: p.Values, Off32: []int32{0, 2, 2, 5}}
	if q.Len() != 3 || q.Null(0) || q.Null(2) {
		t.Errorf("Len() = %d, Null(0), Null(2) = %v, %v; want 3, false, false", q.Len(), q.Null(0), q.Null(2))
	}
	l := columnar.NewLists("test", columnar.Chunks[int32]{Starts: []int{0, 9}, Part: func(int) *columnar.Part[int32] { return p }})
	if got := l.GetObsInto(columnar.Ragged[int32]{}, []int{2, 0, 1}); !cmp.Equal(got, columnar.Ragged[int32]{Offsets: []int{0, 3, 5, 5}, Values: []int32{3, 4, 5, 1, 2}}) {
		t.Errorf("GetObsInto([2 0 1]) = %v", got)
	}
	if n := (columnar.Ragged[int32]{}).Len(); n != 0 {
		t.Errorf("the zero Ragged has %d observations, want 0", n)
	}
}

// TestVarlenMapped: lists, strings and bytes whose values view a file
// mapping read the file's values; once the file is cut short under the
// mapping, a read of the lost page panics with a *mmap.FaultError wrapping
// the format's sentinel (GetObs, GetObsInto) or returns it (AppendObs), not a
// crash of the process.
func TestVarlenMapped(t *testing.T) {
	page := os.Getpagesize()
	data := make([]byte, 3*page)
	for k := range data {
		data[k] = 'a' + byte(k%26)
	}
	r, path := mapFile(t, data)
	b := r.Bytes()
	// Row 0 is the first 5 bytes, row 1 the bytes up to the 5th of the last
	// page, row 2 empty; chunk 0 holds rows 0 and 1, chunk 1 row 2.
	end := int64(2*page + 5)
	p := &columnar.Part[byte]{Values: b, Off64: []int64{0, 5, end}}
	chunks := columnar.Chunks[byte]{Starts: []int{0, 2, 3}, Region: r, Name: "col.bin: column \"s\"", Part: func(c int) *columnar.Part[byte] {
		if c == 0 {
			return p
		}
		return &columnar.Part[byte]{Values: b, Off64: []int64{end, end}}
	}}
	s := columnar.NewStrings("test", chunks)
	bin := s.Binary()
	i32, ok := fileio.View[int32](b)
	if !ok {
		t.Fatal("the mapping does not view as int32")
	}
	l := columnar.NewLists("test", columnar.Chunks[int32]{Starts: []int{0, 2}, Region: r, Part: func(int) *columnar.Part[int32] {
		return &columnar.Part[int32]{Values: i32, Off32: []int32{0, 1, int32(len(i32))}}
	}})
	wantRows := []string{string(data[:5]), string(data[5:end]), ""}
	for i, want := range wantRows {
		if got := s.GetObs(i); got != want {
			t.Fatalf("Strings.GetObs(%d) is %d bytes, %.8q..., want %d, %.8q...", i, len(got), got, len(want), want)
		}
		if got, err := bin.AppendObs(nil, i); string(got) != want || err != nil {
			t.Fatalf("Binary.AppendObs(nil, %d) is %d bytes, %.8q..., %v; want %d, %.8q...", i, len(got), got, err, len(want), want)
		}
	}
	if got := s.GetObsInto(columnar.Ragged[byte]{}, []int{1, 0}); string(got.At(0)) != wantRows[1] || string(got.At(1)) != wantRows[0] {
		t.Fatalf("Strings.GetObsInto([1 0]) = rows of %d, %d bytes, want %d, %d", len(got.At(0)), len(got.At(1)), len(wantRows[1]), len(wantRows[0]))
	}
	if got := l.GetObs(1); len(got) != len(i32)-1 || got[len(got)-1] != i32[len(i32)-1] {
		t.Fatalf("Lists.GetObs(1) has %d values, want %d", len(got), len(i32)-1)
	}
	if got, want := bin.Where(1), "col.bin: column \"s\": row 1"; got != want {
		t.Errorf("Where(1) = %q, want %q", got, want)
	}

	// The last page leaves the file.
	if err := os.Truncate(path, int64(2*page)); err != nil {
		t.Fatal(err)
	}
	fault := func(what string, read func()) {
		t.Helper()
		defer func() {
			t.Helper()
			p := recover()
			var fe *mmap.FaultError
			if err, ok := p.(error); !ok || !errors.As(err, &fe) || !errors.Is(err, errFault) {
				t.Errorf("%s: panic %v, want a *mmap.FaultError wrapping the format's sentinel", what, p)
			}
		}()
		read()
	}
	fault("Strings.GetObs", func() { s.GetObs(1) })
	fault("Strings.GetObsInto", func() { s.GetObsInto(columnar.Ragged[byte]{}, []int{0, 1}) })
	fault("Binary.GetObs", func() { bin.GetObs(1) })
	fault("Lists.GetObs", func() { l.GetObs(1) })
	dst := []byte("kept")
	if got, err := bin.AppendObs(dst, 1); !errors.Is(err, errFault) || string(got) != "kept" {
		t.Errorf("Binary.AppendObs of a lost page = %q, %v; want %q and an error wrapping the sentinel", got, err, "kept")
	}
	// The rows of the pages still in the file read as before.
	if got := s.GetObs(0); got != wantRows[0] {
		t.Errorf("Strings.GetObs(0) after the cut = %q, want %q", got, wantRows[0])
	}
	unnamed := columnar.NewStrings("test", columnar.Chunks[byte]{Starts: []int{0, 1}, Part: func(int) *columnar.Part[byte] { return p }}).Binary()
	if got := unnamed.Where(0); got != "row 0" {
		t.Errorf("Where(0) of a column with no name = %q, want \"row 0\"", got)
	}
}
