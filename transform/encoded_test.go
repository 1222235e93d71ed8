package transform_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/transform"
)

// TestJoinKeepsEncoded: a join of Encoded parts, and a filter of an Encoded
// container, read their sources' AppendObs; a map, which computes new values,
// is not Encoded.
func TestJoinKeepsEncoded(t *testing.T) {
	b := containertest.NewBlobs(40)
	j := transform.Join[[]byte](subset.Range(b, 0, 10), subset.Range(b, 25, 40), b)
	containertest.CheckPassesEncoded(t, j, b, func(k int) int {
		switch {
		case k < 10:
			return k
		case k < 25:
			return 25 + k - 10
		}
		return k - 25
	})
	containertest.Run(t, j, containertest.SliceConfig[[]byte]())

	long := transform.Filter(b, func(obs []byte) bool { return len(obs) > 30 })
	containertest.CheckPassesEncoded(t, long, b, long.Index)

	m := transform.Map(b, bytes.ToUpper)
	if _, ok := any(m).(container.Encoded); ok {
		t.Fatal("transform.Map's result is a container.Encoded: it would hand out the source's bytes, not the map's")
	}
	b.Reset()
	got, err := container.AppendObs(m, nil, 3)
	if err != nil || !bytes.Equal(got, bytes.ToUpper(b.Want(nil, 3))) || b.Appends() != 0 {
		t.Fatalf("AppendObs of a map = %q, %v (%d AppendObs of the source), want the map's value read through GetObs", got, err, b.Appends())
	}
}

// TestJoinEncodedRandomPart: a part that draws per observation, or a view of
// one, is read by AppendObs as the join's GetObs reads it (with the part's
// stream), though the view has an AppendObs of its own.
func TestJoinEncodedRandomPart(t *testing.T) {
	noisy := transform.MapRand(container.Container[[]byte](containertest.NewBlobs(6)), func(x []byte, rng *rand.Rand) []byte {
		return append(x, byte(rng.IntN(256)), byte(rng.IntN(256)))
	})
	j := transform.Join[[]byte](containertest.NewBlobs(4), noisy, subset.Range(noisy, 1, 5))
	containertest.Run(t, j, containertest.SliceConfig[[]byte]())
}
