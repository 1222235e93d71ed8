package main

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/obskit/obskit/bench"
)

// A sideTable is a family of sub-benchmarks shown as one table: a row per
// sub-benchmark of Prefix (sorted by the number that ends its name, if any),
// a column per side, each cell the side's median throughput.
type sideTable struct {
	Title, Intro string
	Bench        string // the top-level benchmark, for the command
	Prefix       string // sub-benchmarks "bench <Prefix><row>"
	RowHead      string
	Label        string // the row's label when the prefix names one benchmark
	Sides        []sideColumn
	// Ratios add columns of ratios, each the median of a metric or of one
	// metric over another run by run.
	Ratios []ratioColumn
}

// A sideColumn is a column of a side's throughput: the side's name, as in
// "<side>-MB/s", and the column's head.
type sideColumn struct{ Side, Head string }

// A ratioColumn is a column of the median of Num, or of Num / Den run by run.
type ratioColumn struct{ Head, Num, Den string }

// runs returns the column's runs of the sub-benchmark name of package bench,
// as a target's Ref and Over give its figure.
func (c ratioColumn) runs(s Samples, name string) []float64 {
	var den *metricRef
	if c.Den != "" {
		den = &metricRef{"bench", name, c.Den}
	}
	return s.runs(metricRef{"bench", name, c.Num}, den)
}

// kernelTableDefs are the experiments of the row kernel (BenchmarkKernel) and
// the split batch (BenchmarkSplit), shown per machine.
var kernelTableDefs = []sideTable{
	{Title: "Shuffled rows against their size", Bench: "BenchmarkKernel",
		Intro:  "Rows of one size from random places of 188 MB into a reused batch of about 400 KB, GB/s. `go` is a `copy()` per row, the kernel before prefetch; `no prefetch` the kernel's own copy without its prefetch; the C sides are glibc's `memcpy` per row, alone, prefetching two rows ahead, and with the kernel's 8 KiB cursor.",
		Prefix: "BenchmarkKernel/rows/", RowHead: "row bytes",
		Sides: []sideColumn{{"kit", "kernel"}, {"go", "go copy()"}, {"noprefetch", "no prefetch"},
			{bench.CMemcpy, "C memcpy"}, {bench.CPrefetch, "C prefetch 2 rows"}, {bench.CKernel, "C 8 KiB cursor"}}},
	{Title: "Prefetch distance", Bench: "BenchmarkKernel",
		Intro:  "The kernel with its cursor at other distances ahead of the copy (bytes of the batch in flight), GB/s; `touch` reads one byte of every line of the next row with plain loads instead of prefetching.",
		Prefix: "BenchmarkKernel/distance/", RowHead: "row bytes",
		Sides: []sideColumn{{"kit", "8 KiB (kernel)"}, {"none", "none"}, {"1KiB", "1 KiB"}, {"2KiB", "2 KiB"},
			{"4KiB", "4 KiB"}, {"16KiB", "16 KiB"}, {"32KiB", "32 KiB"}, {"touch", "touch next row"}}},
	{Title: "Copy routine against batch size", Bench: "BenchmarkKernel",
		Intro:  "Batches of 3136-byte rows, GB/s: the kernel's choice, 16-byte moves, REP MOVSB, and 16-byte moves with non-temporal stores (which bypass the caches, for batches larger than them).",
		Prefix: "BenchmarkKernel/copy/", RowHead: "rows per batch",
		Sides: []sideColumn{{"kit", "kernel"}, {"vector", "vector"}, {"movs", "REP MOVSB"}, {"stream", "non-temporal"}}},
	{Title: "Huge pages", Bench: "BenchmarkKernel",
		Intro:  "The kernel and `copy()` from a source in 2 MiB pages (as the kit allocates arrays) and in the Go heap's 4 KiB pages, GB/s.",
		Prefix: "BenchmarkKernel/pages", RowHead: "rows", Label: "3136 bytes",
		Sides: []sideColumn{{"kit", "kernel, 2 MiB pages"}, {"kit-4k", "kernel, 4 KiB pages"},
			{"copy", "copy(), 2 MiB pages"}, {"copy-4k", "copy(), 4 KiB pages"}}},
	{Title: "A batch split across two goroutines", Bench: "BenchmarkSplit",
		Intro:  "One shuffled batch of float32 rows gathered by two goroutines, each calling `gather.GatherPart` for half of it, against one goroutine calling `gather.Gather`, GB/s; the speedup is one's time over two's, alternating. The split pays where the speedup passes 1. The same split in C (two threads each copying half with `memcpy` and the kernel's prefetch cursor, against one) shows what the memory system gives two cores in the same run.",
		Prefix: "BenchmarkSplit/", RowHead: "rows per batch",
		Sides:  []sideColumn{{"one", "one goroutine"}, {"two", "two goroutines"}, {"c-one", "C, one thread"}, {"c-two", "C, two threads"}},
		Ratios: []ratioColumn{{"speedup", "x-one", ""}, {"C's speedup", "x-c-one", "x-c-two"}}},
}

