// Package torchpeer drives the torchvision peer of the image benchmarks
// (augment/testdata/torchvision_peer.py): a torchvision DataLoader over an
// ImageFolder, run epoch by epoch in one Python process, so that augment's
// BenchmarkImages and imagedata's BenchmarkLoader measure it beside the kit.
// It is for benchmarks only.
package torchpeer

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"
)

// A Peer is a running torchvision_peer.py.
type Peer struct {
	in  io.WriteCloser
	out *bufio.Scanner
}

// Start starts script with the interpreter that the environment variable
// PYTHON names (Debian's /usr/bin/python3 by default) on the ImageFolder at
// root, which holds n images, and waits until it is ready. It returns nil,
// with the reason logged, when that interpreter cannot import torchvision.
// The process ends with the benchmark.
func Start(tb testing.TB, script, root string, n int) *Peer {
	tb.Helper()
	python := os.Getenv("PYTHON")
	if python == "" {
		python = "/usr/bin/python3"
	}
	if err := exec.Command(python, "-c", "import torchvision").Run(); err != nil {
		tb.Logf("torchvision is not measured: %s -c 'import torchvision': %v", python, err)
		return nil
	}
	cmd := exec.Command(python, script, root)
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
	out := bufio.NewScanner(outp)
	if !out.Scan() || out.Text() != fmt.Sprint("ready ", n) {
		tb.Fatalf("torchvision_peer.py: %q %v", out.Text(), out.Err())
	}
	return &Peer{in, out}
}

// Epoch runs one epoch of the DataLoader with workers worker processes over
// the images numbered lo to hi-1 (their numbers in the file names) and
// returns the images it produced and the epoch's wall and CPU time (all of
// the peer's processes).
func (p *Peer) Epoch(tb testing.TB, workers, lo, hi int) (images int, wall, cpu time.Duration) {
	tb.Helper()
	fmt.Fprintln(p.in, "epoch", workers, lo, hi)
	if !p.out.Scan() {
		tb.Fatalf("torchvision_peer.py stopped: %v", p.out.Err())
	}
	var r struct {
		Images    int
		Wall, CPU float64
	}
	if err := json.Unmarshal(p.out.Bytes(), &r); err != nil {
		tb.Fatalf("torchvision_peer.py: %q: %v", p.out.Text(), err)
	}
	return r.Images, time.Duration(r.Wall * 1e9), time.Duration(r.CPU * 1e9)
}
