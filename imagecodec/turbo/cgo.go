//go:build cgo && !purego

package turbo

/*
#cgo CFLAGS: -O2
#cgo linux LDFLAGS: -ldl
#cgo noescape ojt_decode
#cgo nocallback ojt_decode
#include "turbo.h"
*/
import "C"

import (
	"sync"
	"unsafe"
)

var (
	loadOnce sync.Once
	status   Status
)

// available loads libjpeg-turbo once and says whether it can be used.
func available() Status {
	loadOnce.Do(func() {
		var msg [256]C.char
		if C.ojt_load(&msg[0], C.int(len(msg))) != 0 {
			status.Err = unavailableError(C.GoString(&msg[0]))
		} else {
			status.Library = C.GoString(&msg[0])
		}
	})
	return status
}

// decodeJPEG decodes the crop of p into out, whose rows are stride bytes
// apart, with libjpeg-turbo. The C function keeps no pointer (noescape), so
// the request stays on the goroutine's stack: the call allocates nothing.
func decodeJPEG(data []byte, p plan, out []byte, stride int) (code int, msg string) {
	r := &C.ojt_req{
		num: C.int(p.num), width: C.int(p.size.X), height: C.int(p.size.Y),
		x0: C.int(p.rect.Min.X), y0: C.int(p.rect.Min.Y), x1: C.int(p.rect.Max.X), y1: C.int(p.rect.Max.Y),
		stride: C.int(stride),
	}
	code = int(C.ojt_decode(r, (*C.uchar)(unsafe.Pointer(&data[0])), C.ulong(len(data)), (*C.uchar)(unsafe.Pointer(&out[0]))))
	if code != 0 {
		// Copied by hand: C.GoString(&r.msg[0]) would move r to the heap.
		b := make([]byte, 0, len(r.msg))
		for _, c := range r.msg {
			if c == 0 {
				break
			}
			b = append(b, byte(c))
		}
		msg = string(b)
	}
	return code, msg
}
