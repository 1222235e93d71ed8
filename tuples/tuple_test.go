package tuples_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/tuples"
)

func pairConfig[A, B any]() containertest.Config[tuples.Pair[A, B], tuples.Pair[[]A, []B]] {
	return containertest.Config[tuples.Pair[A, B], tuples.Pair[[]A, []B]]{
		Obs: func(b tuples.Pair[[]A, []B], j int) tuples.Pair[A, B] { return tuples.Pair[A, B]{X: b.X[j], Y: b.Y[j]} },
		Len: func(b tuples.Pair[[]A, []B]) int {
			if len(b.X) != len(b.Y) {
				return -1
			}
			return len(b.X)
		},
	}
}

func data(n int) ([]float64, []string, []int) {
	x, y, z := make([]float64, n), make([]string, n), make([]int, n)
	for i := range n {
		x[i] = float64(i) * 1.5
		y[i] = string(rune('a' + i%26))
		z[i] = i % 3
	}
	return x, y, z
}

func TestConformance(t *testing.T) {
	for _, n := range []int{0, 1, 9, 300} {
		x, y, z := data(n)
		t.Run("Zip2", func(t *testing.T) {
			p, err := tuples.Zip2(container.FromSlice(x), container.FromSlice(y))
			if err != nil {
				t.Fatal(err)
			}
			containertest.Run(t, p, pairConfig[float64, string]())
		})
		t.Run("Zip3", func(t *testing.T) {
			p, err := tuples.Zip3(container.FromSlice(x), container.FromSlice(y), container.FromSlice(z))
			if err != nil {
				t.Fatal(err)
			}
			containertest.Run(t, p, containertest.Config[tuples.Triple[float64, string, int], tuples.Triple[[]float64, []string, []int]]{
				Obs: func(b tuples.Triple[[]float64, []string, []int], j int) tuples.Triple[float64, string, int] {
					return tuples.Triple[float64, string, int]{X: b.X[j], Y: b.Y[j], Z: b.Z[j]}
				},
				Len: func(b tuples.Triple[[]float64, []string, []int]) int {
					if len(b.X) != len(b.Z) || len(b.Y) != len(b.Z) {
						return -1
					}
					return len(b.Z)
				},
			})
		})
		t.Run("Named", func(t *testing.T) {
			w := make([]int, n)
			for i := range w {
				w[i] = -i
			}
			g, err := tuples.NewNamed([]string{"data", "label"}, container.FromSlice(w), container.FromSlice(z))
			if err != nil {
				t.Fatal(err)
			}
			containertest.Run(t, g, containertest.Config[[]int, [][]int]{
				Obs: func(b [][]int, j int) []int { return []int{b[0][j], b[1][j]} },
				Len: func(b [][]int) int {
					if len(b) != 2 || len(b[0]) != len(b[1]) {
						return -1
					}
					return len(b[0])
				},
			})
		})
	}
}

func TestNobsMismatch(t *testing.T) {
	a, b, c := container.FromSlice([]int{1, 2, 3}), container.FromSlice([]int{1, 2}), container.FromSlice([]int{1, 2, 3})
	for name, f := range map[string]func() error{
		"Zip2":     func() error { _, err := tuples.Zip2(a, b); return err },
		"Zip3":     func() error { _, err := tuples.Zip3(a, c, b); return err },
		"NewNamed": func() error { _, err := tuples.NewNamed([]string{"p", "q"}, a, b); return err },
	} {
		err := f()
		if !errors.Is(err, tuples.ErrNobsMismatch) {
			t.Errorf("%s: error %v, want ErrNobsMismatch", name, err)
			continue
		}
		if !strings.Contains(err.Error(), "has 3") || !strings.Contains(err.Error(), "has 2") || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error %q does not name the operation and both counts", name, err)
		}
	}
}

func TestNamedNames(t *testing.T) {
	a := container.FromSlice([]int{1})
	for _, tc := range []struct {
		names   []string
		members int
	}{
		{[]string{"x"}, 2},
		{[]string{"x", "x"}, 2},
		{[]string{"x", ""}, 2},
		{nil, 0},
	} {
		ms := make([]container.Slice[int], tc.members)
		for k := range ms {
			ms[k] = a
		}
		if _, err := tuples.NewNamed(tc.names, ms...); !errors.Is(err, tuples.ErrName) {
			t.Errorf("NewNamed(%q, %d members) error %v, want ErrName", tc.names, tc.members, err)
		}
	}
	names := []string{"data", "label"}
	g, err := tuples.NewNamed(names, a, container.FromSlice([]int{7}))
	if err != nil {
		t.Fatal(err)
	}
	names[0] = "changed" // NewNamed copies the names
	if g.Index("label") != 1 || g.Index("nope") != -1 || g.Len() != 2 {
		t.Errorf("Index(label)=%d Index(nope)=%d Len=%d, want 1 -1 2", g.Index("label"), g.Index("nope"), g.Len())
	}
	if d := cmp.Diff([]string{"data", "label"}, g.Names()); d != "" {
		t.Errorf("Names() mismatch (-want +got):\n%s", d)
	}
}

