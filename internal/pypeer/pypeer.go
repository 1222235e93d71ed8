// Package pypeer runs the Python peers of the kit's benchmarks and tests: the
// interpreter they use (the environment variable PYTHON, Debian's
// /usr/bin/python3 by default), whether it has a module, and a script that
// answers each request line with one line, such as Pillow's decoder beside
// imagecodec's (imagecodec/turbo) and torchvision's DataLoader beside the
// kit's image loops (augment/testdata/torchvision_peer.py, driven by
// [Peer.Epoch]). It is for tests and benchmarks only.
package pypeer

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Python returns the interpreter of the peers: PYTHON, or /usr/bin/python3.
func Python() string {
	if p := os.Getenv("PYTHON"); p != "" {
		return p
	}
	return "/usr/bin/python3"
}

// Has returns nil when [Python] imports module, or the error saying why not.
func Has(module string) error {
	if err := exec.Command(Python(), "-c", "import "+module).Run(); err != nil {
		return fmt.Errorf("%s -c 'import %s': %w", Python(), module, err)
	}
	return nil
}

// A Peer is a running script that answers each request line with one line.
type Peer struct {
	name string // the script's file name, for messages
	in   io.WriteCloser
	out  *bufio.Scanner
}

// Start starts script with args under [Python] and waits for its first line,
// "ready <ready>". It returns nil, with the reason logged, when Python cannot
// import module (the peer's side is then not measured). The process ends with
// the test or benchmark.
func Start(tb testing.TB, module, script string, ready int, args ...string) *Peer {
	tb.Helper()
	if err := Has(module); err != nil {
		tb.Logf("%s is not measured: %v", module, err)
		return nil
	}
	cmd := exec.Command(Python(), append([]string{script}, args...)...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	outp, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { in.Close(); cmd.Wait() })
	p := &Peer{filepath.Base(script), in, bufio.NewScanner(outp)}
	if !p.out.Scan() || p.out.Text() != fmt.Sprint("ready ", ready) {
		tb.Fatalf("%s: %q %v, want %q", p.name, p.out.Text(), p.out.Err(), fmt.Sprint("ready ", ready))
	}
	return p
}

// Ask sends words, separated by spaces, as one line and returns the line the
// script answers.
func (p *Peer) Ask(tb testing.TB, words ...any) string {
	tb.Helper()
	fmt.Fprintln(p.in, words...)
	if !p.out.Scan() {
		tb.Fatalf("%s stopped: %v", p.name, p.out.Err())
	}
	return p.out.Text()
}

// Epoch asks torchvision_peer.py for one epoch of its DataLoader with workers
// worker processes over the images numbered lo to hi-1 (their numbers in the
// file names) and returns the images it produced and the epoch's wall and
// CPU time (all of the peer's processes).
func (p *Peer) Epoch(tb testing.TB, workers, lo, hi int) (images int, wall, cpu time.Duration) {
	tb.Helper()
	line := p.Ask(tb, "epoch", workers, lo, hi)
	var r struct {
		Images    int
		Wall, CPU float64
	}
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		tb.Fatalf("%s: %q: %v", p.name, line, err)
	}
	return r.Images, time.Duration(r.Wall * 1e9), time.Duration(r.CPU * 1e9)
}
