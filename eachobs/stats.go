package eachobs

import (
	"reflect"
	"sync"
	"time"
)

// Stats are what a loop built with [Measure] spent, added up over its passes:
// where the time of a training job's data side goes, and whether prefetching
// hides it.
type Stats struct {
	// Passes and Batches count the passes (ranges) and the batches measured.
	Passes, Batches int
	// Wait is the time the loop body's goroutine spent waiting for batches:
	// in each pull of the loop's iterator (from the return of the loop body to
	// the next batch, in a range). With enough prefetching it tends to zero; in a serial loop it is
	// the whole gathering time.
	Wait time.Duration
	// Busy is the time spent gathering batches (the container's GetObsInto),
	// summed over the goroutines that gather: with Workers(w) it can reach w
	// times the wall time.
	Busy time.Duration
	// Bytes is the size of the batches gathered, counted by the batch's Bytes()
	// method (arraycontainer.Array has one), by the length of slices of
	// numbers, and through the exported fields of structs (tuples.Pair) and the
	// elements of other slices; a batch of another type counts 0.
	Bytes int64
	// FirstBatch is the time the first pull of the last pass waited for its
	// batch: the loop's start-up (the gather of the first batch, or nothing
	// when [Iter.Warm] gathered it before).
	FirstBatch time.Duration
}

// Measure makes a loop add what each of its passes spent to *s when the pass
// ends (by its end, a break, a panic in a range, or the iterator's Close): see
// [Stats]. Read s when no pass of
// the loop runs; loops that share one Stats add under one lock. Measuring
// costs two clock readings per batch in the gathering goroutine and two in the
// loop body's, and a closure per pass.
func Measure(s *Stats) Option {
	return func(c *config) { c.stats = s; c.set |= optMeasure }
}

// statsLock serializes the additions of all measured loops: passes end
// rarely, and one lock needs no state in the user's Stats.
var statsLock sync.Mutex

// A meter measures one pass of a loop for [Measure].
type meter[X any] struct {
	s    *Stats
	pass Stats
	size func(reflect.Value) int64
}

func newMeter[X any](s *Stats) *meter[X] {
	return &meter[X]{s: s, pass: Stats{Passes: 1}, size: sizer(reflect.TypeFor[X]())}
}

// measure returns fill wrapped to time each gather, in the goroutine that
// gathers.
func (m *meter[X]) measure(fill func(*step[X])) func(*step[X]) {
	return func(st *step[X]) {
		t := time.Now()
		fill(st)
		st.busy = time.Since(t)
	}
}

// got counts the step a pull that began at t returned.
func (m *meter[X]) got(st *step[X], ok bool, t time.Time) {
	now := time.Now()
	if !ok {
		return
	}
	if m.pass.Batches == 0 {
		m.pass.FirstBatch = now.Sub(t)
	}
	m.pass.Wait += now.Sub(t)
	m.pass.Busy += st.busy
	m.pass.Bytes += m.size(reflect.ValueOf(&st.data).Elem())
	m.pass.Batches++
}

// done adds the pass's figures to the loop's Stats.
func (m *meter[X]) done() {
	statsLock.Lock()
	defer statsLock.Unlock()
	s, pass := m.s, &m.pass
	s.Passes += pass.Passes
	s.Batches += pass.Batches
	s.Wait += pass.Wait
	s.Busy += pass.Busy
	s.Bytes += pass.Bytes
	if pass.Batches > 0 {
		s.FirstBatch = pass.FirstBatch
	}
}

// bytesMethod is the method a batch type may have to say its size.
var bytesMethod = reflect.TypeFor[interface{ Bytes() int }]()

// sizer returns a function giving the bytes of a value of t, as Stats.Bytes
// says.
func sizer(t reflect.Type) func(reflect.Value) int64 { return sizerDepth(t, 0) }

func sizerDepth(t reflect.Type, depth int) func(reflect.Value) int64 {
	if depth > 8 { // a type that holds itself: not a batch
		return func(reflect.Value) int64 { return 0 }
	}
	if t.Implements(bytesMethod) {
		return func(v reflect.Value) int64 {
			if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
				return 0
			}
			return int64(v.Interface().(interface{ Bytes() int }).Bytes())
		}
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		n := int64(t.Size())
		return func(reflect.Value) int64 { return n }
	case reflect.String:
		return func(v reflect.Value) int64 { return int64(v.Len()) }
	case reflect.Slice, reflect.Array:
		e := t.Elem()
		switch e.Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
			reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
			n := int64(e.Size())
			return func(v reflect.Value) int64 { return int64(v.Len()) * n }
		}
		each := sizerDepth(e, depth+1)
		return func(v reflect.Value) int64 {
			var sum int64
			for i := range v.Len() {
				sum += each(v.Index(i))
			}
			return sum
		}
	case reflect.Struct:
		var fields []int
		var sizes []func(reflect.Value) int64
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				fields, sizes = append(fields, i), append(sizes, sizerDepth(t.Field(i).Type, depth+1))
			}
		}
		return func(v reflect.Value) int64 {
			var sum int64
			for k, i := range fields {
				sum += sizes[k](v.Field(i))
			}
			return sum
		}
	case reflect.Pointer:
		elem := sizerDepth(t.Elem(), depth+1)
		return func(v reflect.Value) int64 {
			if v.IsNil() {
				return 0
			}
			return elem(v.Elem())
		}
	}
	return func(reflect.Value) int64 { return 0 }
}
