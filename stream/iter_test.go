package stream_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/stream"
	"go.uber.org/goleak"
)

// TestIterProtocol walks an Iter through its life: the end, Close, a failure,
// and restores into each; a refused state leaves the pass where it stood.
func TestIterProtocol(t *testing.T) {
	s := ints(5)
	it := s.Iter()
	defer it.Close()
	if got := takeN(t, it, 10); !slices.Equal(got, seq(5)) {
		t.Fatalf("pass = %v", got)
	}
	if v, ok := it.Next(); ok || v != 0 || it.Err() != nil {
		t.Errorf("Next at the end = %d, %v (Err %v), want 0, false, nil", v, ok, it.Err())
	}
	end, err := it.MarshalBinary()
	if err != nil {
		t.Fatalf("MarshalBinary at the end: %v", err)
	}
	if got, _ := rest(restored(t, s, end)); len(got) != 0 {
		t.Errorf("a pass restored at the end yields %v", got)
	}
	// An ended pass reopens at a restored state.
	if err := it.UnmarshalBinary(savedAfter(t, s, 2)); err != nil {
		t.Fatal(err)
	}
	if got := takeN(t, it, 10); !slices.Equal(got, []int{2, 3, 4}) {
		t.Errorf("an ended pass restored after 2 = %v, want [2 3 4]", got)
	}

	// Close: Next returns false, MarshalBinary still works, UnmarshalBinary
	// reopens; Close twice is fine.
	it = s.Iter()
	takeN(t, it, 3)
	it.Close()
	it.Close()
	if _, ok := it.Next(); ok {
		t.Error("Next after Close returned a value")
	}
	st, err := it.MarshalBinary()
	if err != nil {
		t.Fatalf("MarshalBinary after Close: %v", err)
	}
	if err := it.UnmarshalBinary(st); err != nil {
		t.Fatal(err)
	}
	if got := takeN(t, it, 10); !slices.Equal(got, []int{3, 4}) {
		t.Errorf("a closed pass restored = %v, want [3 4]", got)
	}

	// A refused state leaves a pass standing in the middle as it was.
	it = s.Iter()
	takeN(t, it, 2)
	if err := it.UnmarshalBinary([]byte("junk")); !errors.Is(err, container.ErrState) {
		t.Errorf("UnmarshalBinary(junk) = %v, want ErrState", err)
	}
	if got := takeN(t, it, 10); !slices.Equal(got, []int{2, 3, 4}) {
		t.Errorf("after a refused state = %v, want [2 3 4]", got)
	}
	it.Close()

	// A failed pass: Err, no more values, no state; an earlier one restores.
	f := failing(t, 3)
	early := savedAfter(t, f, 1)
	it = f.Iter()
	if got, err := rest(it); !slices.Equal(got, seq(3)) || !errors.Is(err, errSource) {
		t.Fatalf("failing pass = %v, %v", got, err)
	}
	if _, ok := it.Next(); ok || !errors.Is(it.Err(), errSource) {
		t.Errorf("Next after the failure returned a value, or Err forgot it: %v", it.Err())
	}
	if _, err := it.MarshalBinary(); err == nil || err.Error() != "stream.Iter.MarshalBinary: the pass failed (source failed); restore an earlier state" {
		t.Errorf("MarshalBinary after the failure = %v, want an error saying the pass failed", err)
	}
	var last error
	n := 0
	for _, err := range it.All() { // the range form of a failed pass: its error again
		last, n = err, n+1
	}
	if n != 1 || !errors.Is(last, errSource) {
		t.Errorf("Iter.All of a failed pass: %d elements, last error %v; want the error alone", n, last)
	}
	if err := it.UnmarshalBinary(early); err != nil {
		t.Fatal(err)
	}
	if got, err := rest(it); !slices.Equal(got, []int{1, 2}) || !errors.Is(err, errSource) {
		t.Errorf("a failed pass restored after 1 = %v, %v; want [1 2] then the error", got, err)
	}
}

// TestIterAllContinues: a break out of Iter.All leaves the pass where the
// loop body stood, and a later Iter.All or Next continues with the next value;
// a range of Stream.All is a new pass every time.
func TestIterAllContinues(t *testing.T) {
	s := stream.Map(ints(10), func(v int) int { return v * 2 })
	it := s.Iter()
	defer it.Close()
	var got []int
	for v, err := range it.All() {
		if err != nil {
			t.Fatal(err)
		}
		if got = append(got, v); len(got) == 3 {
			break
		}
	}
	if v, ok := it.Next(); !ok || v != 6 {
		t.Errorf("Next after a break = %d, %v; want 6", v, ok)
	}
	for v := range it.All() {
		got = append(got, v)
	}
	if want := []int{0, 2, 4, 8, 10, 12, 14, 16, 18}; !slices.Equal(got, want) {
		t.Errorf("across a break = %v, want %v", got, want)
	}
	for range 2 {
		if all, _ := read(t, s); len(all) != 10 {
			t.Errorf("Stream.All yields %d values, want a new pass of 10", len(all))
		}
	}
}

