package bombtest

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// Headroom is the address space the body of [Capped] may map beyond what its
// process had mapped when the body started: 512 MiB. It holds the work of a
// test on small images, with the race detector's shadow memory (twice what
// the heap grows by) and the stacks of the threads of a loop with workers;
// it does not hold the smallest claim of the bombs, 1 GB.
const Headroom = 512 << 20

// childEnv names the test a child process of Capped runs capped.
const childEnv = "OBSKIT_BOMBTEST_CHILD"

// Capped runs body in a child process, the test binary run again with only
// t selected, whose address space (RLIMIT_AS) is capped at what it has mapped
// when body starts plus [Headroom]. An allocation over the cap makes the Go
// runtime stop the child with "fatal error: out of memory" (under the race
// detector, ThreadSanitizer's failure to map shadow memory, or "too many
// address space collisions"), which nothing can recover: so an allocation
// sized by a bomb's header fails the test with the child's output, while the
// test binary goes on. body's own failures fail the child, and so t, with
// the child's output too.
//
// The test's code before Capped runs in both processes, and must do the same
// in both (make the same files, from the same seeds). Capped skips t where
// the cap cannot be set (a system other than Linux). It must be called once
// per test, from the test's goroutine.
func Capped(t *testing.T, body func(t *testing.T)) {
	t.Helper()
	if isChild(t) {
		body(t)
		return
	}
	if err := canCap(); err != nil {
		t.Skipf("bombtest: %v", err)
	}
	out, err := runChild(t.Name())
	if err != nil {
		t.Fatalf("bombtest: %v:\n%s", err, tail(out))
	}
	t.Logf("bombtest: passed with the address space capped at %d MiB more than the child had:\n%s", Headroom>>20, tail(out))
}

// isChild reports whether this process is the child running t, and caps it
// if so.
func isChild(t *testing.T) bool {
	t.Helper()
	if os.Getenv(childEnv) != t.Name() {
		return false
	}
	limit, err := capSelf(Headroom)
	if err != nil {
		t.Fatalf("bombtest: cannot cap the address space: %v", err)
	}
	fmt.Printf("bombtest: %s runs with its address space capped at %d MiB\n", t.Name(), limit>>20)
	return true
}

// runChild runs the test name in a child process and returns its output,
// and an error when it fails or does not run the test.
func runChild(name string) ([]byte, error) {
	var run []string
	for _, part := range strings.Split(name, "/") {
		run = append(run, "^"+regexp.QuoteMeta(part)+"$")
	}
	cmd := exec.Command(os.Args[0], "-test.run="+strings.Join(run, "/"), "-test.v", "-test.count=1", "-test.timeout=5m")
	// Under the race detector, a process sleeps a second before it exits
	// (GORACE's atexit_sleep_ms): not the child.
	gorace := strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0")
	cmd.Env = append(os.Environ(), childEnv+"="+name, "GORACE="+gorace)
	out, err := cmd.CombinedOutput()
	switch {
	case err != nil:
		return out, fmt.Errorf("the capped child running %s failed (%v)", name, err)
	case !strings.Contains(string(out), "bombtest: "+name+" runs with"):
		return out, fmt.Errorf("the child did not run %s", name)
	}
	return out, nil
}

// tail returns the end of a child's output, where its failure is, without
// the goroutine dump of a fatal error.
func tail(out []byte) string {
	s := string(out)
	if i := strings.Index(s, "\ngoroutine "); i >= 0 {
		s = s[:i] + "\n[goroutines omitted]"
	}
	const max = 8 << 10
	if len(s) > max {
		s = "..." + s[len(s)-max:]
	}
	return s
}
