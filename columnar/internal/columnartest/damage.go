package columnartest

import (
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/columnar/internal/interop"
)

// ReadAll opens path with r and reads it every way the reader offers: the
// rows of every chunk, every column's nulls and validity, and every column
// with each accessor (numbers as float32 and int64 with a fill, scalars as
// int64, strings with NullEmpty, lists of int32 with both), gathering a few
// rows; then r.More's reads. It returns the errors the reads returned and
// the error values they panicked with, and Open's error. A panic with a
// value that is not an error fails the test.
func ReadAll(t *testing.T, r Reader, path string) (errs []error, open error) {
	t.Helper()
	f, err := r.Open(path)
	if err != nil {
		return nil, err
	}
	try := func(read func() error) {
		defer func() {
			if p := recover(); p != nil {
				err, ok := p.(error)
				if !ok {
					t.Fatalf("%s: panic %v", path, p)
				}
				errs = append(errs, err)
			}
		}()
		if err := read(); err != nil {
			errs = append(errs, err)
		}
	}
	n := f.Nobs()
	var idx []int
	for _, i := range []int{0, 1, 2, 3, 5, 50, 99, n / 2, n - 1} {
		if i >= 0 && i < n {
			idx = append(idx, i)
		}
	}
	for k := range len(f.Starts()) - 1 {
		try(func() error { _, err := f.ChunkRows(k); return err })
	}
	f32, i64, i32 := typed[float32](f), typed[int64](f), typed[int32](f)
	for _, fd := range f.Fields() {
		name := fd.Name
		try(func() error { _, err := f.Nulls(name); return err })
		try(func() error { _, err := f.Valid(name); return err })
		try(func() error {
			x, err := f32.Numbers(name, Opts{Fill: float32(-1)})
			if err == nil {
				x.GetObsInto(nil, idx)
			}
			return err
		})
		try(func() error {
			x, err := i64.Numbers(name, Opts{Fill: int64(-1)})
			if err == nil {
				x.GetObsInto(nil, idx)
			}
			return err
		})
		try(func() error { _, err := i64.Scalars(name, Opts{Fill: int64(-1)}); return err })
		try(func() error {
			x, err := f.Strings(name, Opts{NullEmpty: true})
			if err == nil {
				x.GetObsInto(columnar.Ragged[byte]{}, idx)
			}
			return err
		})
		try(func() error {
			x, err := i32.Lists(name, Opts{Fill: int32(-1), NullEmpty: true})
			if err == nil {
				x.GetObsInto(columnar.Ragged[int32]{}, idx)
				for _, i := range idx {
					x.GetObs(i)
				}
			}
			return err
		})
	}
	if r.More != nil {
		r.More(t, f, try)
	}
	return errs, nil
}

// Damage reads each damaged copy of a file (its name in messages) with
// ReadAll: Open succeeds or fails with an error wrapping one of r.OpenErrors
// that names the file; every read succeeds or fails with an error wrapping
// one of r.Errors that names the file; no trial allocates more than
// interop.AllocBound of the file's size.
func Damage(t *testing.T, r Reader, name string, size int, damages iter.Seq[interop.Damage]) {
	t.Helper()
	path := filepath.Join(t.TempDir(), strings.ReplaceAll(name, " ", "-"))
	bound := interop.AllocBound(size)
	trials := 0
	for d := range damages {
		if err := os.WriteFile(path, d.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		var open error
		var errs []error
		where := fmt.Sprintf("%s, %s", name, d.What)
		if got := interop.Allocated(func() { errs, open = ReadAll(t, r, path) }); got > bound {
			t.Errorf("%s: the reads allocated %d bytes, more than %d", where, got, bound)
		}
		if open != nil && (!wraps(open, r.OpenErrors) || !strings.Contains(open.Error(), path)) {
			t.Errorf("%s: Open error %v, want one wrapping one of %v naming the file", where, open, r.OpenErrors)
		}
		for _, err := range errs {
			if !wraps(err, r.Errors) || !strings.Contains(err.Error(), path) {
				t.Errorf("%s: read error %v, want one wrapping one of %v naming the file", where, err, r.Errors)
			}
		}
		trials++
	}
	t.Logf("%s: %d damaged copies", name, trials)
}

func wraps(err error, sentinels []error) bool {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// Damages returns the damage the suite does to every fixture: the file cut
// short at 8 places, 24 bits flipped one at a time at random places and 16
// in its last KiB (where the file format and Parquet keep their footers).
// Each package's own damage tests flip every bit of its metadata in small
// files; these are the reads of every writer's and codec's bytes.
func Damages(data []byte, seed uint64) iter.Seq[interop.Damage] {
	return func(yield func(interop.Damage) bool) {
		for _, s := range []iter.Seq[interop.Damage]{
			interop.Cuts(data, 8),
			interop.RandomFlips(data, 24, 0, len(data), seed),
			interop.RandomFlips(data, 16, len(data)-1024, len(data), seed+1),
		} {
			for d := range s {
				if !yield(d) {
					return
				}
			}
		}
	}
}

// runDamage runs Damage on the fixture fx at path with Damages.
func runDamage(t *testing.T, r Reader, path string, fx interop.Fixture) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	Damage(t, r, fx.Name, len(data), Damages(data, uint64(len(fx.Name))))
}
