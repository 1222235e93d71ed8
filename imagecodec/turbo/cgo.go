//go:build cgo && !purego

package turbo

/*
#cgo CFLAGS: -O2
#cgo linux LDFLAGS: -ldl
#include "turbo.h"
*/
import "C"

import (
	"sync"
	"unsafe"
)

var (
	loadOnce sync.Once
	loadErr  error
)

// available loads libjpeg-turbo once and returns why it cannot be used.
func available() error {
	loadOnce.Do(func() {
		var msg [256]C.char
		if C.ojt_load(&msg[0], C.int(len(msg))) != 0 {
			loadErr = unavailableError(C.GoString(&msg[0]))
		}
	})
	return loadErr
}

// reqs holds the C requests, so that a decode allocates none.
var reqs = sync.Pool{New: func() any { return new(C.ojt_req) }}

// decodeJPEG decodes the crop of p into out, whose rows are stride bytes
// apart, with libjpeg-turbo.
func decodeJPEG(data []byte, p plan, out []byte, stride int) (code int, msg string) {
	r := reqs.Get().(*C.ojt_req)
	defer reqs.Put(r)
	*r = C.ojt_req{
		denom: C.int(p.denom), width: C.int(p.size.X), height: C.int(p.size.Y),
		x0: C.int(p.rect.Min.X), y0: C.int(p.rect.Min.Y), x1: C.int(p.rect.Max.X), y1: C.int(p.rect.Max.Y),
		stride: C.int(stride),
	}
	code = int(C.ojt_decode(r, (*C.uchar)(unsafe.Pointer(&data[0])), C.ulong(len(data)), (*C.uchar)(unsafe.Pointer(&out[0]))))
	if code != 0 {
		msg = C.GoString(&r.msg[0])
	}
	return code, msg
}
