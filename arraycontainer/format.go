package arraycontainer

import (
	"strconv"
	"strings"
)

// String formats the array the way NumPy prints one: nested brackets, the last
// axis on one line, elements right-aligned to a common width, a rank-0 array as its
// value. Arrays of more than 1000 elements are summarized: along every axis longer
// than 6 only the first and last 3 entries are shown, around "...". The shape and
// observation axis are not printed; see [Array.Shape] and [Array.Dim].
func (a *Array[E]) String() string {
	if a.mem != nil {
		defer a.mem.Recover(a.mem.Guard())
	}
	f := formatter[E]{a: a, summary: a.Len() > 1000}
	f.walk(0, a.offset, func(v E) {
		f.width = max(f.width, len(f.elem(v)))
	})
	var b strings.Builder
	f.b = &b
	f.walk(0, a.offset, func(v E) {
		s := f.elem(v)
		b.WriteString(strings.Repeat(" ", f.width-len(s)))
		b.WriteString(s)
	})
	return b.String()
}

type formatter[E Number] struct {
	a       *Array[E]
	summary bool
	width   int
	b       *strings.Builder // nil while measuring
}

func (f *formatter[E]) elem(v E) string {
	switch x := any(v).(type) {
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	if v < 0 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatUint(uint64(v), 10)
}

func (f *formatter[E]) write(s string) {
	if f.b != nil {
		f.b.WriteString(s)
	}
}

// walk visits the elements of axis k and below starting at off, writing brackets
// and separators when f.b is set.
func (f *formatter[E]) walk(k, off int, visit func(E)) {
	a := f.a
	rank := len(a.shape)
	if k == rank {
		visit(a.data[off])
		return
	}
	f.write("[")
	n := a.shape[k]
	sep := " "
	if k < rank-1 {
		sep = strings.Repeat("\n", rank-1-k) + strings.Repeat(" ", k+1)
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			f.write(sep)
		}
		if f.summary && n > 6 && i == 3 {
			f.write("...")
			f.write(sep)
			i = n - 3
		}
		f.walk(k+1, off+i*a.strides[k], visit)
	}
	f.write("]")
}
