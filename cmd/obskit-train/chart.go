package main

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// writeCurves draws the accuracy per epoch on the training batches and on the
// validation part, and the validation loss, and saves the chart to path.
func writeCurves(rep *report, path string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Digits: a CNN trained by GoMLX on obskit batches (rate %g)", rep.rate)
	p.X.Label.Text = "epoch"
	p.Y.Label.Text = "accuracy; validation loss"
	p.Y.Min, p.Y.Max = 0, 1.02
	p.X.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick {
		var ticks []plot.Tick
		step := max(1, int(hi-lo+1)/10)
		for e := 1; float64(e) <= hi; e += step {
			ticks = append(ticks, plot.Tick{Value: float64(e), Label: fmt.Sprint(e)})
		}
		return ticks
	})
	var train, val, loss plotter.XYs
	for e, c := range rep.curve {
		x := float64(e + 1)
		train = append(train, plotter.XY{X: x, Y: c.train})
		val = append(val, plotter.XY{X: x, Y: c.val})
		loss = append(loss, plotter.XY{X: x, Y: c.valLoss})
	}
	for i, s := range []struct {
		name string
		xys  plotter.XYs
	}{{"train accuracy (augmented batches)", train}, {"validation accuracy", val}, {"validation loss", loss}} {
		l, pts, err := plotter.NewLinePoints(s.xys)
		if err != nil {
			return err
		}
		l.Color = plotColors[i]
		pts.Color = plotColors[i]
		p.Add(l, pts)
		p.Legend.Add(s.name, l, pts)
	}
	best := plotter.XYs{{X: float64(rep.best), Y: rep.curve[rep.best-1].val}}
	mark, err := plotter.NewScatter(best)
	if err != nil {
		return err
	}
	mark.GlyphStyle.Radius = vg.Points(5)
	p.Add(mark)
	p.Legend.Add(fmt.Sprintf("weights kept (epoch %d)", rep.best), mark)
	p.Legend.Top, p.Legend.Left = false, false
	p.Legend.YOffs = vg.Points(100) // between the loss, low, and the accuracies, high
	p.Add(plotter.NewGrid())
	return p.Save(7*vg.Inch, 4.5*vg.Inch, path)
}

var plotColors = []color.Color{
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
	color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 0xff},
}
