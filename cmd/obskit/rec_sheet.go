package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"

	"github.com/obskit/obskit/mxnet"
)

func init() {
	register(command{
		group: "rec", name: "sheet", args: "FILE.rec OUT.png",
		summary: "draw the first --n images of a shuffled epoch of FILE.rec, augmented as MXNet's ImageRecordIter would (mxnet.ImageRecordIter, with the flags of its parameters, MXNet's names), as a grid in OUT.png, denormalized for display; print one JSON object per image: tile, row, col, index (the record's position), key, label",
		flags: func(fs *flag.FlagSet) func(*env, []string) error {
			n := fs.Int("n", 16, "the number of images (all of FILE.rec's, said on stderr, when it holds fewer)")
			seed := fs.Uint64("seed", 0, "the seed of the epoch's order and of the augmentations")
			epoch := fs.Int("epoch", 0, "the epoch")
			iter := iterFlags(fs)
			return func(e *env, args []string) error {
				if len(args) != 2 {
					return usageErrorf("want FILE.rec and OUT.png, got %d arguments", len(args))
				}
				if *n < 1 {
					return usageErrorf("--n %d: want at least 1", *n)
				}
				it, err := iter(args[0], *n)
				if err != nil {
					return err
				}
				it.Shuffle, it.Seed = true, *seed
				return recSheet(e, it, *epoch, args[1])
			}
		},
	})
}

// sheetTile is the JSON line of obskit rec sheet: where image Index of the
// file went in the grid.
type sheetTile struct {
	Tile  int         `json:"tile"`
	Row   int         `json:"row"`
	Col   int         `json:"col"`
	Index int         `json:"index"`
	Key   int64       `json:"key"`
	Label []jsonFloat `json:"label"`
}

// recSheet writes the grid of the first batch of the epoch (it's batch size
// is the number of images) to out. An image that cannot be decoded is its
// error.
func recSheet(e *env, it mxnet.ImageRecordIter, epoch int, out string) (err error) {
	defer recoverRead(&err)
	// The sheet's file first, so that an OUT.png that cannot be written
	// fails before any image is decoded.
	var o outputs
	defer o.abort()
	file, err := o.create(out)
	if err != nil {
		return err
	}
	p, err := it.Provider()
	if err != nil {
		return err
	}
	if nobs := p.Steps().N(); nobs < it.BatchSize {
		if nobs == 0 {
			return fmt.Errorf("%s: no records to draw", it.PathImgrec)
		}
		fmt.Fprintf(e.stderr, "obskit rec sheet: --n %d, but %s holds %d records: drawing %d\n", it.BatchSize, it.PathImgrec, nobs, nobs)
		it.BatchSize = nobs
		if p, err = it.Provider(); err != nil {
			return err
		}
	}
	key, err := recordKeys(it)
	if err != nil {
		return err
	}
	n := it.BatchSize
	h, w := it.Aug.DataShape[1], it.Aug.DataShape[2]
	cols := int(math.Ceil(math.Sqrt(float64(n))))
	rows := (n + cols - 1) / cols
	const gap = 2
	sheet := image.NewRGBA(image.Rect(0, 0, cols*(w+gap)+gap, rows*(h+gap)+gap))
	draw.Draw(sheet, sheet.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	enc := json.NewEncoder(e.stdout)
	for b := range p.Epoch(epoch) {
		x, y := p.Data(b, it.DataName).Data(), p.Label(b, it.LabelName).Data()
		width := it.LabelWidth
		for k := range min(n, b.Real) {
			r, c := k/cols, k%cols
			drawImage(sheet, image.Pt(gap+c*(w+gap), gap+r*(h+gap)), x[k*3*h*w:(k+1)*3*h*w], it.Aug)
			label := make([]jsonFloat, width)
			for j := range label {
				label[j] = jsonFloat(y[k*width+j])
			}
			i := b.Indices[k]
			if err := enc.Encode(sheetTile{Tile: k, Row: r, Col: c, Index: i, Key: key(i), Label: label}); err != nil {
				return err
			}
		}
		break
	}
	if err := png.Encode(file, sheet); err != nil {
		return fmt.Errorf("%s: %w", out, err)
	}
	return o.commit()
}

// drawImage draws the float32 CHW image chw at at, undoing the normalization
// of m: v*std/scale + mean, rounded and clamped to 8 bits. The random
// contrast and illumination stay, as the model sees them.
func drawImage(dst *image.RGBA, at image.Point, chw []float32, m mxnet.Augmenter) {
	h, w := m.DataShape[1], m.DataShape[2]
	mean := [3]float64{m.MeanR, m.MeanG, m.MeanB}
	std := [3]float64{m.StdR, m.StdG, m.StdB}
	for c := range 3 {
		for y := range h {
			for x := range w {
				k := (c*h+y)*w + x
				mu := mean[c]
				if m.MeanImg != nil {
					mu = float64(m.MeanImg[k])
				}
				v := float64(chw[k])*std[c]/m.Scale + mu
				dst.Pix[dst.PixOffset(at.X+x, at.Y+y)+c] = uint8(math.Round(max(0, min(255, v))))
			}
		}
	}
	for y := range h {
		for x := range w {
			dst.Pix[dst.PixOffset(at.X+x, at.Y+y)+3] = 255
		}
	}
}
