package parquet_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/obskit/obskit/columnar/internal/interop"
	"github.com/obskit/obskit/columnar/parquet"
)

// FuzzOpen opens any bytes as a Parquet file and reads every column it can: an
// error, or values, or a panic in a gather with an error wrapping ErrFormat or
// ErrNull (the documented way a decode fails); never another panic.
func FuzzOpen(f *testing.F) {
	for _, name := range []string{"duckdb-struct.parquet", "rs-zstd.parquet"} {
		if b, err := os.ReadFile(interop.Path(name)); err == nil {
			f.Add(b)
		}
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.parquet")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		file, err := parquet.Open(path)
		if err != nil {
			if !errors.Is(err, parquet.ErrFormat) && !errors.Is(err, parquet.ErrUnsupported) {
				t.Fatalf("Open: error %v wraps neither ErrFormat nor ErrUnsupported", err)
			}
			return
		}
		if file.Nobs() > 1<<16 {
			return
		}
		for g := range file.RowGroups() {
			file.Rows(g)
		}
		for _, c := range file.Columns() {
			gather(t, func() { x, err := parquet.Numbers[int64](file, []string{c.Name}, parquet.Fill(int64(0))); all(x, err) })
			gather(t, func() {
				x, err := parquet.Numbers[float32](file, []string{c.Name}, parquet.Fill(float32(0)))
				all(x, err)
			})
			gather(t, func() { x, err := parquet.Strings(file, c.Name, parquet.NullEmpty()); all(x, err) })
			gather(t, func() {
				x, err := parquet.Lists[int32](file, c.Name, parquet.NullEmpty(), parquet.Fill(int32(0)))
				all(x, err)
			})
		}
	})
}

func gather(t *testing.T, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			err, ok := r.(error)
			if !ok || !errors.Is(err, parquet.ErrFormat) && !errors.Is(err, parquet.ErrNull) && !errors.Is(err, parquet.ErrType) {
				t.Fatalf("panic %v", r)
			}
		}
	}()
	f()
}

func all[T any](c interface {
	Nobs() int
	GetObs(int) T
}, err error) {
	if err != nil {
		return
	}
	for i := range c.Nobs() {
		c.GetObs(i)
	}
}
