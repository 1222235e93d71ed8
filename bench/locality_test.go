package bench

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

// The locality benchmark (issue 17): an epoch over a memory-mapped .npy file
// larger than the page cache the process may use, with the full shuffle and
// with the two-level order. OBSKIT_LOCALITY_GIB sets the file's size (2 GiB by
// default; 0 skips the benchmark), OBSKIT_LOCALITY_LIMIT_MIB the memory the
// process may use for it (512 MiB), and OBSKIT_LOCALITY_PERCENT the part of the
// full shuffle's epoch that is run (25%: its time is extrapolated to the epoch,
// since reading 4 KiB pages at random takes minutes).
const (
	localityRow    = 1024 // float32 features of an observation: 4 KiB, a page
	localityBlock  = 1024 // observations of a block: 4 MiB
	localityWindow = 16   // blocks of a window: 64 MiB
)

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// localityFile writes (or finds, from an earlier run of this process) a .npy
// file of float32 rows of localityRow values filling gib GiB, with the data
// streamed to disk rather than built in memory, and returns its path.
func localityFile(b *testing.B, gib int) string {
	path := filepath.Join(os.TempDir(), fmt.Sprintf("obskit-locality-%d-%d.npy", gib, os.Getpid()))
	rows := gib << 30 / (localityRow * 4)
	if fi, err := os.Stat(path); err == nil && fi.Size() > int64(rows)*localityRow*4 {
		return path
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	localityFiles = append(localityFiles, path)
	w := bufio.NewWriterSize(f, 1<<20)
	dict := fmt.Sprintf("{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }", rows, localityRow)
	pad := 64 - (10+len(dict)+1)%64
	hdr := dict + strings.Repeat(" ", pad%64) + "\n"
	w.WriteString("\x93NUMPY\x01\x00")
	binary.Write(w, binary.LittleEndian, uint16(len(hdr)))
	w.WriteString(hdr)
	row := make([]byte, localityRow*4)
	for i := range rows {
		for j := 0; j < localityRow; j++ {
			binary.LittleEndian.PutUint32(row[4*j:], math.Float32bits(float32(i)))
		}
		if _, err := w.Write(row); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// localityFiles are the files this process wrote, removed by TestMain.
var localityFiles []string

func TestMain(m *testing.M) {
	code := m.Run()
	for _, f := range localityFiles {
		os.Remove(f)
	}
	os.Exit(code)
}

// dropCache evicts the file's pages from the page cache (it is written and
// synced: the pages are clean), so that an epoch starts cold.
func dropCache(b *testing.B, path string) {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		b.Fatal(err)
	}
}

// A memLimit is a memory cgroup the process runs in while it is open: the
// page cache it fills is charged to it, and reclaimed past the limit.
type memLimit struct {
	dir, back string // the cgroup made, and the one to return to
}

// limitMemory moves the process into a new memory cgroup of limit bytes
// (cgroup v2, or v1's memory hierarchy), or returns an error saying why it
// cannot (not root, no memory controller).
func limitMemory(limit int64) (*memLimit, error) {
	self, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("obskit-locality-%d", os.Getpid())
	for _, line := range strings.Split(strings.TrimSpace(string(self)), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		var root, file string
		switch {
		case f[1] == "memory": // v1
			root, file = "/sys/fs/cgroup/memory", "memory.limit_in_bytes"
		case f[0] == "0" && f[1] == "": // v2
			ctl, err := os.ReadFile("/sys/fs/cgroup/cgroup.subtree_control")
			if err != nil || !bytes.Contains(ctl, []byte("memory")) {
				continue
			}
			root, file = "/sys/fs/cgroup", "memory.max"
		default:
			continue
		}
		back := filepath.Join(root, f[2])
		dir := filepath.Join(root, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			return nil, err
		}
		l := &memLimit{dir: dir, back: back}
		if err := os.WriteFile(filepath.Join(dir, file), []byte(strconv.FormatInt(limit, 10)), 0o644); err != nil {
			l.close()
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			l.close()
			return nil, err
		}
		return l, nil
	}
	return nil, fmt.Errorf("no memory cgroup in /proc/self/cgroup")
}

// close moves the process back and removes the cgroup.
func (l *memLimit) close() {
	os.WriteFile(filepath.Join(l.back, "cgroup.procs"), []byte(strconv.Itoa(os.Getpid())), 0o644)
	for range 50 { // the cgroup is removable once its charges are gone
		if os.Remove(l.dir) == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ioCounters returns the bytes this process made the storage layer read and
// its major page faults.
func ioCounters() (readBytes, faults int64) {
	if data, err := os.ReadFile("/proc/self/io"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "read_bytes: "); ok {
				readBytes, _ = strconv.ParseInt(v, 10, 64)
			}
		}
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		faults = ru.Majflt
	}
	return readBytes, faults
}

// BenchmarkLocality runs one epoch of a memory-mapped .npy file of 2 GiB (4 KiB
// observations) per pass, in batches of 128, in a memory cgroup of 512 MiB,
// with the two-level order (eachobs.ShuffleBlocksOf: blocks of 1024
// observations, 4 MiB, shuffled within windows of 16 blocks, 64 MiB; the
// mapping read ahead as the kernel does by default) and the full shuffle
// (eachobs.Shuffle; the mapping advised MADV_RANDOM, its best case: one page
// per fault; run on the first 25% of the epoch and extrapolated), each pass
// started with the file evicted from the page cache. x-cipher is the full
// shuffle's epoch time over the two-level order's; <order>-read-MB is what the
// epoch read from storage (the file is 2048 MiB), <order>-faults the major page
// faults, <order>-pages/batch the distinct pages a batch touches and
// <order>-regions/batch the distinct 4 MiB regions of the file it reads from
// (a block of the two-level order is one). limited is 1 when the cgroup was made (as root with a memory
// controller); otherwise the file may sit in the page cache after its first
// read, and the figures to read are the bytes read and the pages.
func BenchmarkLocality(b *testing.B) {
	gib := envInt("OBSKIT_LOCALITY_GIB", 2)
	if gib <= 0 {
		b.Skip("OBSKIT_LOCALITY_GIB=0")
	}
	limitMiB := envInt("OBSKIT_LOCALITY_LIMIT_MIB", 512)
	percent := min(max(envInt("OBSKIT_LOCALITY_PERCENT", 25), 1), 100)
	path := localityFile(b, gib)
	x, err := npy.Open[float32](path, obsdim.First)
	if err != nil {
		b.Fatal(err)
	}
	n := x.Nobs()
	limited := 0.0
	if l, err := limitMemory(int64(limitMiB) << 20); err != nil {
		b.Logf("no memory limit (%v): the page cache is limited only by the machine", err)
	} else {
		limited = 1
		defer l.close()
	}
	type stats struct {
		read, faults, pages, regions float64
	}
	orders := []struct {
		name   string
		opt    eachobs.Option
		advice int // the madvise of the mapping for the order
		part   int // the percent of the epoch run
		st     stats
		runs   int
		// the names of its metrics: read-MB, faults, pages/batch, regions/batch
		metrics [4]string
	}{
		{"blocks", eachobs.ShuffleBlocksOf(5, localityBlock, localityWindow), unix.MADV_NORMAL, 100, stats{}, 0,
			[4]string{"blocks-read-MB", "blocks-faults", "blocks-pages/batch", "blocks-regions/batch"}},
		{"cipher", eachobs.Shuffle(5), unix.MADV_RANDOM, percent, stats{}, 0,
			[4]string{"cipher-read-MB", "cipher-faults", "cipher-pages/batch", "cipher-regions/batch"}},
	}
	mapped := x.Data()
	base := unsafe.Pointer(unsafe.SliceData(mapped))
	off := int(uintptr(base) & 4095) // the header before the data, in the first page
	region := unsafe.Slice((*byte)(unsafe.Add(base, -off)), len(mapped)*4+off)
	const hdr = 128 // the header of a file this size: the data starts at byte 128
	sides := make([]side, len(orders))
	for i := range orders {
		o := &orders[i]
		seq := eachobs.Batches(x, BatchSize, o.opt)
		last := n / BatchSize * o.part / 100 // the batches run
		sides[i] = side{o.name, int64(n) * localityRow * 4, func(bool) time.Duration {
			// A full shuffle reads pages at random: MADV_RANDOM keeps the kernel
			// from reading around each fault (read_ahead_kb, 8 MiB here), which
			// would read the file many times over; the blocks read ahead.
			if err := unix.Madvise(region, o.advice); err != nil {
				b.Fatal(err)
			}
			dropCache(b, path)
			r0, f0 := ioCounters()
			pages, regions, batches := 0, 0, 0
			seen, blocks := map[int]struct{}{}, map[int]struct{}{}
			start := time.Now()
			for bt := range seq {
				if batches == last {
					break
				}
				clear(seen)
				clear(blocks)
				for _, r := range bt.Indices {
					first := hdr + r*localityRow*4
					seen[first/4096], seen[(first+localityRow*4-1)/4096] = struct{}{}, struct{}{}
					blocks[r/localityBlock] = struct{}{}
				}
				pages += len(seen)
				regions += len(blocks)
				batches++
			}
			d := time.Since(start) * 100 / time.Duration(o.part) // the epoch's, extrapolated
			r1, f1 := ioCounters()
			o.st.read += float64(r1-r0) / (1 << 20) * 100 / float64(o.part)
			o.st.faults += float64(f1-f0) * 100 / float64(o.part)
			o.st.pages += float64(pages) / float64(batches)
			o.st.regions += float64(regions) / float64(batches)
			o.runs++
			return d
		}}
	}
	paired(b, "MB/s", false, sides...)
	for _, o := range orders {
		k := float64(max(o.runs, 1))
		b.ReportMetric(o.st.read/k, o.metrics[0])
		b.ReportMetric(o.st.faults/k, o.metrics[1])
		b.ReportMetric(o.st.pages/k, o.metrics[2])
		b.ReportMetric(o.st.regions/k, o.metrics[3])
	}
	b.ReportMetric(limited, "limited")
}
