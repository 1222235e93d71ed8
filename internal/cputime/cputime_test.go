package cputime_test

import (
	"runtime"
	"testing"

	"github.com/obskit/obskit/internal/cputime"
)

// TestClocksAdvance: work done between two reads shows in both clocks, and
// the thread's clock never runs ahead of the process's.
func TestClocksAdvance(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p0, okP := cputime.Process()
	t0, okT := cputime.Thread()
	if !okP || (runtime.GOOS == "linux" && !okT) {
		t.Skipf("no CPU clock here (process %v, thread %v)", okP, okT)
	}
	x := 1.0
	for i := range 50_000_000 {
		x += float64(i) * 1e-9
	}
	p1, _ := cputime.Process()
	t1, _ := cputime.Thread()
	if x == 0 || p1 <= p0 {
		t.Fatalf("process clock %v -> %v after a busy loop", p0, p1)
	}
	if okT && (t1 <= t0 || t1-t0 > p1-p0+p1/100) {
		t.Fatalf("thread clock %v -> %v beside process %v -> %v", t0, t1, p0, p1)
	}
}
