package arrowipc_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/columnar/arrowipc"
	"github.com/obskit/obskit/columnar/internal/arrowtest"
	"github.com/obskit/obskit/columnar/internal/interop"
	"github.com/obskit/obskit/container/containertest"
)

// table returns n rows of a float32 column x of width w (row i holds
// i*w .. i*w+w-1) and an int64 column y (row i holds 3i + 2^40).
func table(n, w int) []arrowtest.Column {
	x := make([]float32, n*w)
	for i := range x {
		x[i] = float32(i)
	}
	y := make([]int64, n)
	for i := range y {
		y[i] = 3*int64(i) + 1<<40
	}
	return []arrowtest.Column{{Name: "x", Float32: x, Width: w}, {Name: "y", Int64: y, Width: 1}}
}

func writeFile(t testing.TB, data []byte) string {
	path := filepath.Join(t.TempDir(), "t.arrow")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestWrittenTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for trial := range 12 {
		n, w := rng.IntN(200), 1+rng.IntN(6)
		o := arrowtest.Options{Stream: trial%2 == 1, Batch: rng.IntN(4) * rng.IntN(100), Codec: trial%3 - 1}
		t.Run(fmt.Sprintf("n=%d,w=%d,%+v", n, w, o), func(t *testing.T) {
			f, err := arrowipc.Open(writeFile(t, arrowtest.Write(table(n, w), o)), arrowipc.Cache(2))
			if err != nil {
				t.Fatal(err)
			}
			x, err := arrowipc.Numbers[float32](f, "x")
			if err != nil {
				t.Fatal(err)
			}
			y, err := arrowipc.Scalars[int64](f, "y")
			if err != nil {
				t.Fatal(err)
			}
			if x.Nobs() != n || len(y) != n || f.Stream() != o.Stream {
				t.Fatalf("Nobs %d, %d, stream %v; want %d, %v", x.Nobs(), len(y), f.Stream(), n, o.Stream)
			}
			if oneArray := f.Batches() == 1 && o.Codec == arrowtest.None; (x.Array() != nil) != oneArray {
				t.Errorf("Array() != nil is %v, want %v (one uncompressed batch)", x.Array() != nil, oneArray)
			}
			for i := range n {
				if got, want := y[i], 3*int64(i)+1<<40; got != want {
					t.Fatalf("y[%d] = %d, want %d", i, got, want)
				}
				got := x.GetObs(i).Clone().Data()
				for j, v := range got {
					if v != float32(i*w+j) {
						t.Fatalf("x[%d] = %v, want it to start at %d", i, got, i*w)
					}
				}
			}
			containertest.Run(t, x, containertest.Config[*arraycontainer.Array[float32], *arraycontainer.Array[float32]]{
				Obs: func(b *arraycontainer.Array[float32], j int) *arraycontainer.Array[float32] { return b.GetObs(j) },
				Len: func(b *arraycontainer.Array[float32]) int { return b.Nobs() },
			})
		})
	}
}

// TestNoAllocation pins the Arrow path at zero allocations per batch: one
// batch (the array kernel) and several (the chunk cursor; not under -race,
// whose sync.Pool drops the pooled index lists at random).
func TestNoAllocation(t *testing.T) {
	for _, batch := range []int{0, 97} {
		f, err := arrowipc.Open(writeFile(t, arrowtest.Write(table(1000, 16), arrowtest.Options{Batch: batch, Codec: arrowtest.None})))
		if err != nil {
			t.Fatal(err)
		}
		x, err := arrowipc.Numbers[float32](f, "x")
		if err != nil {
			t.Fatal(err)
		}
		idx := rand.New(rand.NewPCG(2, 2)).Perm(1000)[:128]
		b := x.GetObsInto(nil, idx)
		if n := testing.AllocsPerRun(100, func() { b = x.GetObsInto(b, idx) }); n != 0 && !(raceEnabled && batch > 0) {
			t.Errorf("batches of %d rows: %v allocations per GetObsInto, want 0", batch, n)
		}
	}
}

