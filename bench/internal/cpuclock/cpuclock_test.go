package cpuclock

import (
	"runtime"
	"testing"
	"time"
)

// A busy thread's clock advances, and never faster than wall time.
func TestThreadAdvancesWhileRunning(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	w0, t0 := time.Now(), Thread()
	for Thread()-t0 < 10*time.Millisecond {
		if time.Since(w0) > 20*time.Second {
			t.Fatalf("%s advanced %v in 20s of busy looping", Measures, Thread()-t0)
		}
	}
	if cpu, wall := Thread()-t0, time.Since(w0); cpu > wall+time.Millisecond {
		t.Errorf("%s %v exceeds the wall time %v it was measured in", Measures, cpu, wall)
	}
}
