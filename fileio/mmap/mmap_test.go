package mmap

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

func writeFile(t *testing.T, b []byte) *os.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

var errFault = errors.New("test fault")

// sink keeps a read the compiler would otherwise drop.
var sink byte

// collect runs garbage collections until at most want regions are live, or up to
// 200 times; cleanups run on their own goroutine, which the loop yields to.
func collect(want int64) int64 {
	for range 200 {
		if Live() <= want {
			break
		}
		runtime.GC()
		runtime.Gosched()
	}
	return Live()
}

func TestMap(t *testing.T) {
	content := []byte("hello, mapped world")
	f := writeFile(t, content)
	base := collect(0)
	r, err := Map(f, int64(len(content)), "pkg", errFault)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(r.Bytes(), content) || r.name != f.Name() {
		t.Errorf("mapped %q of %s, want %q of %s", r.Bytes(), r.name, content, f.Name())
	}
	if Live() != base+1 {
		t.Errorf("Live = %d after Map, want %d", Live(), base+1)
	}
	r.Bytes()[0] = 'J' // copy-on-write: the file keeps its byte
	r.Release()
	r.Release()
	if Live() != base {
		t.Errorf("Live = %d after Release, want %d", Live(), base)
	}
	if b, _ := os.ReadFile(f.Name()); !bytes.Equal(b, content) {
		t.Errorf("file became %q after a write to the mapping", b)
	}
	empty, err := Map(f, 0, "pkg", errFault)
	if err != nil || len(empty.Bytes()) != 0 || Live() != base {
		t.Errorf("Map of 0 bytes = %v, %v, %d live", empty, err, Live())
	}
	empty.Release()
}

func TestReleasedWhenUnreachable(t *testing.T) {
	f := writeFile(t, make([]byte, 3*4096))
	base := collect(0)
	func() {
		for range 3 {
			if _, err := Map(f, 3*4096, "pkg", errFault); err != nil {
				t.Fatal(err)
			}
		}
	}()
	if got := collect(base); got != base {
		t.Errorf("Live = %d after the regions became unreachable, want %d", got, base)
	}
}

// TestGuard truncates a mapped file and reads a page it lost under Guard: the
// fault becomes a panic with a *FaultError (or, with RecoverError, an error);
// other panics go through unchanged.
func TestGuard(t *testing.T) {
	if !Mapping {
		t.Skip("files are read into memory on this platform: nothing faults")
	}
	f := writeFile(t, make([]byte, 4*4096))
	r, err := Map(f, 4*4096, "pkg", errFault)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	if err := os.Truncate(f.Name(), 4096); err != nil {
		t.Fatal(err)
	}
	read := func(i int) (b byte, p any) {
		defer func() { p = recover() }()
		defer r.Recover(r.Guard())
		return r.Bytes()[i], nil
	}
	if b, p := read(100); p != nil || b != 0 {
		t.Errorf("read of a page the file kept = %v, %v", b, p)
	}
	_, p := read(3*4096 + 5)
	fe, ok := p.(*FaultError)
	if !ok {
		t.Fatalf("read of a lost page panicked with %T %v, want a *FaultError", p, p)
	}
	want := "pkg: " + f.Name() + ": test fault: access to byte 12293 of the 16384 mapped bytes failed"
	if fe.Offset != 3*4096+5 || !strings.HasPrefix(fe.Error(), want) || !errors.Is(fe, errFault) {
		t.Errorf("FaultError = %v (offset %d), want it to start with %q and wrap the sentinel", fe, fe.Offset, want)
	}
	var re runtime.Error
	if !errors.As(fe, &re) {
		t.Error("FaultError does not wrap the runtime's error")
	}
	if _, p := read(1 << 20); p == nil || strings.Contains(p.(error).Error(), "test fault") {
		t.Errorf("an index out of range under Guard panicked with %v, want the runtime's index error unchanged", p)
	}
	get := func() (err error) {
		defer r.RecoverError(r.Guard(), &err)
		sink = r.Bytes()[3*4096]
		return nil
	}
	if err := get(); !errors.Is(err, errFault) {
		t.Errorf("RecoverError gave %v, want an error wrapping the sentinel", err)
	}
}

// TestMapCollects checks that a mapping refused for lack of address space is
// tried again after a collection has released the regions nothing reaches.
func TestMapCollects(t *testing.T) {
	f := writeFile(t, make([]byte, 4096))
	base := collect(0)
	func() {
		if _, err := Map(f, 4096, "pkg", errFault); err != nil {
			t.Fatal(err)
		}
	}()
	full := base + 1 // the address space is "full" while the lost region is mapped
	tries := 0
	mapFn = func(f *os.File, size int) ([]byte, bool, error) {
		tries++
		if Live() >= full {
			return nil, false, &os.PathError{Op: "mmap", Path: f.Name(), Err: syscall.ENOMEM}
		}
		return mapFile(f, size)
	}
	defer func() { mapFn = mapFile }()
	r, err := Map(f, 4096, "pkg", errFault)
	if err != nil {
		t.Fatalf("Map with an unreachable region holding the address space: %v after %d tries", err, tries)
	}
	r.Release()
	if Live() != base {
		t.Errorf("Live = %d, want %d", Live(), base)
	}

	mapFn = func(f *os.File, size int) ([]byte, bool, error) {
		return nil, false, &os.PathError{Op: "mmap", Path: f.Name(), Err: syscall.ENOMEM}
	}
	if _, err := Map(f, 4096, "pkg", errFault); !errors.Is(err, syscall.ENOMEM) {
		t.Errorf("Map when memory stays out: %v, want ENOMEM", err)
	}
}
