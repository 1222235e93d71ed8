package bench

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The sizes of the suite's workloads, shared with the peers (peers.py).
const (
	Obs       = 60000 // observations of the fixed-size workloads (MNIST's training set)
	Width     = 784   // features of an observation (28 x 28 pixels)
	BatchSize = 128   // the batch size of every gather and batch loop
	SplitObs  = 10_000_000
)

// A regime is where a workload's array lives: "cache", a quarter of the
// last-level cache, so that a warm pass finds it there even beside another
// side's array and other processes' data; "dram", at least four times that
// cache and never less than Obs rows, so that every pass reads memory. rows
// returns the observations of n bytes an array holds.
type regime struct {
	name string
	rows func(n int) int
}

var regimes = []regime{
	{"cache", func(n int) int { return llc() / 4 / n }},
	{"dram", func(n int) int { return max(Obs, (4*llc()+n-1)/n) }},
}

// llc is the size in bytes of the largest cache of CPU 0 (sysfs), or 32 MiB
// where it cannot be read.
var llc = sync.OnceValue(func() int {
	size := 0
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	for _, d := range dirs {
		b, _ := os.ReadFile(filepath.Join(d, "size"))
		if kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(string(b)), "K")); err == nil {
			size = max(size, kb<<10)
		}
	}
	if size == 0 {
		return 32 << 20
	}
	return size
})

// cutBatches cuts perm into batches of size, the full ones only.
func cutBatches(perm []int, size int) [][]int {
	var bs [][]int
	for lo := 0; lo+size <= len(perm); lo += size {
		bs = append(bs, perm[lo:lo+size:lo+size])
	}
	return bs
}

// shuffled is a seeded permutation of n.
func shuffled(n int) []int { return rand.New(rand.NewPCG(42, uint64(n))).Perm(n) }

// permBatches cuts a seeded permutation of n into batches of BatchSize.
func permBatches(n int) [][]int { return cutBatches(shuffled(n), BatchSize) }

// A side is one of the operations a benchmark alternates: run does one pass
// (an epoch of shuffled batches, a split), or a turn of passes (cacheTurn) if
// warm, and returns the time of its fastest pass; a pass moves amount bytes
// (or observations).
type side struct {
	name   string
	amount int64
	run    func(warm bool) time.Duration
}

// timed is a side whose pass is f, run on the benchmark's thread and timed by
// that thread's CPU clock, which stops while other processes have the core:
// on a machine shared with other work a pass's wall time is mostly theirs.
// Memory stalls count; a pass that starts goroutines needs wallTimed.
func timed(name string, amount int64, f func()) side { return clocked(name, amount, f, threadTime) }

// wallTimed is a side timed by the wall clock, for passes whose work runs on
// other goroutines too (a split batch, a prefetching loop).
func wallTimed(name string, amount int64, f func()) side {
	start := time.Now()
	return clocked(name, amount, f, func() time.Duration { return time.Since(start) })
}

// cacheTurn is how long a side's turn lasts over a cache-resident array: its
// passes run until their times add up to it, and the fastest is its figure.
// A user's loop runs alone and its array stays in the cache; the suite's sides
// take turns, and each finds its array displaced by the others' (a peer's
// copy, the relaid copy, NumPy's new batches). On the Zen 3 VM the first pass
// after a turn of the peers gathered an 8 MiB array at 6-7 GB/s, the speed of
// memory, and the passes only came back to the loop-alone speed (25-33 GB/s)
// after 300-500 ms of passes, on the suite's side as in a fresh plain loop;
// turns of 8 passes (2-5 ms) left the suite's kit at 0.62-0.74 of the plain
// loop (BenchmarkPlain) and its ratios to the peers to which side ran before.
const cacheTurn = 500 * time.Millisecond

// cacheRounds is the number of rounds of turns an iteration of a benchmark
// over cache-resident data runs (b.Loop stops after one iteration of turns
// this long), each starting with the next side: a side's figure is then its
// fastest pass of three turns, none of them always the first after the
// setup. On the Zen 3 VM a whole turn of a side could run 30-40% slower than
// its next (the kit's uint8 gather: 18.8 GB/s in one turn, 26-30 in the
// others of the same process).
const cacheRounds = 3

// minRounds is the number of rounds a benchmark runs at least, while its
// rounds take less than roundsBudget in all: b.Loop stops after a second,
// which left the DRAM gathers, whose rounds the peers make long, two or three
// passes of each side to take the fastest of.
const (
	minRounds    = 5
	roundsBudget = 10 * time.Second
)

func clocked(name string, amount int64, f func(), now func() time.Duration) side {
	return side{name, amount, func(warm bool) time.Duration {
		return turn(warm, func() time.Duration {
			t := now()
			f()
			return now() - t
		})
	}}
}

// turn runs pass once, or with warm until the passes' times add up to
// cacheTurn, and returns the fastest pass's time.
func turn(warm bool, pass func() time.Duration) time.Duration {
	best, spent := time.Duration(1<<62), time.Duration(0)
	for {
		t := pass()
		best, spent = min(best, t), spent+t
		if !warm || spent >= cacheTurn {
			return best
		}
	}
}

