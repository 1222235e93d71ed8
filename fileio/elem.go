package fileio

import (
	"fmt"
	"reflect"
	"unsafe"

	"golang.org/x/exp/constraints"
)

// Elem is the element constraint of obskit arrays.
type Elem interface {
	constraints.Integer | constraints.Float
}

// A Kind is the storage class of a numeric element: 'i' (signed integer), 'u'
// (unsigned integer) or 'f' (IEEE floating point), and its size in bytes.
type Kind struct {
	Class byte
	Size  int
}

// KindOf returns the Kind of E. Named types count as their underlying type; int,
// uint and uintptr have the size of the platform.
func KindOf[E Elem]() Kind {
	var z E
	size := int(unsafe.Sizeof(z))
	switch reflect.TypeFor[E]().Kind() {
	case reflect.Float32, reflect.Float64:
		return Kind{'f', size}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return Kind{'i', size}
	default:
		return Kind{'u', size}
	}
}

// String returns the NumPy-style name of k, such as "float32" or "uint8".
func (k Kind) String() string {
	switch k.Class {
	case 'f':
		return fmt.Sprintf("float%d", 8*k.Size)
	case 'i':
		return fmt.Sprintf("int%d", 8*k.Size)
	case 'u':
		return fmt.Sprintf("uint%d", 8*k.Size)
	}
	return fmt.Sprintf("kind %q size %d", k.Class, k.Size)
}

// TypeName returns the Go name of E, such as "float32" or "main.Celsius".
func TypeName[E Elem]() string { return reflect.TypeFor[E]().String() }

// Bytes returns the memory of s as a byte slice, without copying.
func Bytes[E Elem](s []E) []byte {
	if len(s) == 0 {
		return nil
	}
	var z E
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(z)))
}

// View returns b seen as a []E without copying, and false when b is not aligned
// for E or its length is not a multiple of the size of E. An empty b gives an
// empty, non-nil slice.
func View[E Elem](b []byte) ([]E, bool) {
	var z E
	size := int(unsafe.Sizeof(z))
	if len(b)%size != 0 {
		return nil, false
	}
	if len(b) == 0 {
		return []E{}, true
	}
	p := unsafe.Pointer(unsafe.SliceData(b))
	if uintptr(p)%unsafe.Alignof(z) != 0 {
		return nil, false
	}
	return unsafe.Slice((*E)(p), len(b)/size), true
}

// IntLabels converts integer column values to the int labels the kit's
// stratified splits and class loops read, for a format's Labels. It returns
// the labels and -1, or nil and the row of the first value beyond int's range
// (an unsigned value above math.MaxInt).
func IntLabels[E constraints.Integer](s []E) ([]int, int) {
	out := make([]int, len(s))
	for i, v := range s {
		if int(v) < 0 != (v < 0) || E(int(v)) != v {
			return nil, i
		}
		out[i] = int(v)
	}
	return out, -1
}
