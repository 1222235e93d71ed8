// Package pypeer runs the Python peers of the kit's benchmarks and tests: the
// interpreter they use (the environment variable PYTHON, Debian's
// /usr/bin/python3 by default), whether it has a module, and a script that
// answers each request line with one line, such as Pillow's decoder beside
// imagecodec's (imagecodec/turbo), torchvision's DataLoader beside the
// kit's image loops (augment/testdata/torchvision_peer.py, driven by
// [Peer.Epoch]) and scikit-learn's splitters beside package subset's
// (subset/testdata/sklearn_peer.py, asked with [Peer.AskJSON]). It is for
// tests and benchmarks only.
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
	cmd  *exec.Cmd
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
	p, err := launch(script, ready, args...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { p.Close() })
	return p
}

// Launch is [Start] for a peer shared by several tests, which no one test
// owns: it returns an error wrapping the reason when [Python] cannot import
// module (a test then skips, saying so) or the script does not start or
// answer "ready <ready>", and the caller ends the process with [Peer.Close]
// (in TestMain, after m.Run).
func Launch(module, script string, ready int, args ...string) (*Peer, error) {
	if err := Has(module); err != nil {
		return nil, err
	}
	return launch(script, ready, args...)
}

func launch(script string, ready int, args ...string) (*Peer, error) {
	cmd := exec.Command(Python(), append([]string{script}, args...)...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outp, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &Peer{filepath.Base(script), cmd, in, bufio.NewScanner(outp)}
	p.out.Buffer(nil, 64<<20) // answers may be long lines of JSON
	if !p.out.Scan() || p.out.Text() != fmt.Sprint("ready ", ready) {
		err := fmt.Errorf("%s: %q %v, want %q", p.name, p.out.Text(), p.out.Err(), fmt.Sprint("ready ", ready))
		p.Close()
		return nil, err
	}
	return p, nil
}

// Close ends the script: it closes its input, on which it ends, and waits for
// it. It returns the script's exit error, if any.
func (p *Peer) Close() error {
	p.in.Close()
	return p.cmd.Wait()
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

// AskJSON sends req as one line of JSON and decodes the line the script
// answers into resp. An answer {"error": "..."} fails the test with that
// message.
func (p *Peer) AskJSON(tb testing.TB, req, resp any) {
	tb.Helper()
	b, err := json.Marshal(req)
	if err != nil {
		tb.Fatalf("%s: %v", p.name, err)
	}
	line := p.Ask(tb, string(b))
	var e struct{ Error string }
	if json.Unmarshal([]byte(line), &e) == nil && e.Error != "" {
		tb.Fatalf("%s: %s", p.name, e.Error)
	}
	if err := json.Unmarshal([]byte(line), resp); err != nil {
		tb.Fatalf("%s: %.200q: %v", p.name, line, err)
	}
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
