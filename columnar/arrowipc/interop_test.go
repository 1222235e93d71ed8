package arrowipc_test

import (
	"testing"

	"github.com/obskit/obskit/columnar/arrowipc"
	"github.com/obskit/obskit/columnar/internal/columnartest"
	"github.com/obskit/obskit/columnar/internal/interop"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestInterop checks what the Arrow fixtures hold beyond columnartest's
// suite (TestConformance): each record batch's codec, and the one array view
// of the mapping of a column of one uncompressed batch (none in a file of
// several).
func TestInterop(t *testing.T) {
	for _, fx := range interop.Arrow {
		t.Run(fx.Name, func(t *testing.T) {
			f, err := arrowipc.Open(interop.Path(fx.Name))
			if err != nil {
				t.Fatal(err)
			}
			for k := range f.Batches() {
				if got := f.Batch(k).Codec; got != fx.Codec {
					t.Errorf("batch %d codec %q, want %q", k, got, fx.Codec)
				}
			}
			if a := must(arrowipc.Numbers[int64](f, "id")).Array(); a != nil {
				t.Errorf("Numbers(id).Array() of %d batches = %v, want nil", f.Batches(), a)
			}
		})
	}
}

// TestInteropRegenerated writes the fixtures of apache-arrow again, under make
// interop (interop.Regenerate says when), and runs the suite on them.
func TestInteropRegenerated(t *testing.T) {
	dir := interop.Regenerate(t)
	var js []interop.Fixture
	for _, fx := range interop.Arrow {
		if fx.Writer == "apache-arrow" { // arrowgo/main.go writes the others
			js = append(js, fx)
		}
	}
	columnartest.RunDir(t, reader, dir, js)
}
