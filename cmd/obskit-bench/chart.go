package main

import (
	"errors"
	"fmt"
	"image/color"
	"slices"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// kinds are the bar colours of the chart, in legend order: obskit, the limit
// and the peers by library.
var kinds = []kindStyle{
	{"obskit", "obskit", color.RGBA{0x1f, 0x77, 0xb4, 0xff}},
	{"limit", "limit: copy() of the same bytes in Go", color.RGBA{0x99, 0x99, 0x99, 0xff}},
	{"numpy", "NumPy", color.RGBA{0xff, 0x7f, 0x0e, 0xff}},
	{"torch", "PyTorch", color.RGBA{0xd6, 0x27, 0x28, 0xff}},
	{"sklearn", "scikit-learn", color.RGBA{0x2c, 0xa0, 0x2c, 0xff}},
	{"c", "C reference (in the Go benchmark)", color.RGBA{0x94, 0x67, 0xbd, 0xff}},
}

type kindStyle struct {
	kind, legend string
	color        color.Color
}

// A bar is one row of the chart; a row without kind is a workload's title.
type bar struct {
	label, kind string
	value       float64
}

// chartRows lists the rows of the chart, top to bottom: for each workload in
// GB/s a title row, then a bar for each side measured.
func chartRows(ws []Workload) []bar {
	var rows []bar
	for _, w := range ws {
		if w.Unit != "GB/s" {
			continue
		}
		rows = append(rows, bar{label: w.Title}, bar{"obskit", "obskit", w.Obskit.Median})
		if w.Limit != nil {
			rows = append(rows, bar{w.Limit.Name, "limit", w.Limit.Median})
		}
		for _, p := range w.peers() {
			if len(p.Runs) > 0 {
				rows = append(rows, bar{p.Name, p.Kind, p.Median})
			}
		}
	}
	return rows
}

// writeChart draws the median throughput of every side of r's workloads in
// GB/s as horizontal bars and saves the chart to path (its extension picks
// the format: .svg, .png, .pdf).
func writeChart(r *Results, path string) error {
	rows := chartRows(r.Workloads)
	if len(rows) == 0 {
		return errors.New("no workload measured in GB/s to chart")
	}
	p := plot.New()
	p.Title.Text = "Gathers and batch loops, batches of 128 rows of 784, " + r.Machine.CPU + " " + r.Machine.Microarch
	p.X.Label.Text = fmt.Sprintf("GB/s, median of %d runs (longer is faster)", r.Count)
	p.X.Min = 0
	n := len(rows)
	labels := make([]string, n)
	var values, titles plotter.XYLabels
	present := map[string]bool{}
	for i, row := range rows {
		y := float64(n - 1 - i) // first row at the top
		if row.kind == "" {
			titles.XYs = append(titles.XYs, plotter.XY{X: 0, Y: y})
			titles.Labels = append(titles.Labels, row.label)
			continue
		}
		labels[n-1-i] = row.label
		present[row.kind] = true
		bars, err := plotter.NewBarChart(plotter.Values{row.value}, vg.Points(9))
		if err != nil {
			return fmt.Errorf("bar %q: %w", row.label, err)
		}
		bars.Horizontal, bars.XMin, bars.LineStyle.Width, bars.Color = true, y, 0, colorOf(row.kind)
		p.Add(bars)
		values.XYs = append(values.XYs, plotter.XY{X: row.value, Y: y})
		values.Labels = append(values.Labels, " "+num(row.value))
	}
	for _, l := range []struct {
		xy   plotter.XYLabels
		size vg.Length
		bold bool
	}{{values, 7, false}, {titles, 9, true}} {
		labels, err := plotter.NewLabels(l.xy)
		if err != nil {
			return err
		}
		for i := range labels.TextStyle {
			labels.TextStyle[i].YAlign = -0.5
			labels.TextStyle[i].Font.Size = vg.Points(float64(l.size))
			if l.bold {
				labels.TextStyle[i].Font.Weight = xfont.WeightBold
			}
		}
		p.Add(labels)
	}
	p.NominalY(labels...)
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4 // rows without a bar keep their label
	p.Y.Tick.Label.Font.Size = vg.Points(8)
	for _, k := range kinds {
		if present[k.kind] {
			sw, err := plotter.NewBarChart(plotter.Values{0}, vg.Points(8))
			if err != nil {
				return err
			}
			sw.Color, sw.LineStyle.Width = k.color, 0
			p.Legend.Add(k.legend, sw)
		}
	}
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	xmax := 0.0
	for _, row := range rows {
		xmax = max(xmax, row.value)
	}
	p.X.Max = xmax * 1.6 // room right of the longest bar for its value and the legend
	return p.Save(8.5*vg.Inch, vg.Length(n)*vg.Points(12)+1.2*vg.Inch, path)
}

func colorOf(kind string) color.Color {
	if i := slices.IndexFunc(kinds, func(k kindStyle) bool { return k.kind == kind }); i >= 0 {
		return kinds[i].color
	}
	return color.Black
}
