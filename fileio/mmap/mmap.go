package mmap

import (
	"fmt"
	"os"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"
)

// A Region is the contents of a file in memory: mapped copy-on-write where the
// platform can map files, read into memory elsewhere. Writes to the bytes never
// reach the file. The memory stays valid as long as the Region is reachable; a
// cleanup releases it afterwards. Arrays keep their Region reachable with
// [Attach].
type Region struct {
	data   []byte
	name   string // the file, for fault errors
	pkg    string // the package that mapped it, the first word of fault errors
	fault  error  // the package's sentinel, wrapped by fault errors
	mapped bool   // by mmap; otherwise read into Go memory
	stop   runtime.Cleanup
}

// live counts the regions not yet released.
var live atomic.Int64

// Live returns the number of mappings made by [Map] and not yet released: still
// reachable, or unreachable but not yet cleaned up by the garbage collector.
func Live() int64 { return live.Load() }

// Map maps the first size bytes of f, which must be the size of f; a zero size
// gives an empty region. f may be closed after Map returns. pkg and fault name the
// package mapping the file and its sentinel error, for the [*FaultError] a fault
// in the region panics with under [Region.Guard].
func Map(f *os.File, size int64, pkg string, fault error) (*Region, error) {
	if size < 0 || int64(int(size)) != size {
		return nil, fmt.Errorf("cannot map %d bytes", size)
	}
	r := &Region{name: f.Name(), pkg: pkg, fault: fault, data: []byte{}}
	if size == 0 {
		return r, nil
	}
	data, mapped, err := mapCollecting(f, int(size))
	if err != nil {
		return nil, err
	}
	r.data, r.mapped = data, mapped
	live.Add(1)
	// The cleanup's argument is the mapped memory, not r: a cleanup whose
	// argument reaches its object never runs.
	r.stop = runtime.AddCleanup(r, release, mapping{data, mapped})
	return r, nil
}

// mapFn maps files; tests replace it.
var mapFn = mapFile

// retries bounds how often mapCollecting tries again after a collection.
const retries = 200

// mapCollecting maps f with mapFn. Regions are unmapped by cleanups after a
// garbage collection, and the collector, which counts only Go memory, does not
// know that they hold address space: a loop that opens and closes large files
// faster than its heap grows runs out of address space (or of the kernel's
// mapping count) with every old region already unreachable. So when mapping fails
// for lack of memory while regions are live, mapCollecting collects, and tries
// again while the cleanups unmap (they run on their own goroutines), yielding a
// millisecond between tries. This is the path Java takes for direct buffers.
func mapCollecting(f *os.File, size int) ([]byte, bool, error) {
	data, mapped, err := mapFn(f, size)
	if err == nil || !outOfMemory(err) || Live() == 0 {
		return data, mapped, err
	}
	runtime.GC()
	for range retries {
		if data, mapped, err = mapFn(f, size); err == nil || !outOfMemory(err) {
			return data, mapped, err
		}
		time.Sleep(time.Millisecond)
	}
	return nil, false, err
}

// mapping is what the cleanup of a region releases.
type mapping struct {
	data   []byte
	mapped bool // by mmap; otherwise read into Go memory
}

func release(m mapping) {
	if m.mapped {
		// An error here (EINVAL for a range that is not mapped) would be a bug
		// in this package; there is no caller to return it to.
		_ = unmap(m.data)
	}
	live.Add(-1)
}

// Bytes returns the mapped bytes. They are valid while r is reachable: a caller
// that keeps only the bytes must keep r alive (runtime.KeepAlive) while it uses
// them.
func (r *Region) Bytes() []byte { return r.data }

// Release unmaps r at once. It is only for the error paths of a reader that
// mapped a file and then failed before any array viewed the region; afterwards
// the garbage collector decides. Calling it twice does nothing.
func (r *Region) Release() {
	if len(r.data) == 0 {
		return
	}
	r.stop.Stop()
	data := r.data
	r.data = []byte{}
	release(mapping{data, r.mapped})
}

// contains reports whether addr lies in r's memory, and at which offset.
func (r *Region) contains(addr uintptr) (int64, bool) {
	if len(r.data) == 0 {
		return 0, false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(r.data)))
	if addr < base || addr-base >= uintptr(len(r.data)) {
		return 0, false
	}
	return int64(addr - base), true
}