// TestFromIter reads an eachobs loader with workers through FromIter: its
// batches (owned, so that stages may keep them) pass unchanged; a pass
// restores at any batch, with the loader's own state; a break out of Iter.All
// stops the loader's goroutines (saving and closing it) and the pass goes on
// from a new loader iterator.
func TestFromIter(t *testing.T) {
	before := goleak.IgnoreCurrent()
	c := container.FromFunc(103, func(i int) int { return i * i })
	loader := eachobs.NewLoader(c, 10, eachobs.Shuffle(4), eachobs.Owned(), eachobs.Workers(2), eachobs.Prefetch(2))
	// Two epochs of 11 batches (the iterator goes on epoch after epoch).
	data := stream.Take(stream.Map(stream.FromIter(loader.Iter), func(b eachobs.Batch[[]int]) []int { return b.Data }), 22)
	want, err := read(t, data)
	if err != nil {
		t.Fatal(err)
	}
	var direct [][]int
	for b := range loader.Iter().All() {
		if direct = append(direct, b.Data); len(direct) == 22 {
			break
		}
	}
	if d := cmp.Diff(direct, want); d != "" || len(want) != 22 {
		t.Fatalf("FromIter of the loader differs from its iterator (%d batches) (-loader +stream):\n%s", len(want), d)
	}
	for _, k := range []int{0, 1, 10, 11, 21, 22} {
		got, err := rest(restored(t, data, savedAfter(t, data, k)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want[k:], got, cmpEmptyBatches); d != "" {
			t.Errorf("restored after %d batches mismatch (-want +got):\n%s", k, d)
		}
	}
	it := data.Iter()
	defer it.Close()
	var got [][]int
	for len(got) < len(want) {
		n := 0
		for b, err := range it.All() {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, b)
			if n++; n == 4 {
				break
			}
		}
		// Paused: no goroutine of the loader runs.
		if err := goleak.Find(before); err != nil {
			t.Fatalf("after a break at batch %d: %v", len(got), err)
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("across breaks mismatch (-want +got):\n%s", d)
	}
	// The state of a loader of another seed is refused by the loader's
	// iterator, and the stream says so.
	other := eachobs.NewLoader(c, 10, eachobs.Shuffle(5), eachobs.Owned())
	otherData := stream.Take(stream.Map(stream.FromIter(other.Iter), func(b eachobs.Batch[[]int]) []int { return b.Data }), 22)
	err = otherData.Iter().UnmarshalBinary(savedAfter(t, data, 3))
	if !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), "stage 2 (iterator): the iterator: eachobs.Loader.Iter: UnmarshalBinary: Shuffle: the position's seed is 4, the loader's 5") {
		t.Errorf("another loader's state: %v, want ErrState naming the iterator", err)
	}
}

// stubborn is an iterator over 0..n-1 that saves its position but refuses
// every state, to show how FromIter reports an iterator that does not restore
// after a pause.
type stubborn struct {
	n, pos int
}

func (s *stubborn) Next() (int, bool) {
	if s.pos == s.n {
		return 0, false
	}
	s.pos++
	return s.pos - 1, true
}
func (s *stubborn) Err() error                     { return nil }
func (s *stubborn) Close()                         {}
func (s *stubborn) MarshalBinary() ([]byte, error) { return []byte{byte(s.pos)}, nil }
func (s *stubborn) UnmarshalBinary([]byte) error {
	return errors.New("stubborn: no state fits")
}

// TestFromIterFailures: an iterator that cannot save makes MarshalBinary fail
// with its error and keeps running across a break; one that cannot restore its
// own state after a break ends the stream with its error.
func TestFromIterFailures(t *testing.T) {
	plain := stream.From(func(yield func(int) bool) {
		for i := 0; i < 10 && yield(i); i++ {
		}
	})
	s := stream.FromIter(plain.Iter)
	it := s.Iter()
	defer it.Close()
	for range it.All() {
		break
	}
	if _, err := it.MarshalBinary(); !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), "stream.From") {
		t.Errorf("MarshalBinary over a From = %v, want ErrState naming stream.From", err)
	}
	if got, err := rest(it); !slices.Equal(got, seq(10)[1:]) || err != nil {
		t.Errorf("after a break = %v, %v; want 1..9", got, err)
	}

	s = stream.FromIter(func() *stubborn { return &stubborn{n: 10} })
	it = s.Iter()
	for range it.All() {
		break
	}
	got, err := rest(it)
	if len(got) != 0 || err == nil || err.Error() != "stubborn: no state fits" {
		t.Errorf("after a break, an iterator that does not restore: %v, %v; want its error", got, err)
	}
}
