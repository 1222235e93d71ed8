package recordio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/internal/filetest"
	"github.com/obskit/obskit/subset"
)

// randomRecords returns n payloads of random sizes, some holding the magic
// number at aligned and unaligned offsets, some empty.
func randomRecords(rng *rand.Rand, n, maxSize int) [][]byte {
	magic := binary.LittleEndian.AppendUint32(nil, Magic)
	recs := make([][]byte, n)
	for i := range recs {
		p := make([]byte, rng.IntN(maxSize+1))
		for j := range p {
			p[j] = byte(rng.Uint32())
		}
		for range rng.IntN(4) {
			if len(p) >= 4 {
				at := rng.IntN(len(p) - 3)
				if rng.IntN(2) == 0 {
					at &^= 3
				}
				copy(p[at:], magic)
			}
		}
		recs[i] = p
	}
	return recs
}

// naiveEncode encodes records the slow way, straight from the format's rule,
// as a reference for Writer.
func naiveEncode(recs [][]byte) ([]byte, Index) {
	var out []byte
	var ix Index
	word := func(w uint32) { out = binary.LittleEndian.AppendUint32(out, w) }
	for k, p := range recs {
		ix = append(ix, Entry{Key: int64(k), Offset: int64(len(out))})
		var cuts []int
		for i := 0; i+4 <= len(p); i += 4 {
			if binary.LittleEndian.Uint32(p[i:]) == Magic {
				cuts = append(cuts, i)
			}
		}
		start := 0
		for n, c := range cuts {
			flag := uint32(2)
			if n == 0 {
				flag = 1
			}
			word(Magic)
			word(flag<<29 | uint32(c-start))
			out = append(out, p[start:c]...)
			start = c + 4
		}
		flag := uint32(0)
		if len(cuts) > 0 {
			flag = 3
		}
		word(Magic)
		word(flag<<29 | uint32(len(p)-start))
		out = append(out, p[start:]...)
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
	}
	return out, ix
}

func encode(t testing.TB, recs [][]byte) ([]byte, Index) {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	var ix Index
	for k, p := range recs {
		off, err := w.Write(p)
		if err != nil {
			t.Fatal(err)
		}
		ix = append(ix, Entry{Key: int64(k), Offset: off})
	}
	return buf.Bytes(), ix
}

// TestRoundTrip writes random records, compares the bytes with the naive
// encoder's and reads them back every way, whole and by prefix.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 1))
	for trial := range 50 {
		recs := randomRecords(rng, rng.IntN(30), 64)
		b, ix := encode(t, recs)
		want, wantIx := naiveEncode(recs)
		if !bytes.Equal(b, want) || !slices.Equal(ix, wantIx) {
			t.Fatalf("trial %d: Writer's bytes or offsets differ from the naive encoder's", trial)
		}
		r := NewReader(bytes.NewReader(b))
		for k, p := range recs {
			got, err := r.Next()
			if err != nil || !bytes.Equal(got, p) || r.Offset() != ix[k].Offset {
				t.Fatalf("trial %d: record %d: Reader gives %x at %d (%v), want %x at %d", trial, k, got, r.Offset(), err, p, ix[k].Offset)
			}
		}
		path := writeTemp(t, "r.rec", b)
		for _, open := range []func() (*File, error){
			func() (*File, error) { return NewFile(bytes.NewReader(b), int64(len(b)), "mem", nil) },
			func() (*File, error) { return NewFile(bytes.NewReader(b), int64(len(b)), "mem", ix) },
			func() (*File, error) { return Open(path, "") },
		} {
			f, err := open()
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range recs {
				for _, n := range []int{0, 1, 3, 4, 5, 7, 8, 9, rng.IntN(70), len(p), len(p) + 1} {
					pre, err := f.AppendPrefix([]byte("x"), i, n)
					if err != nil || string(pre) != "x"+string(p[:min(n, len(p))]) {
						t.Fatalf("trial %d: AppendPrefix(x, %d, %d) = %x, %v; want x and %x", trial, i, n, pre, err, p[:min(n, len(p))])
					}
				}
			}
			got := f.GetObsInto(nil, iota(len(recs)))
			if len(recs) == 0 && len(got) == 0 {
				continue
			}
			if d := cmp.Diff(recs, got); d != "" {
				t.Fatalf("trial %d: File records mismatch (-want +got):\n%s", trial, d)
			}
		}
	}
}