func TestCompressedCache(t *testing.T) {
	for _, codec := range []int{arrowtest.LZ4, arrowtest.ZSTD} {
		f, err := arrowipc.Open(writeFile(t, arrowtest.Write(table(1000, 4), arrowtest.Options{Batch: 100, Codec: codec})), arrowipc.Cache(3))
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Batch(0).Codec; got != []string{"lz4_frame", "zstd"}[codec] {
			t.Errorf("codec %q", got)
		}
		x, err := arrowipc.Numbers[float32](f, "x")
		if err != nil {
			t.Fatal(err)
		}
		var b *arraycontainer.Array[float32]
		for k := range 10 {
			b = x.GetObsInto(b, []int{100*k + 5, 100*k + 1})
			if got := b.At(1, 0); got != float32(4*(100*k+1)) {
				t.Fatalf("row %d: %v", 100*k+1, got)
			}
		}
	}
}

// TestBadFiles checks that damaged files are errors naming the file.
func TestBadFiles(t *testing.T) {
	good := arrowtest.Write(table(100, 4), arrowtest.Options{Batch: 30})
	stream := arrowtest.Write(table(100, 4), arrowtest.Options{Batch: 30, Stream: true})
	js, err := os.ReadFile(interop.Path("js.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	footerLen := func(b []byte, n int32) []byte {
		b = append([]byte{}, b...)
		b[len(b)-10], b[len(b)-9], b[len(b)-8], b[len(b)-7] = byte(n), byte(n>>8), byte(n>>16), byte(n>>24)
		return b
	}
	for name, data := range map[string][]byte{
		"truncated file":        good[:len(good)-3],
		"truncated half":        good[:len(good)/2],
		"truncated js":          js[:len(js)-200],
		"bad magic":             append([]byte("ARROWX\x00\x00"), good[8:]...),
		"footer too long":       footerLen(good, 1<<30),
		"footer negative":       footerLen(good, -5),
		"truncated stream":      stream[:len(stream)/2],
		"stream message":        stream[:5],
		"empty":                 {},
		"metadata past the end": append([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0x10}, make([]byte, 16)...),
	} {
		path := writeFile(t, data)
		_, err := arrowipc.Open(path)
		if !errors.Is(err, arrowipc.ErrFormat) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: Open error %v, want ErrFormat naming %s", name, err, path)
		}
	}
}

// FuzzOpen opens any bytes and reads every column: an error or values, never
// a panic other than the documented ones, never a hang.
func FuzzOpen(f *testing.F) {
	f.Add(arrowtest.Write(table(10, 3), arrowtest.Options{Batch: 4}))
	f.Add(arrowtest.Write(table(10, 3), arrowtest.Options{Batch: 4, Stream: true, Codec: arrowtest.ZSTD}))
	f.Add(arrowtest.Write(table(5, 2), arrowtest.Options{Codec: arrowtest.LZ4}))
	for _, fx := range []string{"js.arrows"} {
		if b, err := os.ReadFile(interop.Path(fx)); err == nil && len(b) < 1<<17 {
			f.Add(b)
		}
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.arrow")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		file, err := arrowipc.Open(path)
		if err != nil {
			if !errors.Is(err, arrowipc.ErrFormat) && !errors.Is(err, arrowipc.ErrUnsupported) {
				t.Fatalf("Open: error %v wraps neither ErrFormat nor ErrUnsupported", err)
			}
			return
		}
		if file.Nobs() > 1<<20 {
			return
		}
		var row []any
		for i := range min(file.Nobs(), 50) {
			row, _ = file.Row(i, row)
		}
		for _, fd := range file.Fields() {
			read(t, func() { c, err := arrowipc.Numbers[float32](file, fd.Name); use(c, err) })
			read(t, func() { c, err := arrowipc.Numbers[int64](file, fd.Name); use(c, err) })
			read(t, func() { c, err := arrowipc.Strings(file, fd.Name, arrowipc.NullEmpty()); use(c, err) })
			read(t, func() {
				c, err := arrowipc.Lists[int32](file, fd.Name, arrowipc.NullEmpty(), arrowipc.Fill(int32(0)))
				use(c, err)
			})
		}
	})
}

// read runs f, which may panic only with an error of the package (a
// compressed batch that does not decompress, read in a gather).
func read(t *testing.T, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			err, ok := r.(error)
			if !ok || !errors.Is(err, arrowipc.ErrFormat) {
				t.Fatalf("panic %v", r)
			}
		}
	}()
	f()
}

// use reads every observation of a container that opened.
func use[T any](c interface {
	Nobs() int
	GetObs(int) T
}, err error) {
	if err != nil {
		return
	}
	for i := range min(c.Nobs(), 100) {
		c.GetObs(i)
	}
}
