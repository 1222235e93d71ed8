package convert

import (
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/obskit/obskit/arraycontainer"
)

// ErrRange is wrapped by the errors of conversions that meet a value the target
// type cannot hold, or a label outside [0, classes) of a one-hot encoding.
var ErrRange = errors.New("value out of range of the target type")

// castInto writes src converted to To into dst (len(dst) >= len(src)) and
// returns the position of the first value To cannot hold (nothing is written from
// there on), or -1. A float cast keeps NaN and infinities and refuses a finite
// value that overflows; a cast from a float to an integer truncates toward zero
// and refuses NaN and out-of-range values; integers must fit exactly.
func castInto[To, From arraycontainer.Number](dst []To, src []From) int {
	dst = dst[:len(src)]
	switch {
	case isFloat[From]() && isFloat[To]():
		for i, v := range src {
			t := To(v)
			if math.IsInf(float64(t), 0) && !math.IsInf(float64(v), 0) {
				return i
			}
			dst[i] = t
		}
	case isFloat[From]():
		lo, hi := intRange[To]()
		for i, v := range src {
			if f := math.Trunc(float64(v)); !(f >= lo && f < hi) { // NaN fails both
				return i
			}
			dst[i] = To(v)
		}
	case isFloat[To]():
		for i, v := range src {
			dst[i] = To(v) // float32 and float64 hold every integer, rounded
		}
	default:
		for i, v := range src {
			t := To(v)
			if From(t) != v || (t < 0) != (v < 0) {
				return i
			}
			dst[i] = t
		}
	}
	return -1
}

// rangeError returns the error of a value at position i that To cannot hold.
func rangeError[To, From arraycontainer.Number](op string, v From, i int) error {
	var t To
	return fmt.Errorf("convert.%s: value %v at index %d does not fit %T: %w", op, v, i, t, ErrRange)
}

// changedError returns the panic value of a value at index i, read after Cast
// checked its source, that To cannot hold.
func changedError[To, From arraycontainer.Number](v From, i int) error {
	var t To
	return fmt.Errorf("convert.Cast: value %v at index %d does not fit %T: the container changed after it was wrapped (or a random draw): %w", v, i, t, ErrRange)
}

// isFloat reports whether E is a floating-point type.
func isFloat[E arraycontainer.Number]() bool {
	var half E = 1
	half /= 2
	return half != 0
}

// intRange returns the integral values the integer type I holds, as the
// half-open range [lo, hi) of float64 (powers of two, so exact).
func intRange[I arraycontainer.Number]() (lo, hi float64) {
	var zero I
	bits := int(unsafe.Sizeof(zero)) * 8
	if minus := zero - 1; minus < 0 { // signed
		return -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1)
	}
	return 0, math.Ldexp(1, bits)
}