// kernelTables writes the tables of kernelTableDefs that r measured, after
// the commands of their benchmarks.
func kernelTables(b *strings.Builder, r *Results) {
	var tables []sideTable
	var commands []string
	for _, t := range kernelTableDefs {
		if len(t.rows(r.Benchmarks)) == 0 {
			continue
		}
		tables = append(tables, t)
		if c := "`" + benchCommand(metricRef{"bench", t.Bench, ""}, r.Count) + "`"; !slices.Contains(commands, c) {
			commands = append(commands, c)
		}
	}
	if len(tables) == 0 {
		return
	}
	fmt.Fprintf(b, "\n#### Where a shuffled gather's time goes on this machine\n\n")
	fmt.Fprintf(b, "Medians of %d runs; sides alternate within each benchmark. ", r.Count)
	if n := len(commands); n == 1 {
		fmt.Fprintf(b, "Command: %s.\n", commands[0])
	} else {
		fmt.Fprintf(b, "Commands: %s and %s.\n", strings.Join(commands[:n-1], ", "), commands[n-1])
	}
	for _, t := range tables {
		rows := t.rows(r.Benchmarks)
		fmt.Fprintf(b, "\n**%s.** %s\n\n", t.Title, t.Intro)
		heads := []string{t.RowHead}
		for _, c := range t.Sides {
			heads = append(heads, c.Head)
		}
		for _, c := range t.Ratios {
			heads = append(heads, c.Head)
		}
		fmt.Fprintf(b, "| %s |\n|%s\n", strings.Join(heads, " | "), strings.Repeat(" --- |", len(heads)))
		for _, row := range rows {
			cells := []string{cmp.Or(strings.TrimPrefix(row, "/"), t.Label, "-")}
			key := "bench " + t.Prefix + row
			for _, c := range t.Sides {
				cells = append(cells, gbps(r.Benchmarks[key][c.Side+"-MB/s"]))
			}
			for _, c := range t.Ratios {
				cells = append(cells, spread(newMeasure("", c.runs(r.Benchmarks, t.Prefix+row))))
			}
			fmt.Fprintf(b, "| %s |\n", strings.Join(cells, " | "))
		}
	}
}

// rows lists the sub-benchmarks of the table in s, by the number their name
// ends with.
func (t sideTable) rows(s Samples) []string {
	var rows []string
	for k := range s {
		if name, ok := strings.CutPrefix(k, "bench "+t.Prefix); ok {
			rows = append(rows, name)
		}
	}
	slices.SortFunc(rows, func(a, b string) int {
		x, errA := strconv.Atoi(a)
		y, errB := strconv.Atoi(b)
		if errA == nil && errB == nil {
			return x - y
		}
		return strings.Compare(a, b)
	})
	return rows
}

// gbps formats the median of MB/s values in GB/s, or "-".
func gbps(mbs []float64) string {
	if len(mbs) == 0 {
		return "-"
	}
	return num(newMeasure("", mbs).Median / 1e3)
}
