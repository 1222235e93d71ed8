package augment

import (
	"fmt"
	"image"
	"testing"

	"github.com/obskit/obskit/imagecodec"
)

// collect is a rowSink that keeps the rows.
type collect struct{ v view }

func (c *collect) row(y int, px []uint8) { copy(c.v.pix[y*c.v.stride:], px) }

// resampleView resamples src as rs says into a new view of the window.
func resampleView(r *resampler, src view, rs *resampling) view {
	r.prepare(rs)
	w, h := rs.win.Dx(), rs.win.Dy()
	c := &collect{view{pix: make([]uint8, 3*w*h), stride: 3 * w, w: w, h: h}}
	r.run(src, c)
	return c.v
}

// TestResizePillow checks that every filter of Pillow gives Pillow's pixels
// exactly: Image.resize with and without a box, and crop() then resize().
func TestResizePillow(t *testing.T) {
	var r resampler // one resampler for every case: its buffers carry nothing over
	for _, c := range testCases(t).Resize {
		t.Run(c.Name, func(t *testing.T) {
			src := loadPNG(t, c.Src)
			rs := resampling{
				filter: filterByName(t, c.Filter),
				region: image.Rect(0, 0, src.w, src.h),
				out:    image.Pt(c.Size[0], c.Size[1]),
				win:    image.Rect(0, 0, c.Size[0], c.Size[1]),
			}
			if c.Crop != nil {
				rs.region = image.Rect(c.Crop[0], c.Crop[1], c.Crop[2], c.Crop[3])
			}
			rs.box = [4]float64{0, 0, float64(rs.region.Dx()), float64(rs.region.Dy())}
			if c.Box != nil {
				rs.box = *c.Box
			}
			got := resampleView(&r, src, &rs).pixels()
			want := expected[uint8](t, c.Name).Data()
			if len(got) != len(want) {
				t.Fatalf("got %d bytes, want %d", len(got), len(want))
			}
			if maxd, mean := levelDiff(got, want); maxd != 0 {
				t.Errorf("differs from Pillow: max %d levels, mean %.4f", maxd, mean)
			}
			if c.Box == nil {
				// The same through the exported Filter.Resize, on the
				// (cropped) image as a SubImage.
				img := rgbOf(src).SubImage(rs.region).(*imagecodec.RGB)
				out := rs.filter.Resize(nil, img, rs.out)
				if maxd, _ := levelDiff(out.Pix, want); maxd != 0 || out.Rect != image.Rect(0, 0, c.Size[0], c.Size[1]) {
					t.Errorf("Filter.Resize: %v, differs from Pillow by %d levels", out.Rect, maxd)
				}
			}
		})
	}
}

// TestResizeOpenCV checks the kernels of MXNet's inter_method against
// OpenCV's cv2.resize: within 3 levels and a mean of 0.4 (OpenCV weighs in
// 11-bit fixed point, or in float for INTER_AREA, and rounds once; the
// resampler weighs in Pillow's 22 bits and rounds after each pass) and exactly
// for nearest.
func TestResizeOpenCV(t *testing.T) {
	var r resampler
	for _, c := range testCases(t).CV {
		t.Run(c.Name, func(t *testing.T) {
			src := loadPNG(t, c.Src)
			if c.Crop != nil {
				src = src.sub(image.Rect(c.Crop[0], c.Crop[1], c.Crop[2], c.Crop[3]))
			}
			rs := resampling{
				filter: filterByName(t, c.Filter),
				region: image.Rect(0, 0, src.w, src.h),
				box:    [4]float64{0, 0, float64(src.w), float64(src.h)},
				out:    image.Pt(c.Size[0], c.Size[1]),
				win:    image.Rect(0, 0, c.Size[0], c.Size[1]),
			}
			got := resampleView(&r, src, &rs).pixels()
			want := expected[uint8](t, c.Name).Data()
			maxd, mean := levelDiff(got, want)
			tol := 3
			if rs.filter == CVNearest {
				tol = 0
			}
			if maxd > tol || mean > 0.4 {
				t.Errorf("differs from OpenCV by max %d levels (want <= %d), mean %.3f (want <= 0.4)", maxd, tol, mean)
			}
		})
	}
}

// TestResizeWindow checks that computing a window of an output gives the
// window of the whole output: what lets a centre crop resample only what it
// keeps.
func TestResizeWindow(t *testing.T) {
	src := loadPNG(t, "chelsea.png")
	var r resampler
	for _, f := range []Filter{Bilinear, Nearest, Bicubic, Lanczos, Box, Hamming, CVNearest, CVBilinear, CVBicubic, CVArea, CVLanczos4} {
		for _, out := range []image.Point{{57, 43}, {211, 170}, {160, 33}} {
			t.Run(fmt.Sprintf("%v-%v", f, out), func(t *testing.T) {
				rs := resampling{
					filter: f,
					region: image.Rect(0, 0, src.w, src.h),
					box:    [4]float64{0, 0, float64(src.w), float64(src.h)},
					out:    out,
					win:    image.Rectangle{Max: out},
				}
				whole := resampleView(&r, src, &rs)
				rs.win = image.Rect(out.X/5, out.Y/3, out.X-out.X/7, out.Y-1)
				got := resampleView(&r, src, &rs).pixels()
				want := whole.sub(rs.win).pixels()
				if maxd, _ := levelDiff(got, want); maxd != 0 {
					t.Errorf("window differs from the whole output's by %d levels", maxd)
				}
			})
		}
	}
}
