package imagedata

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/tuples"
)

func writeFile(t testing.TB, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pairConfig is the conformance checker's view of the batches of a labeled
// container.
func pairConfig[L any]() containertest.Config[tuples.Pair[[]byte, L], tuples.Pair[[][]byte, []L]] {
	return containertest.Config[tuples.Pair[[]byte, L], tuples.Pair[[][]byte, []L]]{
		Obs: func(b tuples.Pair[[][]byte, []L], j int) tuples.Pair[[]byte, L] {
			return tuples.Pair[[]byte, L]{X: b.X[j], Y: b.Y[j]}
		},
		Len: func(b tuples.Pair[[][]byte, []L]) int { return len(b.X) },
		// cmp compares byte slices element by element: bytes.Equal is what
		// keeps the checker quick on images.
		Options: []cmp.Option{cmp.Comparer(bytes.Equal)},
	}
}

// bytesConfig is the conformance checker's view of a container of byte
// slices.
func bytesConfig() containertest.Config[[]byte, [][]byte] {
	c := containertest.SliceConfig[[]byte]()
	c.Options = []cmp.Option{cmp.Comparer(bytes.Equal)}
	return c
}