// TestMembersKeepTheirTypes is a compile-time check first: X, Y, Z and Member
// return each member with its own concrete type, assigned here to variables of
// that type without a type assertion. Each is the member itself, not a copy.
func TestMembersKeepTheirTypes(t *testing.T) {
	a, err := arraycontainer.New([]float32{1, 2, 3, 4, 5, 6}, []int{3, 2}, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	labels := container.FromSlice([]int{0, 1, 0})
	names := container.FromSlice([]string{"p", "q", "r"})

	p, err := tuples.Zip2(a, labels)
	if err != nil {
		t.Fatal(err)
	}
	var px *arraycontainer.Array[float32] = p.X()
	var py container.Slice[int] = p.Y()
	if px != a || &py[0] != &labels[0] {
		t.Errorf("Zip2: X() or Y() is not the member given")
	}
	if d := cmp.Diff([]int{3, 2}, px.Shape()); d != "" { // an Array method, no assertion
		t.Errorf("X().Shape() mismatch (-want +got):\n%s", d)
	}

	// arraycontainer's alias names the same type.
	var lt *arraycontainer.LabeledTuple[float32, int] = p
	if lt.X() != a {
		t.Errorf("LabeledTuple.X() is not the member given")
	}

	p3, err := tuples.Zip3(a, labels, names)
	if err != nil {
		t.Fatal(err)
	}
	var x3 *arraycontainer.Array[float32] = p3.X()
	var y3 container.Slice[int] = p3.Y()
	var z3 container.Slice[string] = p3.Z()
	if x3 != a || &y3[0] != &labels[0] || &z3[0] != &names[0] {
		t.Errorf("Zip3: X(), Y() or Z() is not the member given")
	}

	b, err := arraycontainer.New([]float32{7, 8, 9}, []int{3}, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	g, err := tuples.NewNamed([]string{"a", "b"}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	var m1 *arraycontainer.Array[float32] = g.Member(1)
	if m1 != b || g.Member(0) != a {
		t.Errorf("Member(k) is not member k")
	}
	defer func() {
		err, _ := recover().(error)
		var ie *container.IndexError
		if !errors.As(err, &ie) || ie.Index != 2 || ie.Nobs != 2 {
			t.Errorf("Member(2) of 2 panicked with %v, want an *IndexError for index 2 of 2", err)
		}
	}()
	g.Member(2)
}

func TestBatchesUseMemberFastPath(t *testing.T) {
	x := containertest.NewCounting([]int{1, 2, 3, 4})
	y := containertest.NewCounting([]int{5, 6, 7, 8})
	p, err := tuples.Zip2(x, y)
	if err != nil {
		t.Fatal(err)
	}
	got := p.GetObsInto(tuples.Pair[[]int, []int]{}, []int{3, 1, 1})
	want := tuples.Pair[[]int, []int]{X: []int{4, 2, 2}, Y: []int{8, 6, 6}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("GetObsInto mismatch (-want +got):\n%s", d)
	}
	if x.Batches() != 1 || y.Batches() != 1 || x.Singles() != 0 || y.Singles() != 0 {
		t.Errorf("members read with %d+%d batch calls and %d+%d single calls, want one batch call each and no single calls", x.Batches(), y.Batches(), x.Singles(), y.Singles())
	}

	z := containertest.NewCounting([]int{9, 10, 11, 12})
	x.Reset()
	y.Reset()
	p3, err := tuples.Zip3(x, y, z)
	if err != nil {
		t.Fatal(err)
	}
	got3 := p3.GetObsInto(tuples.Triple[[]int, []int, []int]{}, []int{0, 2})
	want3 := tuples.Triple[[]int, []int, []int]{X: []int{1, 3}, Y: []int{5, 7}, Z: []int{9, 11}}
	if d := cmp.Diff(want3, got3); d != "" {
		t.Errorf("Tuple3 GetObsInto mismatch (-want +got):\n%s", d)
	}
	for name, m := range map[string]*containertest.Counting{"X": x, "Y": y, "Z": z} {
		if m.Batches() != 1 || m.Singles() != 0 {
			t.Errorf("Tuple3 member %s read with %d batch and %d single calls, want 1 and 0", name, m.Batches(), m.Singles())
		}
	}

	x.Reset()
	y.Reset()
	g, err := tuples.NewNamed([]string{"x", "y"}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	gotG := g.GetObsInto(nil, []int{1})
	if d := cmp.Diff([][]int{{2}, {6}}, gotG); d != "" {
		t.Errorf("Named GetObsInto mismatch (-want +got):\n%s", d)
	}
	if x.Batches() != 1 || y.Batches() != 1 || x.Singles() != 0 || y.Singles() != 0 {
		t.Errorf("Named members read with %d+%d batch calls and %d+%d single calls, want 1+1 and 0+0", x.Batches(), y.Batches(), x.Singles(), y.Singles())
	}
}

func TestZeroAllocsWithReusedBuffer(t *testing.T) {
	x, y, z := data(1000)
	p2, _ := tuples.Zip2(container.FromSlice(x), container.FromSlice(y))
	p3, _ := tuples.Zip3(container.FromSlice(x), container.FromSlice(y), container.FromSlice(z))
	g, _ := tuples.NewNamed([]string{"a", "b"}, container.FromSlice(z), container.FromSlice(z))
	idx := []int{999, 3, 500, 3}
	b2 := p2.GetObsInto(tuples.Pair[[]float64, []string]{}, idx)
	b3 := p3.GetObsInto(tuples.Triple[[]float64, []string, []int]{}, idx)
	bg := g.GetObsInto(nil, idx)
	for name, f := range map[string]func(){
		"Zip2":  func() { b2 = p2.GetObsInto(b2, idx) },
		"Zip3":  func() { b3 = p3.GetObsInto(b3, idx) },
		"Named": func() { bg = g.GetObsInto(bg, idx) },
	} {
		if a := testing.AllocsPerRun(100, f); a != 0 {
			t.Errorf("%s GetObsInto with a reused buffer: %v allocs, want 0", name, a)
		}
	}
}
