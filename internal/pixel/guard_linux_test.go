package pixel

import (
	"syscall"
	"testing"
)

// guarded returns n bytes that end where an unreadable page begins, so that
// a kernel reading or writing one byte past them faults.
func guarded(t testing.TB, n int) []byte {
	page := syscall.Getpagesize()
	size := (n + page - 1) / page * page
	mem, err := syscall.Mmap(-1, 0, size+page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	if err := syscall.Mprotect(mem[size:], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Munmap(mem) })
	return mem[size-n : size : size]
}
