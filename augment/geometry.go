package augment

import (
	"image"
	"math/rand/v2"
)

func (c RandomResizedCrop) outSize() image.Point { return c.Size }

// plan draws the crop and resizes it to Size: the crop is the region, so
// that, as after torchvision's crop(), the filter reads nothing outside it.
func (c RandomResizedCrop) plan(src image.Point, rng *rand.Rand, g *geomPlan) error {
	box := c.Box(src, rng)
	*g = geomPlan{
		rs: resampling{
			filter: c.Filter,
			region: box,
			box:    [4]float64{0, 0, float64(box.Dx()), float64(box.Dy())},
			out:    c.Size,
			win:    image.Rectangle{Max: c.Size},
			src:    src,
		},
		scalable: true,
	}
	return nil
}

// centerCrop is torchvision's Resize(resize) (none when 0) followed by
// CenterCrop(crop): the resize computes only the pixels the crop keeps.
type centerCrop struct {
	resize int
	filter Filter
	crop   image.Point
}

func (c centerCrop) outSize() image.Point { return c.crop }

func (c centerCrop) plan(src image.Point, _ *rand.Rand, g *geomPlan) error {
	out := src
	if c.resize > 0 {
		out = resizedSize(src, c.resize)
	}
	x0, ax := centerWindow(out.X, c.crop.X)
	y0, ay := centerWindow(out.Y, c.crop.Y)
	win := image.Rect(x0, y0, x0+min(out.X, c.crop.X), y0+min(out.Y, c.crop.Y))
	*g = geomPlan{
		rs: resampling{
			filter: c.filter,
			region: image.Rectangle{Max: src},
			box:    [4]float64{0, 0, float64(src.X), float64(src.Y)},
			out:    out,
			win:    win,
			src:    src,
		},
		at:  image.Pt(ax, ay),
		pad: win.Size() != c.crop,
	}
	return nil
}
