package tuples_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/tuples"
)

// TestTuplesPassRandomnessThrough: every random member of a tuple receives the
// same randomness, so members that draw alike stay aligned; a plain member is
// read as it is.
func TestTuplesPassRandomnessThrough(t *testing.T) {
	const n = 40
	x, z := containertest.NewDraws(n), containertest.NewDraws(n)
	y := make(container.Slice[string], n)
	for i := range y {
		y[i] = string(rune('a' + i%26))
	}
	r := container.NewObsRand(5, 1)
	idx := []int{9, 0, 39, 9}

	t2, err := tuples.Zip2(x, y)
	if err != nil {
		t.Fatal(err)
	}
	got2 := t2.GetObsRandInto(tuples.Pair[[]int, []string]{}, idx, r)
	for j, i := range idx {
		if got2.X[j] != x.Want(i, r) || got2.Y[j] != y[i] {
			t.Fatalf("Tuple2 slot %d (index %d) = (%d, %q), want (%d, %q)", j, i, got2.X[j], got2.Y[j], x.Want(i, r), y[i])
		}
	}
	if p := t2.GetObsRand(39, r); p.X != x.Want(39, r) || p.Y != y[39] {
		t.Errorf("Tuple2.GetObsRand(39) = %v", p)
	}
	containertest.Run(t, t2, pairConfig[int, string]())

	t3, err := tuples.Zip3(x, y, z)
	if err != nil {
		t.Fatal(err)
	}
	got3 := t3.GetObsRandInto(tuples.Triple[[]int, []string, []int]{}, idx, r)
	if !cmp.Equal(got3.X, got3.Z) {
		t.Errorf("Tuple3: two members drawing alike differ: X %v, Z %v", got3.X, got3.Z)
	}
	for j, i := range idx {
		if got3.X[j] != x.Want(i, r) {
			t.Fatalf("Tuple3 slot %d = %d, want %d", j, got3.X[j], x.Want(i, r))
		}
	}
	if p := t3.GetObsRand(0, r); p.X != x.Want(0, r) || p.Z != x.Want(0, r) {
		t.Errorf("Tuple3.GetObsRand(0) = %v", p)
	}

	g, err := tuples.NewNamed([]string{"a", "b"}, x, z)
	if err != nil {
		t.Fatal(err)
	}
	gotN := g.GetObsRandInto(nil, idx, r)
	for j, i := range idx {
		if gotN[0][j] != x.Want(i, r) || gotN[1][j] != x.Want(i, r) {
			t.Fatalf("Named slot %d = (%d, %d), want %d twice", j, gotN[0][j], gotN[1][j], x.Want(i, r))
		}
	}
	if o := g.GetObsRand(4, r); o[0] != x.Want(4, r) || o[1] != x.Want(4, r) {
		t.Errorf("Named.GetObsRand(4) = %v", o)
	}
	if x.Calls() == 0 || z.Calls() == 0 {
		t.Errorf("members received randomness %d and %d times, want both > 0", x.Calls(), z.Calls())
	}
}
