package container_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
)

// TestAppendObsFallback: a container of []byte that is not Encoded is read by
// GetObs, its bytes appended after dst's, into a reused buffer without an
// allocation when GetObs allocates none (a Slice hands out its elements).
func TestAppendObsFallback(t *testing.T) {
	s := container.FromSlice([][]byte{[]byte("zero"), {}, []byte("two: a longer one")})
	if _, ok := any(s).(container.Encoded); ok {
		t.Fatal("container.Slice is Encoded; the test needs a container that is not")
	}
	got, err := container.AppendObs(s, []byte("head:"), 2)
	if err != nil || string(got) != "head:two: a longer one" {
		t.Fatalf("AppendObs(Slice, \"head:\", 2) = %q, %v, want \"head:two: a longer one\"", got, err)
	}
	buf := make([]byte, 0, 64)
	var c container.Container[[]byte] = s // boxed once, as a consumer holds it
	if n := testing.AllocsPerRun(100, func() {
		for i := range c.Nobs() {
			buf, _ = container.AppendObs(c, buf[:0], i)
		}
	}); n != 0 {
		t.Errorf("AppendObs of a Slice into a reused buffer: %v allocations, want 0", n)
	}
	if w := container.Where(s, 1); w != "" {
		t.Errorf("Where(Slice, 1) = %q, want \"\" (a slice cannot say)", w)
	}
	for _, i := range []int{-1, 3} {
		for name, f := range map[string]func(){
			"AppendObs": func() { _, _ = container.AppendObs(s, nil, i) },
			"Where":     func() { container.Where(s, i) },
		} {
			var ie *container.IndexError
			if err := panicValue(f); !errors.As(err, &ie) || ie.Index != i || ie.Nobs != 3 {
				t.Errorf("%s(Slice of 3, %d) panicked with %v, want an *IndexError naming index %d of 3", name, i, err, i)
			}
		}
	}
}

// TestAppendObsNotBytes: a container whose observations are not bytes has
// none to append, a programmer error.
func TestAppendObsNotBytes(t *testing.T) {
	err := panicValue(func() { _, _ = container.AppendObs(container.FromSlice([]int{1, 2}), nil, 0) })
	var ae *container.ArgError
	if !errors.As(err, &ae) || ae.Op != "container.AppendObs" || !strings.Contains(err.Error(), "want a container of []byte") {
		t.Fatalf("AppendObs of a Slice[int] panicked with %v, want an *ArgError of container.AppendObs wanting a container of []byte", err)
	}
}

// onlyEncoded is a user's Encoded container without GetObsInto.
type onlyEncoded struct{ b *containertest.Blobs }

func (c onlyEncoded) Nobs() int                                   { return c.b.Nobs() }
func (c onlyEncoded) GetObs(i int) []byte                         { return c.b.GetObs(i) }
func (c onlyEncoded) AppendObs(dst []byte, i int) ([]byte, error) { return c.b.AppendObs(dst, i) }
func (c onlyEncoded) Where(i int) string                          { return c.b.Where(i) }

// TestAsBatchedKeepsEncoded: the adapter passes AppendObs and Where on to the
// container it wraps.
func TestAsBatchedKeepsEncoded(t *testing.T) {
	b := containertest.NewBlobs(12)
	a := container.AsBatched[[]byte](onlyEncoded{b})
	containertest.CheckPassesEncoded(t, a, b, func(k int) int { return k })
	containertest.Run(t, a, containertest.SliceConfig[[]byte]())
	// Over a container that is not Encoded, the adapter falls back to GetObs
	// and cannot say where.
	plain := container.AsBatched[[]byte](sliceOnly{container.FromSlice([][]byte{[]byte("a"), []byte("bc")})})
	if got, err := container.AppendObs(plain, []byte(">"), 1); err != nil || !bytes.Equal(got, []byte(">bc")) {
		t.Errorf("AppendObs(AsBatched(plain), \">\", 1) = %q, %v, want \">bc\"", got, err)
	}
	if w := container.Where(plain, 1); w != "" {
		t.Errorf("Where(AsBatched(plain), 1) = %q, want \"\"", w)
	}
}

// sliceOnly hides a Slice's GetObsInto.
type sliceOnly struct{ s container.Slice[[]byte] }

func (c sliceOnly) Nobs() int           { return c.s.Nobs() }
func (c sliceOnly) GetObs(i int) []byte { return c.s.GetObs(i) }

func panicValue(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err, _ = r.(error)
			if err == nil {
				err = fmt.Errorf("non-error panic: %v", r)
			}
		}
	}()
	f()
	return nil
}

func ExampleAppendObs() {
	lines := container.FromSlice([][]byte{[]byte("GIF89a..."), []byte("\x89PNG...")})
	var buf []byte // one buffer, reused for every observation
	for i := range lines.Nobs() {
		var err error
		if buf, err = container.AppendObs(lines, buf[:0], i); err != nil {
			fmt.Println(err) // a read that failed, named by the container
			return
		}
		fmt.Printf("%q\n", buf)
	}
	// Output:
	// "GIF89a..."
	// "\x89PNG..."
}
