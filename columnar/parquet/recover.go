package parquet

import (
	"runtime"
	"strings"
)

// parquet-go's decoders trust the lengths and bit widths inside a page: a
// damaged page makes them index past the end of a buffer ("slice bounds out of
// range" in rle.decodeInt32, "index out of bounds" from a dictionary lookup)
// rather than return an error. The two functions below turn such a panic,
// raised inside parquet-go, into an error wrapping ErrFormat that names the
// file (and the row group and column). A fault of the mapping (a runtime error
// with an address, which the Region's own guard reports as ErrFault) and any
// panic raised elsewhere, the kit's own code included, go on.

// recoverChunk is deferred by a function that decodes column col of row group g.
func (f *File) recoverChunk(g int, col Column, err *error) {
	if p := recover(); p != nil {
		*err = f.chunkErr(g, col, "damaged page: %v", decoderPanic(p))
	}
}

// recoverFooter is deferred by the function that reads the footer of path.
func recoverFooter(path string, err *error) {
	if p := recover(); p != nil {
		*err = fmtErr.Errorf(path, ErrFormat, "footer: %v", decoderPanic(p))
	}
}

// decoderPanic returns the panic value p when parquet-go raised it, and panics
// with p again otherwise.
func decoderPanic(p any) any {
	if _, fault := p.(interface{ Addr() uintptr }); fault || !raisedIn("github.com/parquet-go/") {
		panic(p)
	}
	return p
}

// raisedIn reports whether the function that panicked, the first frame outside
// package runtime below runtime.gopanic on the stack of the deferred call
// running now, belongs to the packages under prefix.
func raisedIn(prefix string) bool {
	var pcs [64]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs[:])])
	panicking := false
	for {
		fr, more := frames.Next()
		switch {
		case fr.Function == "runtime.gopanic":
			panicking = true
		case panicking && !strings.HasPrefix(fr.Function, "runtime."):
			return strings.HasPrefix(fr.Function, prefix)
		}
		if !more {
			return false
		}
	}
}
