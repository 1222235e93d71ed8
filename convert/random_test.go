package convert_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/convert"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/transform"
)

// randomArrays returns a random container of arrays: observation i is the pair
// (draw, -draw) of d's observation i, as float32.
func randomArrays(d *containertest.Draws) container.Batched[*arraycontainer.Array[float32], *arraycontainer.Array[float32]] {
	obs := func(x int) *arraycontainer.Array[float32] {
		a, _ := arraycontainer.New([]float32{float32(x), -float32(x)}, []int{2}, obsdim.First)
		return a
	}
	batch := func(dst *arraycontainer.Array[float32], src []int) *arraycontainer.Array[float32] {
		dst = arraycontainer.Resize(dst, []int{len(src), 2}, obsdim.First)
		out := dst.Data()
		for j, x := range src {
			out[2*j], out[2*j+1] = float32(x), -float32(x)
		}
		return dst
	}
	return transform.MapBatches(d, obs, batch)
}

// TestArraysPassRandomnessThrough: Scale and Standardize of a random container
// of arrays, and OneHot and Cast of random labels, convert the draws of the
// randomness they are handed.
func TestArraysPassRandomnessThrough(t *testing.T) {
	d := containertest.NewDraws(20)
	r := container.NewObsRand(2, 5)
	idx := []int{19, 0, 7}
	scaled := convert.Scale(randomArrays(d), float32(0.5), float32(1))
	got := scaled.GetObsRandInto(nil, idx, r)
	want := make([]float32, 0, 2*len(idx))
	for _, i := range idx {
		v := float32(d.Want(i, r))
		want = append(want, v*0.5+1, -v*0.5+1)
	}
	if !cmp.Equal(got.Data()[:got.Len()], want) {
		t.Errorf("Scale: GetObsRandInto mismatch (-want +got):\n%s", cmp.Diff(want, got.Data()[:got.Len()]))
	}
	if o := scaled.GetObsRand(7, r); !cmp.Equal(o.Data()[:o.Len()], want[4:6]) {
		t.Errorf("Scale: GetObsRand(7) = %v, want %v", o.Data()[:o.Len()], want[4:6])
	}
	if d.Calls() != 2 {
		t.Errorf("the source received randomness %d times, want 2", d.Calls())
	}
	containertest.Run(t, scaled, arrayConfig[float32]())

	// Labels: a random label container (draws mod 3) one-hot encoded and cast.
	labels := transform.MapBatches(containertest.NewDraws(20), func(x int) int { return x % 3 }, func(dst []int, src []int) []int {
		dst = container.Resize(dst, len(src))
		for j, x := range src {
			dst[j] = x % 3
		}
		return dst
	})
	hot, err := convert.OneHot[int, float32](labels, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	oh := hot.GetObsRandInto(nil, idx, r)
	for j, i := range idx {
		if k := d.Want(i, r) % 3; oh.Data()[3*j+k] != 1 {
			t.Errorf("OneHot slot %d (index %d): %v, want class %d", j, i, oh.Data()[3*j:3*j+3], k)
		}
	}
	containertest.Run(t, hot, arrayConfig[float32]())
	cast, err := convert.Cast[int8](labels)
	if err != nil {
		t.Fatal(err)
	}
	c8 := cast.GetObsRandInto(nil, idx, r)
	for j, i := range idx {
		if want := int8(d.Want(i, r) % 3); c8[j] != want {
			t.Errorf("Cast slot %d (index %d) = %d, want %d", j, i, c8[j], want)
		}
	}
	if got := cast.GetObsRand(19, r); got != int8(d.Want(19, r)%3) {
		t.Errorf("Cast: GetObsRand(19) = %d", got)
	}
	containertest.Run(t, cast, containertest.SliceConfig[int8]())
}

// seedTimes is a random container whose observations are 300 times the seed
// of the pass: 0 outside a loop, which Cast checks, and out of int8 otherwise.
type seedTimes struct{ container.Slice[int] }

func (c seedTimes) GetObsRand(i int, r container.ObsRand) int {
	container.CheckIndex("seedTimes", i, len(c.Slice))
	return 300 * int(r.Seed())
}

func (c seedTimes) GetObsRandInto(dst []int, idx []int, r container.ObsRand) []int {
	dst = container.Resize(dst, len(idx))
	for j, i := range idx {
		dst[j] = c.GetObsRand(i, r)
	}
	return dst
}

// TestCastRefusesADrawOutOfRange: Cast checks the values GetObs reads; a draw
// with other randomness that does not fit panics with ErrRange.
func TestCastRefusesADrawOutOfRange(t *testing.T) {
	cast, err := convert.Cast[int8](seedTimes{container.Slice[int]{0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	r := container.NewObsRand(1, 0)
	for name, f := range map[string]func(){
		"GetObsRand":     func() { cast.GetObsRand(1, r) },
		"GetObsRandInto": func() { cast.GetObsRandInto(nil, []int{0, 1}, r) },
	} {
		func() {
			defer func() {
				e, _ := recover().(error)
				if !errors.Is(e, convert.ErrRange) || !strings.Contains(e.Error(), "value 300 at index") {
					t.Errorf("%s of a draw of 300 into int8: panic %v, want an error wrapping ErrRange naming the value", name, e)
				}
			}()
			f()
		}()
	}
}