func iota(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestContainer runs the conformance checker over Files opened every way.
func TestContainer(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 2))
	recs := randomRecords(rng, 40, 300)
	recs[3] = []byte{}
	b, ix := encode(t, recs)
	path := writeTemp(t, "c.rec", b)
	idx := writeTemp(t, "c.idx", nil)
	fi, _ := os.Create(idx)
	ix.WriteTo(fi)
	fi.Close()
	// A shuffled index with other keys: the records still come in file order.
	perm := rng.Perm(len(ix))
	shuffled := make(Index, len(ix))
	for i, j := range perm {
		shuffled[i] = Entry{Key: 1000 - int64(j), Offset: ix[j].Offset}
	}
	empty := writeTemp(t, "empty.rec", nil)
	for _, c := range []struct {
		name string
		open func() (*File, error)
		n    int
	}{
		{"mapped/scan", func() (*File, error) { return Open(path, "") }, 40},
		{"mapped/index", func() (*File, error) { return Open(path, idx) }, 40},
		{"ReaderAt/shuffled index", func() (*File, error) { return NewFile(bytes.NewReader(b), int64(len(b)), "mem", shuffled) }, 40},
		{"mapped/empty", func() (*File, error) { return Open(empty, "") }, 0},
		{"ReaderAt/empty index", func() (*File, error) { return NewFile(bytes.NewReader(b), int64(len(b)), "mem", Index{}) }, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := c.open()
			if err != nil {
				t.Fatal(err)
			}
			if f.Nobs() != c.n {
				t.Fatalf("Nobs() = %d, want %d", f.Nobs(), c.n)
			}
			for i := range c.n {
				if !bytes.Equal(f.GetObs(i), recs[i]) {
					t.Fatalf("GetObs(%d) is not record %d", i, i)
				}
			}
			if c.name == "ReaderAt/shuffled index" {
				for i := range c.n {
					if k := f.Key(i); k != 1000-int64(i) {
						t.Fatalf("Key(%d) = %d, want %d", i, k, 1000-i)
					}
				}
			}
			cfg := containertest.SliceConfig[[]byte]()
			cfg.Options = []cmp.Option{cmp.Comparer(bytes.Equal)} // quicker than element by element
			containertest.Run(t, f, cfg)
		})
	}
}

// TestGetObsIntoReuse pins GetObsInto at zero allocations once the batch's
// slices have grown, for a mapped file and one read through ReaderAt.
func TestGetObsIntoReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 3))
	b, _ := encode(t, randomRecords(rng, 64, 2000))
	mapped, err := Open(writeTemp(t, "r.rec", b), "")
	if err != nil {
		t.Fatal(err)
	}
	ra, err := NewFile(bytes.NewReader(b), int64(len(b)), "mem", nil)
	if err != nil {
		t.Fatal(err)
	}
	idx := rng.Perm(64)[:32]
	for _, f := range []*File{mapped, ra} {
		var batch [][]byte
		for range 2 {
			batch = f.GetObsInto(batch, idx)
		}
		if n := testing.AllocsPerRun(20, func() { batch = f.GetObsInto(batch, idx) }); n != 0 {
			t.Errorf("%s: GetObsInto allocates %v times per batch, want 0", f.Name(), n)
		}
	}
}

