package arrowipc_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/columnar/arrowipc"
	"github.com/obskit/obskit/columnar/internal/interop"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
)

// TestBinaryInterop: the binary column and the dictionary-encoded text column
// of every fixture, as []byte: AppendObs gives the formula's bytes, Where
// names the file, the column and the row, and the checker's Encoded checks
// pass (mapped, stream and compressed files).
func TestBinaryInterop(t *testing.T) {
	for _, fx := range interop.Arrow {
		t.Run(fx.Name, func(t *testing.T) {
			path := interop.Path(fx.Name)
			f, err := arrowipc.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"bin", "cat"} {
				s, err := arrowipc.Strings(f, name)
				if err != nil {
					t.Fatal(err)
				}
				b := s.Binary()
				var buf []byte
				for i := range b.Nobs() {
					want := interop.Want(i).Bin
					if name == "cat" {
						want = []byte(interop.Want(i).Cat)
					}
					if buf, err = b.AppendObs(buf[:0], i); err != nil || !bytes.Equal(buf, want) {
						t.Fatalf("%s: AppendObs(_, %d) = %q, %v, want %q", name, i, buf, err, want)
					}
				}
				if got, want := container.Where(container.Container[[]byte](b), 7), fmt.Sprintf("%s: column %q: row 7", path, name); got != want {
					t.Errorf("Where(7) = %q, want %q", got, want)
				}
				containertest.Run(t, b, containertest.Config[[]byte, columnar.Ragged[byte]]{
					Obs: func(r columnar.Ragged[byte], j int) []byte { return r.At(j) },
					Len: func(r columnar.Ragged[byte]) int { return r.Len() },
				})
			}
		})
	}
}
