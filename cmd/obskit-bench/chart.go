package main

import (
	"fmt"
	"image/color"
	"slices"
	"strings"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// kinds are the bar colours of the chart, in legend order: obskit, the Go limit
// and the peers by library. Python's own limit is left out of the chart (it is
// in the table).
var kinds = []kindStyle{
	{"obskit", "obskit", color.RGBA{0x1f, 0x77, 0xb4, 0xff}},
	{"go-limit", "", color.RGBA{0x99, 0x99, 0x99, 0xff}}, // legend: the limits' names
	{"numpy", "NumPy", color.RGBA{0xff, 0x7f, 0x0e, 0xff}},
	{"torch", "PyTorch", color.RGBA{0xd6, 0x27, 0x28, 0xff}},
	{"sklearn", "scikit-learn", color.RGBA{0x2c, 0xa0, 0x2c, 0xff}},
	{"c", "C reference (in the Go benchmark)", color.RGBA{0x94, 0x67, 0xbd, 0xff}},
}

type kindStyle struct {
	kind, legend string
	color        color.Color
}

// A bar is one row of the chart.
type bar struct {
	label string
	kind  string
	value float64
}

// chartRows lists the rows of the chart of the workloads in unit, top to
// bottom: for each workload a row with its title and no bar, then a bar for each
// side measured.
func chartRows(ws []Workload, unit string) []bar {
	var rows []bar
	for _, w := range ws {
		if w.Unit != unit {
			continue
		}
		rows = append(rows, bar{label: w.Title})
		add := func(name, kind string, m Measure) {
			if len(m.Runs) > 0 {
				rows = append(rows, bar{name, kind, m.Median})
			}
		}
		add("obskit", "obskit", w.Obskit)
		if w.Limit != nil {
			add(w.Limit.Name, "go-limit", *w.Limit)
		}
		for _, p := range w.peers() {
			add(p.Name, p.Kind, p.Measure)
		}
	}
	return rows
}

// writeChart draws the median throughput of every side of the workloads in unit
// as horizontal bars and saves the chart to path (its extension picks the
// format: .svg, .png, .pdf).
func writeChart(r *Results, unit, title, path string) error {
	rows := chartRows(r.Workloads, unit)
	if len(rows) == 0 {
		return fmt.Errorf("no workload measured in %s to chart", unit)
	}
	p := plot.New()
	p.Title.Text = title
	runs := "runs"
	if r.Count == 1 {
		runs = "run"
	}
	p.X.Label.Text = fmt.Sprintf("%s, median of %d %s (longer is faster)", unit, r.Count, runs)
	p.X.Min = 0
	n := len(rows)
	labels := make([]string, n)
	var text, heads plotter.XYLabels
	for i, row := range rows {
		y := float64(n - 1 - i) // first row at the top
		if row.kind == "" {     // a workload's title, drawn at the left of the plot
			heads.XYs = append(heads.XYs, plotter.XY{X: 0, Y: y})
			heads.Labels = append(heads.Labels, row.label)
			continue
		}
		labels[n-1-i] = row.label
		bars, err := plotter.NewBarChart(plotter.Values{row.value}, vg.Points(9))
		if err != nil {
			return fmt.Errorf("bar %q: %w", row.label, err)
		}
		bars.Horizontal = true
		bars.XMin = y
		bars.LineStyle.Width = 0
		bars.Color = colorOf(row.kind)
		p.Add(bars)
		text.XYs = append(text.XYs, plotter.XY{X: row.value, Y: y})
		text.Labels = append(text.Labels, " "+num(row.value))
	}
	values, err := plotter.NewLabels(text)
	if err != nil {
		return err
	}
	for i := range values.TextStyle {
		values.TextStyle[i].YAlign = -0.5
		values.TextStyle[i].Font.Size = vg.Points(7)
	}
	p.Add(values)
	titles, err := plotter.NewLabels(heads)
	if err != nil {
		return err
	}
	for i := range titles.TextStyle {
		titles.TextStyle[i].YAlign = -0.5
		titles.TextStyle[i].Font.Size = vg.Points(9)
		titles.TextStyle[i].Font.Weight = xfont.WeightBold
	}
	p.Add(titles)
	p.NominalY(labels...)
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4 // rows without a bar keep their label
	p.Y.Tick.Label.Font.Size = vg.Points(8)
	present := map[string]bool{}
	var limits []string
	for _, row := range rows {
		present[row.kind] = true
		if row.kind == "go-limit" && !slices.Contains(limits, row.label) {
			limits = append(limits, row.label)
		}
	}
	for _, k := range kinds {
		if k.kind == "go-limit" {
			k.legend = "limit: " + strings.Join(limits, ", ") + " in Go"
		}
		if present[k.kind] {
			sw, err := plotter.NewBarChart(plotter.Values{0}, vg.Points(8))
			if err != nil {
				return err
			}
			sw.Color = k.color
			sw.LineStyle.Width = 0
			p.Legend.Add(k.legend, sw)
		}
	}
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	// Leave room right of the longest bar for its value and the legend.
	_, xmax, _, _ := values.DataRange()
	p.X.Max = xmax * 1.6
	height := vg.Length(n)*vg.Points(12) + 1.2*vg.Inch
	return p.Save(8.5*vg.Inch, height, path)
}

func colorOf(kind string) color.Color {
	i := slices.IndexFunc(kinds, func(k kindStyle) bool { return k.kind == kind })
	if i < 0 {
		return color.Black
	}
	return kinds[i].color
}