// TestPartition checks that subset.Partition of a File puts every record in
// exactly one part, in file order.
func TestPartition(t *testing.T) {
	f, err := Open("testdata/raw.rec", "testdata/raw.idx")
	if err != nil {
		t.Fatal(err)
	}
	for parts := 1; parts <= 6; parts++ {
		var keys []int64
		for k := range parts {
			p, err := subset.Partition(f, nil, index.Part{Index: k, Parts: parts})
			if err != nil {
				t.Fatal(err)
			}
			for _, rec := range p.GetObsInto(nil, iota(p.Nobs())) {
				i := slices.IndexFunc(iota(f.Nobs()), func(i int) bool { return bytes.Equal(f.GetObs(i), rec) && !slices.Contains(keys, f.Key(i)) })
				keys = append(keys, f.Key(i))
			}
		}
		want := make([]int64, f.Nobs())
		for i := range want {
			want[i] = f.Key(i)
		}
		if d := cmp.Diff(want, keys); d != "" {
			t.Errorf("%d parts: the parts together are not the file's records in order (-want +got):\n%s", parts, d)
		}
	}
}

// TestTruncatedAfterOpen shrinks a mapped file and reads a record it lost:
// AppendObs returns an error wrapping ErrFault that names the file, the record
// and its offset, and dst's bytes alone; GetObs and GetObsInto panic with it.
func TestTruncatedAfterOpen(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 4))
	b, _ := encode(t, randomRecords(rng, 8, 10000))
	path := writeTemp(t, "t.rec", b)
	f, err := Open(path, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 4096); err != nil {
		t.Fatal(err)
	}
	last := f.Nobs() - 1
	if f.Offset(last) < 8192 {
		t.Fatalf("the last record starts at %d, not past the truncated pages", f.Offset(last))
	}
	got, err := f.AppendObs([]byte("kept"), last)
	where := fmt.Sprintf("record of key %d at offset %d", last, f.Offset(last))
	if !errors.Is(err, ErrFault) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), where) {
		t.Fatalf("AppendObs of a lost page: %v, want ErrFault naming %s and the %s", err, path, where)
	}
	if string(got) != "kept" {
		t.Errorf("AppendObs(\"kept\", _) of a lost page returned %q, want dst's bytes alone", got)
	}
	for _, read := range []func(){func() { f.GetObs(last) }, func() { f.GetObsInto(nil, []int{0, last}) }} {
		e, _ := recovered(read).(error)
		if !errors.Is(e, ErrFault) || e.Error() != err.Error() {
			t.Errorf("read of a lost page panicked with %v, want the error of AppendObs", e)
		}
	}
}

// TestReaderAllocation checks that a length word claiming 512 MiB in a stream
// of unknown size costs no more than the bytes that arrive, and that a Reader
// reuses its memory from record to record.
func TestReaderAllocation(t *testing.T) {
	b := binary.LittleEndian.AppendUint32(nil, Magic)
	b = binary.LittleEndian.AppendUint32(b, MaxSize)
	b = append(b, make([]byte, 1000)...)
	var err error
	n := filetest.Allocated(func() { _, err = NewReader(onlyReader{bytes.NewReader(b)}).Next() })
	if !errors.Is(err, ErrFormat) {
		t.Fatalf("Next: %v, want ErrFormat", err)
	}
	if n > 4<<20 { // 1 MiB of growth and the 64 KiB buffer; more under -race
		t.Errorf("a claim of 512 MiB in a stream of 1 KB allocated %d bytes", n)
	}

	rng := rand.New(rand.NewPCG(16, 5))
	recs, _ := encode(t, randomRecords(rng, 200, 500))
	br := bytes.NewReader(recs)
	r := NewReader(br)
	for range 20 {
		r.Next()
	}
	if a := testing.AllocsPerRun(100, func() {
		if _, err := r.Next(); err != nil {
			br.Seek(0, 0)
			r = NewReader(br)
		}
	}); a > 0.2 {
		t.Errorf("Next allocates %v times per record, want 0 in steady state", a)
	}
}
