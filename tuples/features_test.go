package tuples_test

import (
	"math/rand/v2"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// TestFeaturesKeepsEncoded: the features of a tuple are its X member itself;
// those of a view of a tuple read the member at the view's indices and pass
// its AppendObs and Where on; those of other pairs are their X.
func TestFeaturesKeepsEncoded(t *testing.T) {
	b := containertest.NewBlobs(30)
	labels := make(container.Slice[int], b.Nobs())
	for i := range labels {
		labels[i] = i % 3
	}
	data, err := tuples.Zip2(b, labels)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := any(data).(container.Encoded); ok {
		t.Fatal("a Tuple2 is container.Encoded; its observations are pairs")
	}
	if f := tuples.Features(data); f != container.Container[[]byte](b) {
		t.Fatalf("Features of a Tuple2 is %T, want its X member", f)
	}

	parts, err := subset.StratifiedSplit(data, rand.New(rand.NewPCG(1, 2)), 0.6)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range parts {
		f := tuples.Features(part)
		containertest.CheckPassesEncoded(t, f, b, part.Index)
		containertest.Run(t, container.AsBatched(f), containertest.SliceConfig[[]byte]())
		b.Reset()
		if got := tuples.Labels(part); len(got) != part.Nobs() || b.Singles()+b.Appends() != 0 {
			t.Fatalf("Labels of a part read %d images", b.Singles()+b.Appends())
		}
	}

	pairs := container.FromSlice([]tuples.Pair[[]byte, int]{{X: []byte("a"), Y: 1}, {X: []byte("bc"), Y: 2}})
	f := tuples.Features(pairs)
	if _, ok := f.(container.Encoded); ok {
		t.Errorf("Features of a slice of pairs is Encoded")
	}
	if got := container.Collect(f); len(got) != 2 || string(got[0]) != "a" || string(got[1]) != "bc" {
		t.Errorf("Features of a slice of pairs = %q, want [a bc]", got)
	}
}