// paired runs a pass of every side per iteration, rotating which goes first,
// so that load from other processes hits them alike and the ratios come from
// one run; each side runs its whole pass, as a user's loop does, so that what
// one side leaves in the caches is the other sides' only at their turn. With
// warm (cache-resident data) a side's turn is cacheTurn of passes, an
// iteration is cacheRounds rounds of turns, and its time the fastest pass.
// Rounds go on after b.Loop's to minRounds within roundsBudget.
//
// A side's figure is its fastest pass: on a machine shared with other work a
// pass that other processes interrupted is slower than the code, never
// faster, and every side runs as many passes. It reports each side's
// throughput, "<side>-<unit>" (unit MB/s or Mobs/s: amount per pass in
// millions per second, for sides that move an amount), for every side after
// the first (the kit) "x-<side>", that side's time over the kit's, above 1
// when the kit is faster, and "kit-allocs/op", the kit's allocations per pass
// (b.ReportAllocs would count every side's, and the peers' JSON). It returns
// each side's fastest pass.
func paired(b *testing.B, unit string, warm bool, sides ...side) []time.Duration {
	b.Helper()
	runtime.LockOSThread() // the thread whose clock times the sides
	defer runtime.UnlockOSThread()
	best := make([]time.Duration, len(sides))
	allocs := []metrics.Sample{{Name: "/gc/heap/allocs:objects"}}
	var kitAllocs uint64
	k := 0
	round := func() {
		for j := range sides {
			i := (k + j) % len(sides)
			if i == 0 {
				metrics.Read(allocs)
				kitAllocs -= allocs[0].Value.Uint64()
			}
			if t := sides[i].run(warm); k == 0 || t < best[i] {
				best[i] = t
			}
			if i == 0 {
				metrics.Read(allocs)
				kitAllocs += allocs[0].Value.Uint64()
			}
		}
		k++
	}
	start := time.Now()
	for b.Loop() {
		for range map[bool]int{true: cacheRounds, false: 1}[warm] {
			round()
		}
	}
	for k < minRounds && time.Since(start) < roundsBudget {
		round()
	}
	for i, s := range sides {
		if s.amount > 0 {
			b.ReportMetric(float64(s.amount)/best[i].Seconds()/1e6, s.name+"-"+unit)
		}
		if i > 0 {
			b.ReportMetric(float64(best[i])/float64(best[0]), "x-"+s.name)
		}
	}
	b.ReportMetric(float64(kitAllocs)/float64(k), "kit-allocs/op")
	return best
}

// The peers: bench/peers.py, started once per process with the interpreter
// that OBSKIT_PYTHON names (make compare sets it); without it the benchmarks
// have no peer sides.
var python = sync.OnceValues(func() (*pyPeers, error) {
	if interp := os.Getenv("OBSKIT_PYTHON"); interp != "" {
		return startPeers(interp)
	}
	return nil, nil
})

// startPeers starts peers.py with the interpreter interp. It ends when the
// process does, at the end of its input.
func startPeers(interp string) (*pyPeers, error) {
	cmd := exec.Command(interp, "peers.py", "--serve")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("peers: %w", err)
	}
	return &pyPeers{json.NewEncoder(in), bufio.NewScanner(out)}, nil
}

type pyPeers struct {
	enc *json.Encoder
	out *bufio.Scanner
}

// call sends one command to peers.py and decodes its answer into resp.
func (p *pyPeers) call(req map[string]any, resp any) error {
	if err := p.enc.Encode(req); err != nil {
		return fmt.Errorf("peers.py: %w", err)
	}
	if !p.out.Scan() {
		return fmt.Errorf("peers.py ended without answering %v: %v", req, p.out.Err())
	}
	return json.Unmarshal(p.out.Bytes(), resp)
}

// peers sets up workload (a peers.py workload with its sizes: obs, dtype,
// passes) and returns the sides peers.py can run on it, each moving amount
// per pass; none without OBSKIT_PYTHON.
func peers(b testing.TB, amount int64, workload string, sizes map[string]any) []side {
	p, err := python()
	if err != nil {
		b.Fatal(err)
	}
	return p.sides(b, amount, workload, sizes)
}

func (p *pyPeers) sides(b testing.TB, amount int64, workload string, sizes map[string]any) []side {
	if p == nil {
		return nil
	}
	req := map[string]any{"cmd": "setup", "workload": workload, "width": Width, "batch": BatchSize}
	for k, v := range sizes {
		req[k] = v
	}
	var set struct{ Sides []string }
	if err := p.call(req, &set); err != nil {
		b.Fatal(err)
	}
	var out []side
	for _, name := range set.Sides {
		out = append(out, side{name, amount, func(warm bool) time.Duration {
			var r struct{ Seconds float64 }
			secs := map[bool]float64{true: cacheTurn.Seconds()}[warm]
			if err := p.call(map[string]any{"cmd": "run", "side": name, "turn": secs}, &r); err != nil {
				b.Fatal(err)
			}
			return time.Duration(r.Seconds * 1e9)
		}})
	}
	return out
}

// TestPeers runs every side of every workload of peers.py once, on small
// arrays, and one side for a whole turn: the protocol and the Python code of
// the comparison.
func TestPeers(t *testing.T) {
	interp := cmp.Or(os.Getenv("OBSKIT_PYTHON"), "/usr/bin/python3")
	if err := exec.Command(interp, "-c", "import numpy").Run(); err != nil {
		t.Skipf("no peers to test: %s cannot import numpy (%v); on Debian: apt-get install python3-numpy", interp, err)
	}
	p, err := startPeers(interp)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []map[string]any{
		{"workload": "gather/first", "dtype": "float32"}, {"workload": "gather/last", "dtype": "uint8"},
		{"workload": "tuple"}, {"workload": "epoch"}, {"workload": "mapped"}, {"workload": "split"}, {"workload": "kfold"},
	} {
		name := w["workload"].(string)
		w["obs"], w["passes"] = 1000, 3
		sides := p.sides(t, 1, name, w)
		if len(sides) == 0 && !strings.HasPrefix(name, "split") && name != "kfold" {
			t.Errorf("peers.py offers no side for %s", name)
		}
		for i, s := range sides {
			if d := s.run(name == "gather/first" && i == 0); d <= 0 {
				t.Errorf("%s: side %s took %v", name, s.name, d)
			}
		}
	}
}
